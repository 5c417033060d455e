import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { accountApi, type Passkey } from '@contracts/account.contract';
import { createPasskey, passkeysSupported, suggestedName } from '@/lib/passkeys';
import { fakeBff, installFormDataShim, renderApp } from '@/test-support/test-utils';
import { fakeAccount, type FakeAccount } from '@/test-support/team.fake-api';
import { handle, problem, server } from '@/test-support/test-server';

// The browser's half (the prompt) is the platform's: here it answers as told; the rest of lib/passkeys is real.
jest.mock('@/lib/passkeys', () => ({
  ...jest.requireActual<object>('@/lib/passkeys'),
  createPasskey: jest.fn(),
  passkeysSupported: jest.fn(() => true),
}));
const prompt = jest.mocked(createPasskey);
const supported = jest.mocked(passkeysSupported);

installFormDataShim();
beforeEach(() => {
  prompt.mockReset();
  supported.mockReturnValue(true);
});

const ADDED = '2025-03-01T09:30:00.000Z';
const passkey = (id: number, overrides: Partial<Passkey> = {}): Passkey => ({ id, name: `Passkey ${id}`, createdAt: ADDED, lastUsedAt: null, backedUp: false, ...overrides });
/** What the browser hands back from its prompt (the server checks it; here it is only carried). */
const CREATED = {
  id: 'Y3JlZGVudGlhbA',
  rawId: 'Y3JlZGVudGlhbA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', attestationObject: 'oA', transports: ['internal'] },
  authenticatorAttachment: 'platform' as const,
  clientExtensionResults: {},
};
const domError = (name: string) => new DOMException('The browser said no.', name);

/** The account page over the fake account, with its passkey endpoints keeping `me.account.passkeys`. */
function setup(me: FakeAccount = fakeAccount()) {
  let next = 100;
  const api = fakeBff(
    [
      ...me.handlers,
      handle(accountApi.passkeyOptions, () => ({ challenge: 'Y2hhbGxlbmdl', rp: { name: 'Frontdesk', id: 'localhost' } })),
      handle(accountApi.addPasskey, ({ body }) => {
        const added = passkey(++next, { name: body.name });
        me.account.passkeys = [...me.account.passkeys, added];
        return added;
      }),
      handle(accountApi.renamePasskey, ({ params, body }) => {
        const found = me.account.passkeys.find((p) => p.id === params.id);
        if (!found) return problem(404, 'Not Found', 'This passkey is no longer on your account.');
        found.name = body.name;
        return found;
      }),
      handle(accountApi.removePasskey, ({ params }) => {
        me.account.passkeys = me.account.passkeys.filter((p) => p.id !== params.id);
      }),
    ],
    { signedIn: true },
  );
  renderApp('/shell/account');
  return { api, me, user: userEvent.setup() };
}

const section = async () => (await screen.findByRole('heading', { name: 'Passkeys' })).closest('section')!;
const list = () => screen.findByRole('list', { name: 'Your passkeys' });

describe('the account page’s passkeys', () => {
  it('lists each passkey: its name, when it was added and last used, synced or on one device', async () => {
    setup(fakeAccount({ passkeys: [passkey(1, { name: 'Work laptop', lastUsedAt: '2025-03-02T10:00:00.000Z' }), passkey(2, { name: 'Phone', backedUp: true })] }));
    const rows = within(await list()).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringMatching(/^Work laptopAdded .+ · last used .+One device$/), expect.stringMatching(/^PhoneAdded .+ · not used yetSynced$/)]);
    expect(within(rows[0]!).getByRole('button', { name: 'Rename Work laptop' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Remove Work laptop' })).toBeInTheDocument();
  });

  it('says when there is none yet', async () => {
    setup();
    expect(await within(await section()).findByText('You have no passkeys yet.')).toBeInTheDocument();
  });

  it('adds one: the browser’s prompt with the server’s options, then a name, then the list shows it', async () => {
    prompt.mockResolvedValue(CREATED);
    const { user, api } = setup();
    await user.click(within(await section()).getByRole('button', { name: 'Add a passkey' }));
    const form = await screen.findByRole('form', { name: 'Name the new passkey' });
    expect(prompt).toHaveBeenCalledWith({ challenge: 'Y2hhbGxlbmdl', rp: { name: 'Frontdesk', id: 'localhost' } });
    const name = within(form).getByLabelText('Name this passkey');
    await waitFor(() => expect(name).toHaveFocus());
    await user.clear(name);
    await user.type(name, 'Desk PC');
    await user.click(within(form).getByRole('button', { name: 'Save passkey' }));
    expect(await screen.findByText('Passkey “Desk PC” added. Next time, sign in with it.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/api/account/passkeys')?.body).toEqual({ name: 'Desk PC', response: CREATED });
    await waitFor(async () => expect(within(await list()).getByText('Desk PC')).toBeInTheDocument());
    expect(screen.queryByRole('form', { name: 'Name the new passkey' })).not.toBeInTheDocument();
  });

  it('keeps the name form with the server’s word when it refuses, and lets it be cancelled', async () => {
    prompt.mockResolvedValue(CREATED);
    const { user, me } = setup();
    server.use(handle(accountApi.addPasskey, () => problem(400, 'Bad Request', 'This passkey could not be checked, so it was not added. Add it again.')));
    await user.click(within(await section()).getByRole('button', { name: 'Add a passkey' }));
    const form = await screen.findByRole('form', { name: 'Name the new passkey' });
    await user.click(within(form).getByRole('button', { name: 'Save passkey' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('This passkey could not be checked, so it was not added. Add it again.');
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Name the new passkey' })).not.toBeInTheDocument();
    expect(me.account.passkeys).toEqual([]);
  });

  it.each([
    ['NotAllowedError', 'No passkey was added: the request was cancelled or timed out.'],
    ['InvalidStateError', 'This device already holds a passkey for your account. Use that one, or add one from another device or password manager.'],
    ['SecurityError', 'Passkeys work only at the app’s own name over https:// (or localhost), not at an IP address.'],
  ])('says what happened when the browser’s prompt ends with %s, and sends nothing', async (name, message) => {
    prompt.mockRejectedValue(domError(name));
    const { user, api } = setup();
    const card = await section();
    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(message);
    expect(within(card).getByRole('button', { name: 'Add a passkey' })).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path === '/api/account/passkeys')).toEqual([]);
  });

  it('says that this browser cannot, without asking the server', async () => {
    supported.mockReturnValue(false);
    const { user, api } = setup();
    const card = await section();
    expect(within(card).getByText(/This browser cannot use passkeys here/)).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Add a passkey' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(/This browser cannot use passkeys here/);
    expect(api.calls.filter((c) => c.path.startsWith('/api/account/passkeys'))).toEqual([]);
  });

  it('renames one in place', async () => {
    const { user, api } = setup(fakeAccount({ passkeys: [passkey(1, { name: 'Laptop' })] }));
    await user.click(within(await list()).getByRole('button', { name: 'Rename Laptop' }));
    const form = screen.getByRole('form', { name: 'Rename Laptop' });
    const name = within(form).getByLabelText('New name');
    await user.clear(name);
    await user.type(name, 'Old laptop');
    await user.click(within(form).getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Passkey renamed to “Old laptop”.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'PATCH')).toMatchObject({ path: '/api/account/passkeys/1', body: { name: 'Old laptop' } });
    await waitFor(async () => expect(within(await list()).getByText('Old laptop')).toBeInTheDocument());
  });

  it('removes one after a confirm', async () => {
    const { user, api } = setup(fakeAccount({ passkeys: [passkey(1, { name: 'Laptop' }), passkey(2, { name: 'Phone' })] }));
    await user.click(within(await list()).getByRole('button', { name: 'Remove Laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove “Laptop”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    expect(await screen.findByText('Passkey “Laptop” removed.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/account/passkeys/1');
    await waitFor(async () => expect(within(await list()).getAllByRole('listitem')).toHaveLength(1));
  });

  it('does not offer to remove the only way in of someone without a password', async () => {
    const { user, api } = setup(fakeAccount({ hasPassword: false, passkeys: [passkey(1, { name: 'Phone' })] }));
    await user.click(within(await list()).getByRole('button', { name: 'Remove Phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove “Phone”?' });
    expect(dialog).toHaveTextContent('This passkey is your only way to sign in.');
    expect(within(dialog).queryByRole('button', { name: 'Remove passkey' })).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'DELETE')).toEqual([]);
  });
});

describe('suggestedName', () => {
  it('names the device the browser runs on, or a security key', () => {
    expect(suggestedName({}, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('Passkey on iPhone');
    expect(suggestedName({}, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('Passkey on Windows');
    expect(suggestedName({ authenticatorAttachment: 'cross-platform' }, 'Mozilla/5.0 (Windows NT 10.0)')).toBe('Security key or phone');
    expect(suggestedName({}, 'curl/8')).toBe('My passkey');
  });
});
