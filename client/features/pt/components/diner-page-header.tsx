import type { ReactNode } from 'react';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { helpPath } from '@/lib/paths';

/** The top of a diner's page (menu, cart, their order): their table, and help one tap away on each. */
export function DinerPageHeader({ table, title, children }: { table: number | null | undefined; title: string; children: ReactNode }) {
  return (
    <PageHeader
      eyebrow={table ? `Table ${table}` : 'Food court'}
      title={title}
      actions={
        <AppLink to={helpPath({ table })} className="btn">
          <Icon name="info" size={18} /> Need help?
        </AppLink>
      }
    >
      {children}
    </PageHeader>
  );
}
