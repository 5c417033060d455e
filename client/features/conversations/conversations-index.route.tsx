import { EmptyState } from '@/components/empty-state';

export const handle = { title: 'Guest conversations' };

/** `/shell/nuhs/basic/`: no conversation chosen yet; the list beside says what there is. */
export function Component() {
  return (
    <EmptyState icon="inbox" title="Pick a conversation">
      Choose one from the list to read the thread and answer the guest. It opens here while the list stays.
    </EmptyState>
  );
}
