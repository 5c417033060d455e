import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { LINK_ENDED, kisiApi, type KisiGroupLink } from '@contracts/kisi.contract';
import { fakeBff, kisiLink, renderApp, signedInAs } from '@/test-support/test-utils';
import { fieldProblem, handle, problem, refuse } from '@/test-support/test-server';
import { formatTime } from '@/lib/format';
import { fakeGym, member, owner } from '@/test-support/gym.fake-api';

afterEach(() => jest.restoreAllMocks());

const marta = owner(1, { name: 'Marta Kowalski', gymName: 'Iron Harbour' });
const ada = member(7, marta, { name: 'Ada Lovelace', email: 'ada@members.example' });

/** The first bytes of a PNG in base64, as Kisi sends a QR code (bare, no data URL). */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUg==';

/** Tonight at 23:59 in the test's own zone, as a `datetime-local` input holds it. */
function endOfToday() {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T23:59`;
}

const link = (id: number, overrides: Partial<KisiGroupLink> = {}) => kisiLink(id, { email: 'ada@members.example', ...overrides });

/** The Kisi proxy's group links: `query` is a substring search, as in Kisi. */
function fakeKisiLinks(links: KisiGroupLink[]): RequestHandler[] {
  let nextId = 100;
  return [
    handle(kisiApi.listGroupLinks, ({ query }) => links.filter((l) => `${l.name} ${l.email ?? ''}`.toLowerCase().includes((query.query ?? '').toLowerCase()))),
    handle(kisiApi.createGroupLink, ({ body: { group_link: input } }) => {
      if (!input.email?.includes('@')) return refuse(422, { errors: { email: ['is invalid'] } });
      const created = link(nextId++, { name: input.name, email: input.email });
      links.push(created);
      const withQr = input.quick_response_code_type ? { quick_response_code_token: 'qr-token-def', quick_response_code_image: PNG_BASE64 } : { quick_response_code_token: null, quick_response_code_image: null };
      return { ...created, valid_from: input.valid_from ?? null, valid_until: input.valid_until ?? null, secret: 'secret-abc', ...withQr };
    }),
    handle(kisiApi.deleteGroupLink, ({ params }) => {
      links.splice(links.findIndex((l) => l.id === params.id), 1);
    }),
  ];
}

function setup(links: KisiGroupLink[], extra: RequestHandler[] = []) {
  const gym = fakeGym({ owners: [marta], members: [ada] });
  const api = fakeBff([...extra, ...gym.handlers, ...fakeKisiLinks(links)], { signedIn: true });
  renderApp('/shell/gymowner/users/7/group_links');
  return { api, user: userEvent.setup() };
}

describe('/shell/gymowner/users/:id/group_links', () => {
  it('lists only the member’s own links, found by email through the Kisi proxy', async () => {
    const { api } = setup([link(1, { name: 'Weekend pass', valid_until: '2030-01-01T00:00:00Z' }), link(2, { name: 'Other', email: 'ada@members.example.org' })]);
    const list = await screen.findByRole('list', { name: 'Access links' });
    expect(within(list).getByText('Weekend pass')).toBeInTheDocument();
    expect(within(list).queryByText('Other')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Access links' })).toHaveAttribute('aria-current', 'page');
    expect(api.calls.map((c) => c.path)).toContain('/api/kisi/group_links?query=ada%40members.example&limit=100');
  });

  it('says Expired for a link past its valid-until, which Kisi still calls enabled', async () => {
    setup([
      link(1, { name: 'Yesterday’s pass', valid_until: '2020-01-01T00:00:00Z', link_enabled: true }),
      link(2, { name: 'Weekend pass', valid_until: '2030-01-01T00:00:00Z', link_enabled: true }),
      link(3, { name: 'Paused pass', valid_until: null, link_enabled: false }),
    ]);
    const list = await screen.findByRole('list', { name: 'Access links' });
    const rowOf = (name: string) => within(list).getByText(name).closest('li')!;
    expect(rowOf('Yesterday’s pass')).toHaveTextContent('Expired');
    expect(rowOf('Yesterday’s pass')).not.toHaveTextContent('Enabled');
    expect(rowOf('Weekend pass')).toHaveTextContent('Enabled');
    expect(rowOf('Paused pass')).toHaveTextContent('Disabled');
  });

  it('says how soon a day pass ends when issued late, and when its end has passed', async () => {
    // 23:17 by the desk's clock: "tonight at 23:59" is a 42-minute pass.
    const late = new Date();
    late.setHours(23, 17, 0, 0);
    jest.useFakeTimers({ now: late, advanceTimers: true });
    try {
      const { user } = setup([]);
      await user.click(await screen.findByRole('button', { name: 'New day pass' }));
      const dialog = await screen.findByRole('dialog', { name: 'New day pass' });
      const until = within(dialog).getByLabelText('Valid until');
      expect(until).toHaveAccessibleDescription(`Ends in 42 min, at ${formatTime(new Date(endOfToday()).toISOString())}: pick a later end for a longer pass.`);
      await user.clear(until);
      await user.type(until, `${endOfToday().slice(0, 10)}T08:00`);
      expect(until).toHaveAccessibleDescription('That time has passed: the pass would open no door. Pick a later end.');
    } finally {
      jest.useRealTimers();
    }
  });

  it('creates a day pass ending tonight at 23:59, prefilled with the member’s email, showing Kisi’s field errors', async () => {
    const { user, api } = setup([]);
    expect(await screen.findByText('No access links')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New day pass' }));
    const dialog = await screen.findByRole('dialog', { name: 'New day pass' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Day pass: Ada Lovelace');
    expect(within(dialog).getByLabelText('Email')).toHaveValue('ada@members.example');
    expect(within(dialog).getByLabelText('Valid from (optional)')).toHaveValue('');
    expect(within(dialog).getByLabelText('Valid until')).toHaveValue(endOfToday());
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'nope');
    await user.click(within(dialog).getByRole('button', { name: 'Create day pass' }));
    expect(await within(dialog).findByText('Email is invalid')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'ada@members.example');
    await user.click(within(dialog).getByRole('button', { name: 'Create day pass' }));
    expect(await screen.findByText('Day pass “Day pass: Ada Lovelace” created for ada@members.example.')).toBeInTheDocument();
    // The local 23:59 goes to Kisi as the UTC moment it is, with a QR code asked for.
    expect(api.calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      group_link: { name: 'Day pass: Ada Lovelace', email: 'ada@members.example', quick_response_code_type: 'online', valid_until: new Date(endOfToday()).toISOString() },
    });
    expect(await screen.findByRole('list', { name: 'Access links' })).toHaveTextContent('Day pass: Ada Lovelace');
  });

  it('refuses a day pass that has already ended: the form says so under Valid until and sends nothing (issue 52)', async () => {
    const { user, api } = setup([]);
    await user.click(await screen.findByRole('button', { name: 'New day pass' }));
    const dialog = await screen.findByRole('dialog', { name: 'New day pass' });
    const until = within(dialog).getByLabelText('Valid until');
    await user.clear(until);
    await user.type(until, '2020-01-01T08:00');
    await user.click(within(dialog).getByRole('button', { name: 'Create day pass' }));
    expect(until).toBeInvalid();
    expect(until).toHaveAccessibleDescription(LINK_ENDED);
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('puts the server’s refusal of an ended pass under Valid until too (the desk’s clock may be behind)', async () => {
    const { user } = setup([], [handle(kisiApi.createGroupLink, () => fieldProblem([{ path: 'body.group_link.valid_until', message: LINK_ENDED }]))]);
    await user.click(await screen.findByRole('button', { name: 'New day pass' }));
    const dialog = await screen.findByRole('dialog', { name: 'New day pass' });
    await user.click(within(dialog).getByRole('button', { name: 'Create day pass' }));
    const until = within(dialog).getByLabelText('Valid until');
    await waitFor(() => expect(until).toBeInvalid());
    expect(until).toHaveAccessibleDescription(LINK_ENDED);
  });

  it('shows the new pass’s secret and QR code once, with a copy button, then never again', async () => {
    const { user } = setup([]);
    await user.click(await screen.findByRole('button', { name: 'New day pass' }));
    const dialog = await screen.findByRole('dialog', { name: 'New day pass' });
    await user.click(within(dialog).getByRole('button', { name: 'Create day pass' }));
    const created = await within(dialog).findByTestId('created-link');
    expect(created).toHaveTextContent('Shown only once.');
    expect(within(created).getByText('secret-abc')).toBeInTheDocument();
    const qr = within(created).getByRole('img', { name: /^QR code of the access link “Day pass: Ada Lovelace”/ });
    expect(qr).toHaveAttribute('src', `data:image/png;base64,${PNG_BASE64}`);
    // userEvent puts a clipboard in place of the browser's (its readText trips over jsdom's Blob here: watch the write).
    const write = jest.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(created).getByRole('button', { name: 'Copy secret' }));
    expect(await within(created).findByText('Copied the secret.')).toBeInTheDocument();
    expect(within(created).getByRole('button', { name: 'Copy secret' })).toHaveTextContent('Copied');
    expect(write).toHaveBeenCalledWith('secret-abc');
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list never carries the secret again.
    expect(await screen.findByRole('list', { name: 'Access links' })).toHaveTextContent('Day pass: Ada Lovelace');
    expect(screen.queryByText('secret-abc')).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument();
  });

  it('says to copy by hand when the browser refuses the clipboard', async () => {
    const { user } = setup([]);
    await user.click(await screen.findByRole('button', { name: 'New day pass' }));
    const dialog = await screen.findByRole('dialog', { name: 'New day pass' });
    await user.click(within(dialog).getByRole('button', { name: 'Create day pass' }));
    const created = await within(dialog).findByTestId('created-link');
    jest.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Write permission denied.', 'NotAllowedError'));
    await user.click(within(created).getByRole('button', { name: 'Copy secret' }));
    expect(await within(created).findByText('The browser did not allow copying: select the secret and copy it by hand.')).toBeInTheDocument();
    expect(within(created).getByRole('button', { name: 'Copy secret' })).toHaveTextContent('Copy');
    expect(window.getSelection()?.toString()).toBe('secret-abc');
  });

  it('revokes a link after confirming', async () => {
    const { user } = setup([link(1, { name: 'Weekend pass' })]);
    await user.click(await screen.findByRole('button', { name: 'Revoke Weekend pass' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke “Weekend pass”?' })).getByRole('button', { name: 'Revoke link' }));
    expect(await screen.findByText('Access link “Weekend pass” revoked. It no longer opens any door.')).toBeInTheDocument();
    expect(await screen.findByText('No access links')).toBeInTheDocument();
  });

  it('keeps the page when Kisi is down, and says so', async () => {
    setup([], [handle(kisiApi.listGroupLinks, () => problem(502, 'Bad Gateway', 'Kisi could not be reached.'))]);
    expect(await screen.findByText('Could not load the access links from Kisi: Kisi could not be reached.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Ada Lovelace', level: 1 })).toBeInTheDocument();
  });

  it('lets staff, not only admins, create and revoke day passes', async () => {
    const staff = signedInAs({ id: 2, email: 's@x.test', name: 'Sam Staff', role: 'staff' });
    const { user } = setup([link(1, { name: 'Weekend pass' })], [staff]);
    await screen.findByText('Weekend pass');
    expect(screen.queryByText(/Only the front desk/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New day pass' }));
    const dialog = await screen.findByRole('dialog', { name: 'New day pass' });
    expect(within(dialog).getByLabelText('Valid until')).toHaveValue(endOfToday());
    await user.click(within(dialog).getByRole('button', { name: 'Create day pass' }));
    expect(await within(dialog).findByTestId('created-link')).toHaveTextContent('secret-abc');
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke Weekend pass' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke “Weekend pass”?' })).getByRole('button', { name: 'Revoke link' }));
    await waitFor(() => expect(screen.queryByText('Weekend pass')).not.toBeInTheDocument());
  });
});
