import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { gymApi } from '@contracts/gym.contract';
import { ptApi } from '@contracts/pt.contract';
import { webhookApi } from '@contracts/webhook.contract';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { handle, passOn, problem, type Reply } from '@/test-support/test-server';

afterEach(() => jest.restoreAllMocks());

/** A page of any list that says only how many there are. */
const totalOf = (total: number) => ({ items: [], page: 0, pageSize: 1, total });
type Count = () => ReturnType<typeof totalOf> | Reply<never>;

/** The three lists the widgets count, each answering only its `total`. */
function counts(answers: { orders?: Count; members?: Count; unlocks?: Count }) {
  return [
    handle(ptApi.listOrders, () => answers.orders?.() ?? passOn),
    handle(gymApi.listMembers, () => answers.members?.() ?? passOn),
    handle(webhookApi.listEvents, () => answers.unlocks?.() ?? passOn),
  ];
}

const box = (name: string) => screen.getByRole('region', { name });
const metric = (region: HTMLElement, label: string) => within(region).getByText(label).closest<HTMLElement>('.metric')!;

describe('/shell/contain', () => {
  it('shows today’s unlocks, the gym members and the open food orders from the API', async () => {
    const api = fakeBff(counts({ orders: () => totalOf(12), members: () => totalOf(1284), unlocks: () => totalOf(37) }), { signedIn: true });
    renderApp('/shell/contain');
    const wide = await screen.findByRole('region', { name: 'Wide box' });
    expect(await within(metric(wide, 'Open food orders')).findByText('12')).toBeInTheDocument();
    expect(await within(metric(wide, 'Gym members')).findByText('1,284')).toBeInTheDocument();
    expect(await within(metric(wide, 'Unlocks today')).findByText('37')).toBeInTheDocument();
    expect(metric(box('Narrow box'), 'Gym members')).toHaveTextContent('1,284');

    const paths = api.calls.map((c) => c.path);
    expect(paths).toContain('/api/pt/orders?status=open&pageSize=1');
    expect(paths).toContain('/api/gym/users?pageSize=1');
    const unlocks = new URL(paths.find((p) => p.startsWith('/api/webhook?'))!, 'http://x');
    expect(unlocks.searchParams.get('type')).toBe('lock.unlock');
    expect(unlocks.searchParams.get('pageSize')).toBe('1');
    // Local midnight of today, as the venue counts its day.
    const since = new Date(unlocks.searchParams.get('since')!);
    expect([since.getHours(), since.getMinutes(), since.getSeconds()]).toEqual([0, 0, 0]);
    expect(since.toDateString()).toBe(new Date().toDateString());
    // Each figure is read once for the three copies of the widget.
    expect(paths.filter((p) => p.startsWith('/api/gym/users'))).toHaveLength(1);
  });

  it('says which figure could not be read and retries it alone', async () => {
    let down = true;
    fakeBff(counts({ orders: () => totalOf(3), members: () => (down ? problem(503, 'Service Unavailable', 'The database is busy.') : totalOf(40)), unlocks: () => problem(403, 'Forbidden', 'Staff only.') }), { signedIn: true });
    renderApp('/shell/contain');
    const wide = await screen.findByRole('region', { name: 'Wide box' });
    expect(await within(metric(wide, 'Open food orders')).findByText('3')).toBeInTheDocument();
    expect(await within(metric(wide, 'Unlocks today')).findByText('Not for your role')).toBeInTheDocument();
    const members = metric(wide, 'Gym members');
    expect(await within(members).findByText(/Could not load: The database is busy\./, {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(members).toHaveTextContent('—');
    down = false;
    await userEvent.setup().click(within(members).getByRole('button', { name: 'Retry' }));
    expect(await within(metric(wide, 'Gym members')).findByText('40')).toBeInTheDocument();
  }, 20_000);
});
