import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SEARCH_DEBOUNCE_MS } from '@/components/search-box';
import { webhookApi } from '@contracts/webhook.contract';
import { gymApi } from '@contracts/gym.contract';
import { kisiApi } from '@contracts/kisi.contract';
import { setUserAccess } from '@/lib/kisi';
import { WRITES_CHANNEL, staleNews } from '@/lib/endpoint-write';
import { kisiUser } from '@/test-support/kisi.fake-api';
import { fakeBff, holdRequests, renderApp } from '@/test-support/test-utils';
import { handle } from '@/test-support/test-server';
import { fakeGym, member, NEXT_TRY_AT, owner } from '@/test-support/gym.fake-api';
import { formatWhen } from '@/lib/format';
import type { FakeGym } from '@/test-support/gym.fake-api';

afterEach(() => jest.restoreAllMocks());

const marta = owner(1, { name: 'Marta Kowalski', gymName: 'Iron Harbour' });
const theo = owner(2, { name: 'Theo Brandt', gymName: 'Northside Strength' });

function seeded() {
  const members = Array.from({ length: 23 }, (_, i) =>
    member(i + 1, i % 2 ? theo : marta, { name: `Member ${i + 1}`, membership: i % 5 === 4 ? 'paused' : 'active' }),
  );
  return fakeGym({ owners: [marta, theo], members });
}

function setup(path: string, gym: FakeGym = seeded()) {
  const api = fakeBff(gym.handlers, { signedIn: true });
  const view = renderApp(path);
  return { ...view, api, gym, user: userEvent.setup() };
}

const memberCalls = (api: { calls: { method: string; path: string }[] }) =>
  api.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/gym/users?')).map((c) => c.path);

describe('/shell/gymowner/users', () => {
  it('maps the URL page and filters onto the call, and shows memberships as badges', async () => {
    const { api } = setup('/shell/gymowner/users?page=1&ownerId=1&membership=paused');
    const list = await screen.findByRole('table', { name: 'Members' });
    expect(memberCalls(api)).toEqual(['/api/gym/users?page=0&pageSize=10&ownerId=1&membership=paused']);
    expect(within(list).getAllByText('Paused')).toHaveLength(2); // members 5 and 15 are Marta's paused ones
    expect(within(list).queryByText('Active')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Owner')).toHaveValue('1');
    expect(screen.getByLabelText('Membership')).toHaveValue('paused');
  });

  it('ignores filters it does not understand', async () => {
    const { api } = setup('/shell/gymowner/users?page=x&ownerId=abc&membership=frozen');
    await screen.findByRole('table', { name: 'Members' });
    expect(memberCalls(api)).toEqual(['/api/gym/users?page=0&pageSize=10']);
    expect(screen.getByText('Showing 1–10 of 23 members')).toBeInTheDocument();
  });

  it('filters by owner from the picker, back to page 1, keeping the search', async () => {
    const { router, user } = setup('/shell/gymowner/users?page=2&query=member');
    await screen.findByText('Showing 11–20 of 23 members');
    await screen.findByRole('option', { name: 'Northside Strength (Theo Brandt)' });
    await user.selectOptions(screen.getByLabelText('Owner'), '2');
    await waitFor(() => expect(router.state.location.search).toBe('?query=member&ownerId=2'));
    expect(await screen.findByText('Showing 1–10 of 11 members')).toBeInTheDocument();
  });

  it('a member’s page goes back to the list as it was left, from any of its tabs', async () => {
    const gym = seeded();
    fakeBff([...gym.handlers, handle(webhookApi.unlocksOf, ({ query }) => ({ items: [], page: query.page, pageSize: query.pageSize, total: 0 }))], { signedIn: true });
    const { router } = renderApp('/shell/gymowner/users?query=member&ownerId=2');
    const user = userEvent.setup();
    const list = await screen.findByRole('table', { name: 'Members' });
    await user.click(within(list).getByRole('link', { name: /^Member 2\b/ }));
    expect(await screen.findByRole('heading', { name: 'Member 2', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Unlocks' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/shell/gymowner/users/2/unlocks'));
    await user.click(screen.getByRole('link', { name: '← All members' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/shell/gymowner/users'));
    expect(router.state.location.search).toBe('?query=member&ownerId=2');
    expect(await screen.findByRole('searchbox', { name: 'Search members' })).toHaveValue('member');
  });

  it('searches as you type, debounced, and says when nobody matches', async () => {
    const { router, user, api } = setup('/shell/gymowner/users');
    await screen.findByRole('table', { name: 'Members' });
    await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'nobody');
    expect(await screen.findByText('No members match')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?query=nobody');
    expect(memberCalls(api).filter((p) => p.includes('query'))).toEqual(['/api/gym/users?page=0&pageSize=10&query=nobody']);
  });

  it('a member clicked while the search still waits for a pause opens: the late search does not take the page back', async () => {
    const { router, user } = setup('/shell/gymowner/users');
    const list = await screen.findByRole('table', { name: 'Members' });
    const held = holdRequests((method, path) => method === 'GET' && path === '/api/gym/users/1');
    jest.useFakeTimers({ advanceTimers: true });
    try {
      await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'Member');
      await user.click(within(list).getByRole('link', { name: /^Member 1\b/ }));
      // The pause ends while the member's page is still on its way.
      await act(() => jest.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 2));
      await held.release();
    } finally {
      jest.useRealTimers();
    }
    await waitFor(() => expect(router.state.location.pathname).toBe('/shell/gymowner/users/1'));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByRole('heading', { name: 'Member 1' })).toBeInTheDocument();
  });

  it('adds a member with the owner picker and opens their page', async () => {
    const { router, user, api } = setup('/shell/gymowner/users');
    await user.click(await screen.findByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a member' });
    await user.type(within(dialog).getByLabelText('Name'), 'Ada Lovelace');
    await user.type(within(dialog).getByLabelText('Email'), 'ada@members.example');
    await within(dialog).findByRole('option', { name: 'Theo Brandt · Northside Strength' });
    await user.selectOptions(within(dialog).getByLabelText('Owner'), '2');
    await user.selectOptions(within(dialog).getByLabelText('Membership'), 'paused');
    await user.click(within(dialog).getByRole('button', { name: 'Add member' }));
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/shell/gymowner/users/24');
    expect(screen.getByText('Ada Lovelace was added to Northside Strength.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'ada@members.example', name: 'Ada Lovelace', ownerId: 2, membership: 'paused' });
  });

  it('shows the server’s error for an unknown owner under the owner picker', async () => {
    const gym = seeded();
    const { user } = setup('/shell/gymowner/users', gym);
    await user.click(await screen.findByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a member' });
    await user.type(within(dialog).getByLabelText('Name'), 'Ada Lovelace');
    await user.type(within(dialog).getByLabelText('Email'), 'ada@members.example');
    await within(dialog).findByRole('option', { name: 'Theo Brandt · Northside Strength' });
    await user.selectOptions(within(dialog).getByLabelText('Owner'), '2');
    gym.owners = gym.owners.filter((o) => o.id !== 2); // deleted by someone else meanwhile
    await user.click(within(dialog).getByRole('button', { name: 'Add member' }));
    expect(await within(dialog).findByText('No gym owner with id 2')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Owner')).toHaveAttribute('aria-invalid', 'true');
  });

  it('deletes a member after confirming', async () => {
    const { user } = setup('/shell/gymowner/users');
    await user.click(await screen.findByRole('button', { name: 'Delete Member 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Member 1?' });
    expect(dialog).toHaveTextContent('member1@members.example');
    await user.click(within(dialog).getByRole('button', { name: 'Delete member' }));
    expect(await screen.findByText('Member 1 was deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: /^Member 1 / })).not.toBeInTheDocument());
    expect(screen.getByText('Showing 1–10 of 22 members')).toBeInTheDocument();
  });

  it('says the door is switched off, keeps the history unless asked, and erases the member when ticked', async () => {
    const { user, api } = setup('/shell/gymowner/users');
    await user.click(await screen.findByRole('button', { name: 'Delete Member 1' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Member 1?' });
    expect(dialog).toHaveTextContent('door access switched off in Kisi');
    expect(within(dialog).getByRole('checkbox', { name: 'Also erase their name and email from door events and conversations' })).not.toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Delete member' }));
    await screen.findByText('Member 1 was deleted.');

    await user.click(await screen.findByRole('button', { name: 'Delete Member 11' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Member 11?' });
    const erase = within(dialog).getByRole('checkbox', { name: 'Also erase their name and email from door events and conversations' });
    expect(erase).toHaveAccessibleDescription(/anonymous counts; the audit trail calls them member #11\. This cannot be undone\./);
    await user.click(erase);
    expect(erase).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Delete member' }));
    await screen.findByText('Member 11 was deleted.');
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/gym/users/1?erase=false', '/api/gym/users/11?erase=true']);
  });
});

describe('/shell/gymowner/users: last visit and door access columns', () => {
  const NOW = new Date(2026, 2, 10, 15, 0); // 10 March 2026, 15:00 local
  function desk() {
    const gym = fakeGym({
      owners: [marta],
      members: [
        member(1, marta, { name: 'Ada Early', email: 'ada@desk.example' }),
        member(2, marta, { name: 'Ben Never', email: 'ben@desk.example', membership: 'paused' }),
        member(3, marta, { name: 'Cy Recent', email: 'cy@desk.example' }),
      ],
    });
    gym.visits.set('ada@desk.example', new Date(2026, 2, 7, 8, 0).toISOString());
    gym.visits.set('cy@desk.example', new Date(2026, 2, 10, 9, 12).toISOString());
    gym.kisi.set('ada@desk.example', { id: 1, name: 'Ada', email: 'ada@desk.example', accessEnabled: true });
    gym.kisi.set('ben@desk.example', { id: 2, name: 'Ben', email: 'ben@desk.example', accessEnabled: true });
    return gym;
  }
  beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW.getTime()));
  const rowOf = (name: string) => screen.getByRole('link', { name: new RegExp(name) }).closest('tr')!;

  it('shows each member’s door access in the door card’s words and their last visit, relative with the exact time on hover', async () => {
    setup('/shell/gymowner/users', desk());
    await screen.findByRole('table', { name: 'Members' });
    expect(within(rowOf('Ada Early')).getByTestId('door-state')).toHaveTextContent('Doors open for them');
    expect(within(rowOf('Ben Never')).getByTestId('door-state')).toHaveTextContent('Doors open, though the membership is not active');
    expect(within(rowOf('Cy Recent')).getByTestId('door-state')).toHaveTextContent('No door account');
    expect(within(rowOf('Ada Early')).getByText('3 days ago')).toHaveAttribute('title', expect.stringContaining('2026'));
    expect(within(rowOf('Cy Recent')).getByText(/^today \d/)).toHaveAttribute('dateTime', new Date(2026, 2, 10, 9, 12).toISOString());
    expect(within(rowOf('Ben Never')).getByText('Never')).toBeInTheDocument();
  });

  it('sorts by last visit from the Sort picker, keeps it in the URL and the call; Name takes it out again', async () => {
    // From page 2 (empty: three members), a new order starts again at page 1.
    const { api, user, router } = setup('/shell/gymowner/users?page=2', desk());
    await user.selectOptions(await screen.findByLabelText('Sort'), 'Last visit, newest first');
    await waitFor(() => expect(router.state.location.search).toBe('?sort=-last_visit'));
    const list = await screen.findByRole('table', { name: 'Members' });
    await waitFor(() => expect(within(list).getAllByRole('link').map((a) => a.textContent)).toEqual([expect.stringContaining('Cy Recent'), expect.stringContaining('Ada Early'), expect.stringContaining('Ben Never')]));
    expect(memberCalls(api)).toContain('/api/gym/users?page=0&pageSize=10&sort=-last_visit');

    await user.selectOptions(screen.getByLabelText('Sort'), 'Name');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('an unknown sort in the URL falls back to by name', async () => {
    const { api } = setup('/shell/gymowner/users?sort=shoe-size', desk());
    await screen.findByRole('table', { name: 'Members' });
    expect(screen.getByLabelText('Sort')).toHaveValue('name');
    expect(memberCalls(api)).toEqual(['/api/gym/users?page=0&pageSize=10']);
  });
});

describe('/shell/gymowner/users/:id: membership drives door access', () => {
  function withKisi() {
    const gym = seeded();
    gym.kisi.set('member1@members.example', { id: 501, name: 'Member 1', email: 'member1@members.example', accessEnabled: true });
    return gym;
  }

  it('shows the profile and the Kisi account’s live state', async () => {
    setup('/shell/gymowner/users/1', withKisi());
    expect(await screen.findByRole('heading', { name: 'Member 1', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Marta Kowalski' })).toHaveAttribute('href', '/gymowners/1');
    expect(screen.getByRole('radio', { name: /Active/ })).toBeChecked();
    expect(await screen.findByTestId('kisi-access')).toHaveTextContent('Enabled');
    expect(screen.getByTestId('door-state')).toHaveTextContent('Doors open for them');
  });

  it('says the doors are closed when Kisi has the person switched off, whatever the membership says', async () => {
    const gym = withKisi();
    gym.kisi.set('member1@members.example', { id: 501, name: 'Member 1', email: 'member1@members.example', accessEnabled: false });
    setup('/shell/gymowner/users/1', gym);
    expect(await screen.findByTestId('kisi-access')).toHaveTextContent('Disabled');
    expect(screen.getByTestId('door-state')).toHaveTextContent('Doors closed: switched off in Kisi');
    expect(screen.getByText(/Kisi has access disabled, but the membership says it should be on/)).toBeInTheDocument();
  });

  /** Kisi's switch of a user, as /kisi/users sends it through the proxy: it changes what the member's door card reads. */
  const kisiSwitch = (gym: FakeGym) =>
    handle(kisiApi.updateUser, ({ params, body }) => {
      for (const [email, user] of gym.kisi) if (user.id === params.id) gym.kisi.set(email, { ...user, accessEnabled: body.user.access_enabled ?? user.accessEnabled });
    });

  it('an open member page follows a switch of their Kisi user made on /kisi/users, in this tab or another (issue 52)', async () => {
    const gym = withKisi();
    fakeBff([kisiSwitch(gym), handle(kisiApi.getUser, ({ params }) => kisiUser(params.id, { email: 'member1@members.example', access_enabled: gym.kisi.get('member1@members.example')!.accessEnabled })), ...gym.handlers], { signedIn: true });
    renderApp('/shell/gymowner/users/1');
    expect(await screen.findByTestId('kisi-access')).toHaveTextContent('Enabled');

    // This tab's own switch (the Users page's, left open in the same tab a moment ago).
    await act(() => setUserAccess(501, false));
    await waitFor(() => expect(screen.getByTestId('door-state')).toHaveTextContent('Doors closed: switched off in Kisi'));

    // Another tab's: it tells the others what its write left out of date.
    const otherTab = new BroadcastChannel(WRITES_CHANNEL);
    try {
      gym.kisi.set('member1@members.example', { ...gym.kisi.get('member1@members.example')!, accessEnabled: true });
      otherTab.postMessage(staleNews([gymApi.doorAccess]));
      await waitFor(() => expect(screen.getByTestId('door-state')).toHaveTextContent('Doors open for them'));
    } finally {
      otherTab.close();
    }
  });

  it('says there is no door account when no Kisi user has the member’s email', async () => {
    setup('/shell/gymowner/users/1', seeded());
    expect(await screen.findByText('None with this email')).toBeInTheDocument();
    expect(screen.getByTestId('door-state')).toHaveTextContent('No door account');
  });

  it('pausing switches the doors off, once confirmed', async () => {
    const { user, api } = setup('/shell/gymowner/users/1', withKisi());
    await screen.findByTestId('kisi-access');
    await user.click(screen.getByRole('radio', { name: /Paused/ }));
    expect(screen.getByText('Active → Paused. The doors close to them.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pause membership' }));
    expect(await screen.findByText('Membership paused. Door access is off.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause membership' })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Paused/ })).toBeChecked();
    await waitFor(() => expect(screen.getByTestId('kisi-access')).toHaveTextContent('Disabled'));
    expect(screen.getByTestId('door-state')).toHaveTextContent('Doors closed: membership not active');
    expect(api.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ membership: 'paused' });
  });

  it('a choice not yet confirmed says so and brings its confirm button on screen (issue 52: a lit choice looked done)', async () => {
    const scrolled: Element[] = [];
    const scrollIntoView = jest.fn(function (this: Element) {
      scrolled.push(this);
    });
    Object.defineProperty(Element.prototype, 'scrollIntoView', { value: scrollIntoView, configurable: true, writable: true });
    try {
      const { user } = setup('/shell/gymowner/users/1', withKisi());
      await screen.findByTestId('kisi-access');
      await user.click(screen.getByRole('radio', { name: /Paused/ }));
      expect(screen.getByRole('radio', { name: /Paused/ })).toHaveAccessibleName(/Not saved yet: confirm below/);
      expect(screen.getByRole('radio', { name: /Active/ })).toHaveAccessibleName(/Doors open/);
      expect(scrolled.some((element) => element.contains(screen.getByRole('button', { name: 'Pause membership' })))).toBe(true);
    } finally {
      delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });

  it('choosing alone changes nothing: arrow keys move through the choices, Keep (or Escape) puts the radio back', async () => {
    const { user, api } = setup('/shell/gymowner/users/1', withKisi());
    await screen.findByTestId('kisi-access');
    screen.getByRole('radio', { name: /Active/ }).focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('radio', { name: /Cancelled/ })).toBeChecked();
    expect(screen.getByText('Active → Cancelled. The doors close to them.')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('radio', { name: /Active/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Paused/ }));
    await user.click(screen.getByRole('button', { name: 'Keep it active' }));
    expect(screen.getByRole('radio', { name: /Active/ })).toBeChecked();
    await waitFor(() => expect(screen.getByRole('radio', { name: /Active/ })).toHaveFocus());
    expect(api.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('while Kisi is away a pause is saved and waits for Kisi, with its next try, the last confirmed state and Try now', async () => {
    const gym = withKisi();
    gym.members[0]!.accessSync = { ...gym.members[0]!.accessSync, state: 'synced', confirmedEnabled: true, confirmedAt: '2025-03-01T08:00:00.000Z' };
    const { user, api } = setup('/shell/gymowner/users/1', gym);
    await waitFor(() => expect(screen.getByTestId('kisi-access')).toHaveTextContent('Enabled'));
    expect(screen.getByTestId('kisi-confirmed')).toHaveTextContent(`Enabled (${formatWhen('2025-03-01T08:00:00.000Z')})`);
    gym.kisiDown = true;
    await user.click(screen.getByRole('radio', { name: /Paused/ }));
    await user.click(screen.getByRole('button', { name: 'Pause membership' }));
    expect(await screen.findByText(/Membership paused\. Kisi cannot be reached now: door access is switched off as soon as it answers\./)).toBeInTheDocument();
    const waiting = await screen.findByTestId('door-waiting');
    expect(waiting).toHaveTextContent(`Waiting for Kisi, next try at ${formatWhen(NEXT_TRY_AT)}.`);
    expect(waiting).toHaveTextContent('tried 1 time: Could not switch door access off: Kisi is unreachable');
    // The door card's own read fails (502) and says so inside the page; what is known stays.
    expect(await screen.findByText(/Could not read the Kisi account: .*Kisi could not be reached/)).toBeInTheDocument();
    expect(screen.getByTestId('kisi-confirmed')).toHaveTextContent('Enabled');

    gym.kisiDown = false;
    await user.click(within(waiting).getByRole('button', { name: 'Try now' }));
    expect(await screen.findByText('Door access is off for Member 1.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('door-waiting')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByTestId('kisi-access')).toHaveTextContent('Disabled'));
    expect(screen.getByTestId('kisi-confirmed')).toHaveTextContent('Disabled');
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/gym/users/1/access/sync')).toBe(true);
  });

  it('the members list says when Kisi cannot be reached, and how many members wait', async () => {
    const gym = withKisi();
    gym.kisiDown = true;
    gym.members[0]!.membership = 'paused';
    gym.members[0]!.accessSync = { ...gym.members[0]!.accessSync, state: 'pending', waiting: { attempts: 2, nextTryAt: NEXT_TRY_AT, lastError: 'Kisi is unreachable' } };
    setup('/shell/gymowner/users', gym);
    const banner = await screen.findByTestId('door-sync-banner');
    expect(banner).toHaveTextContent('Kisi cannot be reached. 1 member waits for door access to follow their membership; the changes are sent by themselves when Kisi answers again.');
    expect(within(screen.getByRole('table', { name: 'Members' })).getAllByText('Waiting for Kisi').length).toBe(1);
  });

  it('says plainly when no Kisi account uses the email', async () => {
    const { user } = setup('/shell/gymowner/users/2');
    expect(await screen.findByText('None with this email')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Cancelled/ }));
    await user.click(screen.getByRole('button', { name: 'Cancel membership' }));
    expect(await screen.findByText(/No Kisi account uses member2@members.example, so there was no door access to switch/)).toBeInTheDocument();
  });

  it('edits the name and owner in a modal', async () => {
    const { user } = setup('/shell/gymowner/users/1');
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Member 1' });
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Maria Curie');
    await within(dialog).findByRole('option', { name: 'Theo Brandt · Northside Strength' });
    // The member's owner stays chosen when the list of owners arrives (opened before it had).
    const owner = within(dialog).getByLabelText('Owner') as HTMLSelectElement;
    expect(owner.selectedOptions[0]?.textContent).toBe('Marta Kowalski · Iron Harbour');
    await user.selectOptions(within(dialog).getByLabelText('Owner'), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Maria Curie', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Theo Brandt' })).toBeInTheDocument();
  });

  it('deletes the member and goes back to the list', async () => {
    const { router, user } = setup('/shell/gymowner/users/3');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete member' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/shell/gymowner/users'));
    expect(await screen.findByText('Member 3 was deleted.')).toBeInTheDocument();
    expect(await screen.findByText('Showing 1–10 of 22 members')).toBeInTheDocument();
  });

  it('after deleting from the member page, the list’s owner picker still loads (no stuck “Loading owners…”)', async () => {
    const { user } = setup('/shell/gymowner/users');
    await screen.findByRole('option', { name: 'Iron Harbour (Marta Kowalski)' });
    await user.click(screen.getByRole('link', { name: /Member 1 / }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete member' }));
    await screen.findByText('Member 1 was deleted.');
    await user.click(await screen.findByRole('button', { name: 'Add member' }));
    expect(await within(await screen.findByRole('dialog')).findByRole('option', { name: 'Marta Kowalski · Iron Harbour' })).toBeInTheDocument();
  });

  it('shows not found for an unknown member', async () => {
    setup('/shell/gymowner/users/999');
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });
});
