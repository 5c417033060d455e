import { screen, within } from '@testing-library/react';
import { conversationsApi } from '@contracts/conversations.contract';
import { gymApi } from '@contracts/gym.contract';
import { samplesApi } from '@contracts/samples.contract';
import { uploadsApi } from '@contracts/uploads.contract';
import { webhookApi } from '@contracts/webhook.contract';
import { fakeBff, renderApp, signedInAs } from '@/test-support/test-utils';
import { handle, problem } from '@/test-support/test-server';

const asRunner = signedInAs({ id: 9, email: 'rita@frontdesk.test', name: 'Rita Runner', role: 'runner' });
const asStaff = signedInAs({ id: 4, email: 'sam@frontdesk.test', name: 'Sam Staff', role: 'staff' });
// What the API answers a role it refuses (the page's own loader may ask beside the role check).
const refused = [uploadsApi.limits, uploadsApi.list, samplesApi.posts, conversationsApi.list, gymApi.listMembers, gymApi.getMember, webhookApi.listEvents, webhookApi.filterChoices, webhookApi.unlocksOf].map((endpoint) => handle(endpoint, () => problem(403, 'Forbidden', 'This needs the staff role.')));

describe('a shell page of another role', () => {
  it.each([
    { who: 'a runner', session: asRunner, path: '/shell/upload/2', forWhom: 'staff' },
    { who: 'a runner', session: asRunner, path: '/shell/posts', forWhom: 'staff' },
    { who: 'a runner', session: asRunner, path: '/shell/nuhs/basic', forWhom: 'staff' },
    { who: 'a runner', session: asRunner, path: '/shell/gymowner/users', forWhom: 'staff' },
    { who: 'a runner', session: asRunner, path: '/shell/gymowner/users/7/unlocks', forWhom: 'staff' },
    { who: 'a runner', session: asRunner, path: '/shell/webhook', forWhom: 'staff' },
    { who: 'staff', session: asStaff, path: '/shell/audit', forWhom: 'admins' },
  ])('as $who, $path says who it is for inside the shell, its tabs kept', async ({ session, path, forWhom }) => {
    fakeBff([session, ...refused], { signedIn: true });
    renderApp(path);
    expect((await screen.findAllByText(new RegExp(`^This page is for ${forWhom}\\.`)))[0]).toBeVisible();
    expect(within(screen.getByRole('navigation', { name: 'Staff shell' })).getAllByRole('link').length).toBeGreaterThan(1);
  });
});
