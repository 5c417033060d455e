import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import type { Back } from '../catalogue.api';

/**
 * The top of a piece's or part's page: the way back to where the reader came from (`back`: the piece
 * or part they came from, or the list with its search), the name under its category, a line of
 * facts, and a failed refresh with Retry.
 */
export function CatalogueHeader(props: {
  back: Back;
  eyebrow: string;
  title: string;
  facts: ReactNode;
  what: 'piece' | 'part';
  refresh: { error: unknown; retrying: boolean; retry: () => void };
}) {
  const { back, eyebrow, title, facts, what, refresh } = props;
  return (
    <>
      <AppLink to={back.href} state={back.state} className="back-link">
        ← {back.label}
      </AppLink>
      <PageHeader eyebrow={eyebrow} title={title}>
        <p className="cat-lede">{facts}</p>
      </PageHeader>
      {refresh.error ? (
        <LoadError onRetry={refresh.retry} retrying={refresh.retrying}>
          Could not refresh the {what}: {errorMessage(refresh.error)}
        </LoadError>
      ) : null}
    </>
  );
}
