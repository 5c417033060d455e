import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { webhookApi, type KisiEvent } from '@contracts/webhook.contract';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, kisiEvent, renderApp } from '@/test-support/test-utils';
import { handle, problem } from '@/test-support/test-server';

fakeEventSourceEachTest();
afterEach(() => jest.restoreAllMocks());

/** The inbox API: newest first (highest id here), filtered (person, door, result), paged, delete by id; the doors and types seen. */
function fakeInbox(events: KisiEvent[]) {
  return [
    handle(webhookApi.listEvents, ({ query: { page, pageSize, person, doorId, result } }) => {
      const found = events.filter(
        (e) =>
          (!person || `${e.actorName} ${e.actorEmail}`.toLowerCase().includes(person.toLowerCase())) &&
          (!doorId || e.objectId === doorId) &&
          (!result || e.success === (result === 'granted')),
      );
      const sorted = found.sort((a, b) => b.id - a.id);
      return { items: sorted.slice(page * pageSize, page * pageSize + pageSize), page, pageSize, total: found.length };
    }),
    handle(webhookApi.filterChoices, () => ({
      doors: [
        { id: 11, name: 'Front Door' },
        { id: 12, name: 'Gym Floor' },
      ],
      types: ['lock.lockdown', 'lock.unlock'],
    })),
    handle(webhookApi.deleteEvent, ({ params }) => {
      const index = events.findIndex((e) => e.id === params.id);
      if (index < 0) return problem(404, 'Not Found', `No Kisi event with id ${params.id}.`);
      events.splice(index, 1);
    }),
  ];
}

function setup(path: string, events: KisiEvent[]) {
  const api = fakeBff(fakeInbox(events), { signedIn: true });
  renderApp(path);
  return { api, user: userEvent.setup() };
}

const inboxCalls = (api: { calls: { method: string; path: string }[] }) =>
  api.calls.filter((c) => c.path.startsWith('/api/webhook') && !c.path.startsWith('/api/webhook/filters')).map((c) => `${c.method} ${c.path}`);
const ignoredBanner = () => screen.getByText(/^This link had filters/).closest('.banner') as HTMLElement;
const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('/shell/webhook', () => {
  it('shows the events newest first with who, door, result and the refusal, on 1-based URL pages', async () => {
    const events = [
      kisiEvent(1, { actorName: 'Alice Moreau', actorEmail: 'alice.moreau@mail.example' }),
      kisiEvent(2, { actorName: 'Kofi Mensah', objectName: 'Gym Floor', success: false, errorCode: 'afc496', errorMessage: 'Access denied: no role on this place' }),
    ];
    const { api } = setup('/shell/webhook?page=abc', events);
    await screen.findByRole('table');
    expect(inboxCalls(api)).toEqual(['GET /api/webhook?page=0&pageSize=10']);
    const [first, second] = rows();
    expect(first).toHaveTextContent('Kofi Mensah');
    expect(first).toHaveTextContent('Gym Floor');
    expect(within(first!).getByText('Denied')).toBeInTheDocument();
    expect(first).toHaveTextContent('Access denied: no role on this place');
    expect(second).toHaveTextContent('Alice Moreau');
    expect(second).toHaveTextContent('alice.moreau@mail.example');
    expect(within(second!).getByText('Granted')).toBeInTheDocument();
    expect(second).toHaveTextContent('Unlock');
    expect(screen.getByText('Showing 1–2 of 2 events')).toBeInTheDocument();
  });

  it('names who pressed a remote unlock, via the integration Kisi names, and a member’s own unlock by the member (issue 52 defect 4)', async () => {
    const integration = { actorName: 'Frontdesk Integration', actorEmail: 'frontdesk-api@harbourside.example' };
    const events = [
      kisiEvent(1, { actorName: 'Alice Moreau', actorEmail: 'alice.moreau@mail.example' }),
      kisiEvent(2, { ...integration, requestedBy: { name: 'Sam Staff', email: 'sam.staff@frontdesk.test' } }),
      kisiEvent(3, { ...integration, success: false, errorMessage: 'The door is currently locked down.', requestedBy: { name: 'Erased person', email: null } }),
    ];
    const { user } = setup('/shell/webhook', events);
    await screen.findByRole('table');
    const [refused, pressed, member] = rows();
    const who = (row: HTMLElement) => within(row).getByText((_, el) => el?.getAttribute('data-label') === 'Who').textContent;
    expect(who(pressed!)).toBe('Sam Staffsam.staff@frontdesk.testRemote unlock via Frontdesk Integration');
    expect(within(pressed!).getByText('Sam Staff')).toHaveClass('event-who');
    expect(pressed).not.toHaveTextContent('frontdesk-api@harbourside.example');
    expect(who(refused!)).toBe('Erased personRemote unlock tried via Frontdesk Integration');
    expect(who(member!)).toBe('Alice Moreaualice.moreau@mail.example');
    expect(member).not.toHaveTextContent('Remote unlock');

    await user.click(within(pressed!).getByRole('button', { name: 'Delete event 2 (lock.unlock, Sam Staff)' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('event of Sam Staff (remote unlock via Frontdesk Integration) at Main Entrance');
  });

  it('pages through the events', async () => {
    const events = Array.from({ length: 13 }, (_, i) => kisiEvent(i + 1));
    const { api, user } = setup('/shell/webhook?page=2', events);
    await screen.findByRole('table');
    expect(inboxCalls(api)).toEqual(['GET /api/webhook?page=1&pageSize=10']);
    expect(rows()).toHaveLength(3);
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Previous' }));
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(rows()[0]).toHaveTextContent('Person 13');
  });

  it('after years says "1,000+", and its Next link carries the cursor into the address and the read, filters kept', async () => {
    const api = fakeBff(
      [
        handle(webhookApi.listEvents, ({ query: { page, pageSize, next } }) =>
          next === 'c0'
            ? { items: [kisiEvent(7, { actorName: 'Second Page' })], page: 1, pageSize, total: 1_010, totalIsLowerBound: true, next: 'c1', previous: 'p1' }
            : { items: [kisiEvent(9, { actorName: 'First Page' })], page, pageSize, total: 1_000, totalIsLowerBound: true, next: 'c0' },
        ),
        handle(webhookApi.filterChoices, () => ({ doors: [], types: [] })),
      ],
      { signedIn: true },
    );
    renderApp('/shell/webhook?result=denied');
    const user = userEvent.setup();
    expect(await screen.findByText('Showing 1–10 of 1,000+ events')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Next' }));
    expect(await screen.findByText('Second Page')).toBeInTheDocument();
    expect(inboxCalls(api).at(-1)).toBe('GET /api/webhook?page=1&next=c0&pageSize=10&result=denied');
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute('href', '/shell/webhook?result=denied&page=3&next=c1');
    expect(screen.getByRole('link', { name: 'Previous' })).toHaveAttribute('href', '/shell/webhook?result=denied');
    await user.click(screen.getByRole('link', { name: 'Previous' }));
    expect(await screen.findByText('First Page')).toBeInTheDocument();
  });

  it('goes back by the Previous cursor when the last event of a later page is deleted', async () => {
    const events = [kisiEvent(3, { actorName: 'Last One' })];
    const api = fakeBff(
      [
        handle(webhookApi.listEvents, ({ query: { page, pageSize, previous } }) =>
          previous ? { items: [kisiEvent(4, { actorName: 'Before It' })], page, pageSize, total: 1_000, totalIsLowerBound: true, next: 'n4', previous: 'p4' } : { items: events, page, pageSize, total: 1_000, totalIsLowerBound: true, previous: 'p3' },
        ),
        handle(webhookApi.filterChoices, () => ({ doors: [], types: [] })),
        handle(webhookApi.deleteEvent, () => void events.splice(0, 1)),
      ],
      { signedIn: true },
    );
    renderApp('/shell/webhook?page=3&next=c2');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Delete event 3 / }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete event' }));
    expect(await screen.findByText('Before It')).toBeInTheDocument();
    expect(inboxCalls(api).at(-1)).toBe('GET /api/webhook?page=1&previous=p3&pageSize=10');
  });

  it('deletes an event only after confirming', async () => {
    const events = [kisiEvent(1, { actorName: 'Alice Moreau' }), kisiEvent(2, { actorName: 'Bruno Costa' })];
    const { api, user } = setup('/shell/webhook', events);
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: /^Delete event 2 / }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this event?' });
    expect(dialog).toHaveTextContent('Bruno Costa');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(inboxCalls(api).filter((c) => c.startsWith('DELETE'))).toEqual([]);
    expect(rows()).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: /^Delete event 2 / }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete event' }));
    expect(await screen.findByText(/^Deleted Bruno Costa’s unlock( at .+)? \(.+\)\.$/)).toBeInTheDocument();
    expect(screen.queryByText(/Event 2/)).not.toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByText('Bruno Costa')).not.toBeInTheDocument();
    expect(inboxCalls(api)).toContain('DELETE /api/webhook/2');
  });

  it('keeps a refused delete in the dialog', async () => {
    const events = [kisiEvent(1)];
    const { user } = setup('/shell/webhook', events);
    await screen.findByRole('table');
    events.length = 0; // someone else deleted it meanwhile
    await user.click(screen.getByRole('button', { name: /^Delete event 1 / }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete event' }));
    expect(await within(await screen.findByRole('dialog')).findByText('No Kisi event with id 1.')).toBeInTheDocument();
  });

  it('announces events arriving live as “N new events” and loads them in on request', async () => {
    const events = [kisiEvent(1, { actorName: 'Alice Moreau' })];
    const { user } = setup('/shell/webhook', events);
    await screen.findByRole('table');
    expect(screen.getByText('Connecting…')).toBeInTheDocument();
    act(() => FakeEventSource.current().open());
    expect(screen.getByText('Live')).toBeInTheDocument();
    expect(FakeEventSource.current().url).toBe('/api/events');

    const arrive = (event: KisiEvent, id: string) => {
      events.push(event);
      act(() => FakeEventSource.current().emit('webhook', event, id));
    };
    arrive(kisiEvent(2, { actorName: 'Bruno Costa' }), '41');
    expect(await screen.findByRole('button', { name: '1 new event' })).toBeInTheDocument();
    act(() => FakeEventSource.current().emit('order', { id: 5, table: 3 }, '42')); // not a door event
    arrive(kisiEvent(3, { actorName: 'Chen Wei' }), '43');
    act(() => FakeEventSource.current().emit('webhook', events[2], '43')); // a replay counts once
    const banner = await screen.findByRole('button', { name: '2 new events' });
    expect(rows()).toHaveLength(1);

    await user.click(banner);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[0]).toHaveTextContent('Chen Wei');
    expect(within(rows()[0]!).getByText('New')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /new event/ })).not.toBeInTheDocument();
  });

  it('reads the list again when its live stream reopens after a drop: events stored meanwhile appear', async () => {
    const events = [kisiEvent(1, { actorName: 'Alice Moreau' })];
    setup('/shell/webhook', events);
    await screen.findByRole('table');
    act(() => FakeEventSource.current().open());
    expect(screen.getByText('Live')).toBeInTheDocument();
    act(() => FakeEventSource.current().drop());
    // While the stream cannot connect the page does not claim to be live.
    expect(screen.getByText('Reconnecting…')).toBeInTheDocument();
    expect(screen.queryByText('Live')).not.toBeInTheDocument();
    events.push(kisiEvent(2, { actorName: 'Bruno Costa' }));
    act(() => FakeEventSource.current().open());
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[0]).toHaveTextContent('Bruno Costa');
    expect(screen.getByText('Live')).toBeInTheDocument();
  });

  it('shows an empty inbox', async () => {
    setup('/shell/webhook', []);
    expect(await screen.findByText('No door events yet')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('offers the last page when the URL page is past the end', async () => {
    setup('/shell/webhook?page=5', [kisiEvent(1)]);
    expect(await screen.findByText('This page is past the end')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to page 1' })).toHaveAttribute('href', '/shell/webhook');
  });

  describe('filters', () => {
    it('reads every filter from the URL, asks for local days as UTC instants (the to day included), and exports the same set', async () => {
      const events = [kisiEvent(1, { actorName: 'Ana Lima', objectId: 12, objectName: 'Gym Floor', success: false })];
      const { api } = setup('/shell/webhook?person=ana&doorId=12&result=denied&type=lock.unlock&from=2026-03-02&to=2026-03-08&pageSize=25', events);
      await screen.findByRole('table');
      // The browser's local midnights (the venue's day): from the start of 2 March to the start of 9 March, so 8 March is in.
      const local = (day: number) => encodeURIComponent(new Date(2026, 2, day).toISOString());
      const filter = `person=ana&doorId=12&result=denied&type=lock.unlock&since=${local(2)}&before=${local(9)}`;
      expect(inboxCalls(api)).toEqual([`GET /api/webhook?page=0&pageSize=25&${filter}`]);
      expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', `/api/webhook/export.csv?${filter}`);
      expect(screen.getByRole('searchbox', { name: 'Search by person' })).toHaveValue('ana');
      expect(await screen.findByRole('option', { name: 'Gym Floor', selected: true })).toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: 'Result' })).toHaveValue('denied');
      expect(screen.getByRole('combobox', { name: 'Type' })).toHaveValue('lock.unlock');
      expect(screen.getByLabelText('From')).toHaveValue('2026-03-02');
      expect(screen.getByLabelText('To')).toHaveValue('2026-03-08');
      expect(screen.getByRole('combobox', { name: 'Per page' })).toHaveValue('25');
    });

    it('changes a filter in the URL, back to page 1 with the others kept, and the export link follows', async () => {
      // 13 of the 40 are granted at door 12: two pages of 10, one of 50.
      const events = Array.from({ length: 40 }, (_, i) => kisiEvent(i + 1, { objectId: i % 2 ? 11 : 12, success: i % 3 !== 0 }));
      const { api, user } = setup('/shell/webhook?result=granted&page=2', events);
      await screen.findByRole('table');
      expect(inboxCalls(api)).toEqual(['GET /api/webhook?page=1&pageSize=10&result=granted']);
      await screen.findByRole('option', { name: 'Gym Floor' });
      await user.selectOptions(screen.getByRole('combobox', { name: 'Door' }), 'Gym Floor');
      await waitFor(() => expect(inboxCalls(api).at(-1)).toBe('GET /api/webhook?page=0&pageSize=10&doorId=12&result=granted'));
      await waitFor(() => expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/webhook/export.csv?doorId=12&result=granted'));
      expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute('href', '/shell/webhook?doorId=12&result=granted&page=2');

      await user.selectOptions(screen.getByRole('combobox', { name: 'Per page' }), '50');
      await waitFor(() => expect(inboxCalls(api).at(-1)).toBe('GET /api/webhook?page=0&pageSize=50&doorId=12&result=granted'));
      await waitFor(() => expect(rows()).toHaveLength(13));
      expect(screen.getByText('Showing 1–13 of 13 events')).toBeInTheDocument();
    });

    it('shows “No door events match these filters” with a way to clear them', async () => {
      setup('/shell/webhook?person=nobody&pageSize=50', [kisiEvent(1)]);
      expect(await screen.findByRole('heading', { name: 'No door events match these filters' })).toBeInTheDocument();
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      for (const link of screen.getAllByRole('link', { name: 'Clear filters' })) expect(link).toHaveAttribute('href', '/shell/webhook?pageSize=50');
    });

    it('names the filters of a hand-typed link it could not use, and lists without them', async () => {
      const { api } = setup('/shell/webhook?from=2026-02-30&doorId=front&result=granted&pageSize=7', [kisiEvent(1)]);
      await screen.findByRole('table');
      expect(inboxCalls(api)).toEqual(['GET /api/webhook?page=0&pageSize=10&result=granted']);
      const banner = ignoredBanner();
      expect(banner).toHaveTextContent('This link had filters the page could not use');
      expect(banner).toHaveTextContent('from=2026-02-30: a day is written YYYY-MM-DD.');
      expect(banner).toHaveTextContent('doorId=front: a door is given by its lock id');
      expect(banner).toHaveTextContent('pageSize=7: a page size is 10, 25, 50, 100.');
      expect(banner).not.toHaveTextContent('result');
    });

    it('keeps the first day of a range whose last day comes before it, and says so', async () => {
      const { api } = setup('/shell/webhook?from=2026-03-05&to=2026-03-01', [kisiEvent(1)]);
      await screen.findByRole('table');
      expect(inboxCalls(api)).toHaveLength(1);
      expect(inboxCalls(api)[0]).not.toContain('before=');
      expect(ignoredBanner()).toHaveTextContent('to=2026-03-01: the last day is before the first (2026-03-05).');
    });
  });
});
