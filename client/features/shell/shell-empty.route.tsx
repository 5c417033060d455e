import { EmptyState } from '@/components/empty-state';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';

export const handle = { title: 'Empty state' };

export function Component() {
  return (
    <section className="card">
      <EmptyState
        level={1}
        title="Nothing here yet"
        action={
          <AppLink to={paths.shell} className="btn btn-primary">
            Back to the overview
          </AppLink>
        }
      >
        When a list has no entries, pages say so plainly and offer the next step instead of showing an empty table.
      </EmptyState>
    </section>
  );
}
