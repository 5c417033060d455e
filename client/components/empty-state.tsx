import type { ReactNode } from 'react';
import { AppLink } from '@/lib/app-link';
import { Icon } from './icon';
import type { IconName } from './icon';

/** `level` 1 when the empty state is all the page shows, so its title is the page's heading. */
export function EmptyState({ icon = 'inbox', title, children, action, level = 2 }: { icon?: IconName; title: string; children?: ReactNode; action?: ReactNode; level?: 1 | 2 }) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className="empty-state">
      <span className="empty-icon" aria-hidden="true">
        <Icon name={icon} size={28} />
      </span>
      <Heading className="empty-title">{title}</Heading>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

/** A search (or filter) that found nothing, with a link back to the whole list. */
export function NoMatchState({
  title,
  clearTo,
  clearLabel = 'Clear the search',
  elsewhere,
  children,
}: {
  title: string;
  clearTo: string;
  clearLabel?: string;
  /** Where the same search does find something (the catalogue's other tab): the first way out. */
  elsewhere?: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <EmptyState
      icon="search"
      title={title}
      action={
        <div className="empty-actions">
          {elsewhere ? (
            <AppLink to={elsewhere.to} className="btn btn-primary">
              {elsewhere.label}
            </AppLink>
          ) : null}
          <AppLink to={clearTo} className="btn">
            {clearLabel}
          </AppLink>
        </div>
      }
    >
      {children}
    </EmptyState>
  );
}
