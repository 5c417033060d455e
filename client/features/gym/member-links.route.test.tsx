import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { kisiApi, type KisiGroupLink } from '@contracts/kisi.contract';
import { fakeBff, kisiLink, renderApp, signedInAs } from '@/test-utils';
import { handle, problem, refuse } from '@/test-server';
import { fakeGym, member, owner } from './gym.fake-api';

afterEach(() => jest.restoreAllMocks());

const marta = owner(1, { name: 'Marta Kowalski', gymName: 'Iron Harbour' });
const ada = member(7, marta, { name: 'Ada Lovelace', email: 'ada@members.example' });

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
      return { ...created, secret: 'abc', quick_response_code_token: 'def', quick_response_code_image: null };
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

  it('creates a link prefilled with the member’s email, showing Kisi’s field errors', async () => {
    const { user, api } = setup([]);
    expect(await screen.findByText('No access links')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New access link' }));
    const dialog = screen.getByRole('dialog', { name: 'New access link' });
    expect(within(dialog).getByLabelText('Email')).toHaveValue('ada@members.example');
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'nope');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('Email is invalid')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'ada@members.example');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await screen.findByText('Access link “Ada Lovelace (front desk)” created for ada@members.example.')).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Access links' })).toHaveTextContent('Ada Lovelace (front desk)');
    expect(api.calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      group_link: { name: 'Ada Lovelace (front desk)', email: 'ada@members.example', quick_response_code_type: 'online' },
    });
  });

  it('deletes a link after confirming', async () => {
    const { user } = setup([link(1, { name: 'Weekend pass' })]);
    await user.click(await screen.findByRole('button', { name: 'Delete Weekend pass' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete link' }));
    expect(await screen.findByText('No access links')).toBeInTheDocument();
  });

  it('keeps the page when Kisi is down, and says so', async () => {
    setup([], [handle(kisiApi.listGroupLinks, () => problem(502, 'Bad Gateway', 'Kisi could not be reached.'))]);
    expect(await screen.findByText('Could not load the access links from Kisi: Kisi could not be reached.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Ada Lovelace', level: 1 })).toBeInTheDocument();
  });

  it('shows staff the links without create or delete (admins only)', async () => {
    const staff = signedInAs({ id: 2, email: 's@x.test', name: 'Sam Staff', role: 'staff' });
    setup([link(1, { name: 'Weekend pass' })], [staff]);
    await screen.findByText('Weekend pass');
    expect(screen.getByText('Only admins can create or delete access links.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'New access link' })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Delete Weekend pass' })).not.toBeInTheDocument();
  });
});
