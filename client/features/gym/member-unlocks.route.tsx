import { useState } from 'react';
import { useLoaderData, useNavigation } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import type { Page } from '@contracts/common.contract';
import type { KisiEvent } from '@contracts/webhook.contract';
import { LiveConnectionBadge } from '@/components/live-connection';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { Pagination, type PageCursor } from '@/components/pagination';
import { paths } from '@/lib/paths';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { load, setQueryData, useRead } from '@/lib/reads';
import { formatWhenExact } from '@/lib/format';
import { useLiveEvents, useWhenLiveReopens } from '@/lib/live-events';
import { pageCount, setPageParams, type CursorSearch } from '@pages/search-params';
import { memberLayout, useMember } from './member';
import { isUnlockOf, parseUnlocksSearch, refreshUnlocksOf, unlocksOf } from './unlocks.api';

type Data = { page: CursorSearch; unlocks: Page<KisiEvent> };

/** The member first (the layout's read, for the email), then their unlocks by email. */
export async function loader(args: LoaderFunctionArgs): Promise<Data> {
  const { member } = await memberLayout.loader(args);
  const page = parseUnlocksSearch(new URL(args.request.url).searchParams);
  return { page, unlocks: await load(unlocksOf(member.email, page)) };
}

export const handle = { title: 'Unlocks' };

/** A page of a member's unlocks: the first at the page's own address, a later one with its link's cursor (`next` or `previous`). */
function unlocksHref(id: number, page: number, cursor: PageCursor = {}): string {
  const params = new URLSearchParams();
  setPageParams(params, { page, ...cursor });
  return params.size > 0 ? `${paths.gymMemberUnlocks(id)}?${params}` : paths.gymMemberUnlocks(id);
}

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const member = useMember();
  const unlocksRead = unlocksOf(member.email, loaded.page);
  const { key } = unlocksRead;
  const { data, error, isValidating, mutate } = useRead(unlocksRead, loaded.unlocks);
  const unlocks = data ?? loaded.unlocks;
  const navigation = useNavigation();
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const [announcement, setAnnouncement] = useState('');
  const [newer, setNewer] = useState(0);

  useLiveEvents(['webhook'], (event) => {
    const unlock = event.data as KisiEvent;
    if (!isUnlockOf(unlock, member.email)) return;
    setAnnouncement(`${unlock.success ? 'New unlock' : 'Refused unlock'} at ${unlock.objectName ?? 'a door'}.`);
    if (loaded.page.page !== 1) {
      setNewer((n) => n + 1);
    } else {
      setFresh((ids) => new Set(ids).add(unlock.id));
      // Shown at once.
      setQueryData(key, (current: Page<KisiEvent> = unlocks) =>
        current.items.some((e) => e.id === unlock.id) ? current : { ...current, items: [unlock, ...current.items].slice(0, current.pageSize), total: current.total + 1 },
      );
    }
    // Then every page refetches or is dropped (they shifted by one). The BFF stores an event before
    // announcing it, so the refetch has it.
    void refreshUnlocksOf(member.email);
  });

  // Each time the stream reopens, the unlocks are read again: those stored while it was down show up.
  useWhenLiveReopens(() => void refreshUnlocksOf(member.email));

  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.gymMemberUnlocks(member.id);
  const pages = pageCount(unlocks.total, unlocks.pageSize);

  return (
    <section className="card stack" aria-labelledby="unlocks-title">
      <div className="card-head">
        <h2 id="unlocks-title" className="card-heading">
          <Icon name="door" /> Unlocks
        </h2>
        <LiveConnectionBadge />
      </div>
      <p className="muted">Doors {member.email} opened (or was refused at) with Kisi, newest first. New ones appear as they happen.</p>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {newer > 0 ? (
        <div className="banner banner-info">
          <AppLink to={unlocksHref(member.id, 1)}>
            {newer} new {newer === 1 ? 'unlock' : 'unlocks'} since you opened this page: see the latest
          </AppLink>
        </div>
      ) : null}
      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the unlocks: {errorMessage(error)}
        </LoadError>
      ) : null}
      {unlocks.items.length === 0 ? (
        unlocks.total > 0 && unlocks.totalIsLowerBound ? (
          // Counted only so far (years of unlocks): the start is the page to offer.
          <EmptyState
            title="This page is past the end"
            action={
              <AppLink to={unlocksHref(member.id, 1)} className="btn btn-primary">
                Go to the first page
              </AppLink>
            }
          >
            The unlocks have changed since this link was made.
          </EmptyState>
        ) : unlocks.total > 0 ? (
          <EmptyState
            title="This page is past the end"
            action={
              <AppLink to={unlocksHref(member.id, pages)} className="btn btn-primary">
                Go to page {pages}
              </AppLink>
            }
          >
            {member.name} has {unlocks.total} unlocks on {pages} {pages === 1 ? 'page' : 'pages'}.
          </EmptyState>
        ) : (
          <EmptyState icon="door" title="No unlocks yet">
            When {member.name} opens a door with Kisi (phone, card or access link), it shows here at once, refusals included.
          </EmptyState>
        )
      ) : (
        <ul className="gym-list" aria-label="Unlocks" aria-busy={busy}>
          {unlocks.items.map((unlock) => (
            <li key={unlock.id} className={`gym-row unlock-row${fresh.has(unlock.id) ? ' unlock-fresh' : ''}`}>
              <div className="gym-row-main">
                <span className="gym-row-title">{unlock.objectName ?? `Lock #${unlock.objectId ?? '?'}`}</span>
                <span className="gym-row-sub">
                  <time dateTime={unlock.createdAt}>{formatWhenExact(unlock.createdAt)}</time>
                  {unlock.success ? null : <> · {unlock.errorMessage ?? (unlock.errorCode ? `Kisi error ${unlock.errorCode}` : 'Refused')}</>}
                </span>
              </div>
              <span className="gym-row-meta">
                {fresh.has(unlock.id) ? <span className="badge badge-accent">New</span> : null}
                <span className={`badge ${unlock.success ? 'badge-ok' : 'badge-bad'}`}>{unlock.success ? 'Opened' : 'Refused'}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={loaded.page.page}
        pageSize={unlocks.pageSize}
        total={unlocks.total}
        totalIsLowerBound={unlocks.totalIsLowerBound}
        next={unlocks.next}
        previous={unlocks.previous}
        hrefFor={(page, cursor) => unlocksHref(member.id, page, cursor)}
        label="Unlock pages"
        noun="unlocks"
      />
    </section>
  );
}
