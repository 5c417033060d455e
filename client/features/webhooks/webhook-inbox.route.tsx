import './webhooks.css';
import { useEffect, useRef, useState } from 'react';
import { useLoaderData, useNavigate, useNavigation } from 'react-router';
import type { KisiEvent } from '@contracts/webhook.contract';
import { eventsRead, parseInboxSearch, webhookInboxReads } from '@pages/webhooks.reads';
import { LiveConnectionBadge, LiveConnectionError } from '@/components/live-connection';
import { useConfirmDelete } from '@/components/confirm-delete';
import { ExportCsvLink } from '@/components/export-csv-link';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { IgnoredParamsBanner } from '@/components/list-filter-fields';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import type { PageCursor } from '@/components/pagination';
import { useToast } from '@/components/toast-host';
import { paths } from '@/lib/paths';
import { errorMessage } from '@/lib/api-client';
import { formatWhen, formatWhenExact } from '@/lib/format';
import { useSetListFilter } from '@/lib/list-filters';
import { useLiveEvents, useWhenLiveReopens } from '@/lib/live-events';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { useSearch } from '@/lib/search-params';
import { EventFilters } from './components/event-filters';
import { EventTable } from './components/event-table';
import { deleteEvent, exportHref, inboxHref, isFiltered, matchesSearch, refreshInbox, type InboxFilterName } from './webhooks.api';

/** `/shell/webhook?page&pageSize&person&doorId&result&type&from&to` (page 1-based; what it cannot use it ignores, and says so). */
const reads = routeReads(webhookInboxReads);
export const { loader } = reads;
export const handle = { title: 'Door events', ...reads.handle };

const newEventsLabel = (n: number) => `${n} new ${n === 1 ? 'event' : 'events'}`;

/** An event as the desk says it: "Nadia Okoye’s unlock at Front door (Nov 26, 6:52 PM)", never its ids. */
function eventInWords(event: KisiEvent): string {
  const unlock = event.requestedBy ? 'remote unlock' : 'unlock';
  const what = event.type === 'lock.unlock' ? (event.success ? unlock : `refused ${unlock}`) : `${event.type} event`;
  return `${event.requestedBy?.name ?? event.actorName ?? 'someone'}’s ${what}${event.objectName ? ` at ${event.objectName}` : ''} (${formatWhen(event.createdAt)})`;
}

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const { ignored, ...search } = useSearch(parseInboxSearch);
  // The hook itself rather than `reads.useReads()`: a failed refresh is said above the rows still shown.
  const { data: events, error, isValidating, mutate } = useRead(queryOf(eventsRead(search)), loaded.events);
  const navigation = useNavigation();
  const navigate = useNavigate();
  const filtered = isFiltered(search);
  const pageHref = (page: number, cursor?: PageCursor) => inboxHref({ ...search, page, next: cursor?.next ?? '', previous: cursor?.previous ?? '' });
  // Clearing keeps the page size: it is how many rows the person wants to see, not what they look for.
  const clearHref = inboxHref({ ...search, page: 1, next: '', previous: '', person: '', doorId: 0, result: '', type: '', from: '', to: '' });
  const confirmDelete = useConfirmDelete();
  const toast = useToast();
  // Ids announced on the live stream that the table does not show yet; the banner loads them in.
  const [incoming, setIncoming] = useState<number[]>([]);
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const [loadingNew, setLoadingNew] = useState(false);
  const tableRef = useRef<HTMLTableElement>(null);
  const focusEvents = useRef(false);

  // The banner goes once its events are in: the focus it had moves on to them rather than to the document body.
  useEffect(() => {
    if (!focusEvents.current || incoming.length > 0) return;
    focusEvents.current = false;
    if (!document.activeElement || document.activeElement === document.body) tableRef.current?.focus();
  }, [incoming, fresh]);

  useLiveEvents(['webhook'], (event) => {
    const kisiEvent = event.data as KisiEvent;
    const id = kisiEvent.id;
    // An event the filters leave out would not appear in this list: it is not news here.
    if (!matchesSearch(kisiEvent, search)) return;
    // A resume can replay an event, and a refetch may already have brought it: count each once.
    if (search.page === 1 && events.items.some((e) => e.id === id)) return;
    setIncoming((ids) => (ids.includes(id) ? ids : [...ids, id]));
  });

  // Each time the stream reopens, the list is read again: what was stored while it was down shows up.
  useWhenLiveReopens(() => void refreshInbox());

  // Once the first page shows an announced event (a load, or a background refresh), it is no longer new.
  useEffect(() => {
    if (search.page !== 1) return;
    setIncoming((ids) => {
      const waiting = ids.filter((id) => !events.items.some((e) => e.id === id));
      return waiting.length === ids.length ? ids : waiting;
    });
  }, [events, search.page]);

  const setFilter = useSetListFilter<InboxFilterName | 'pageSize'>();

  const busy = (navigation.state === 'loading' && navigation.location.pathname === paths.shellWebhook) || loadingNew;

  const showNew = async () => {
    if (loadingNew) return;
    const ids = incoming;
    setLoadingNew(true);
    try {
      await refreshInbox();
      if (search.page !== 1) await navigate(pageHref(1));
      setFresh(new Set(ids));
      // Events that arrived while loading stay announced (the next load brings them).
      setIncoming((now) => now.filter((id) => !ids.includes(id)));
      focusEvents.current = true;
    } catch (err) {
      toast.show({ tone: 'error', title: 'Could not load the new events', message: errorMessage(err) });
    } finally {
      setLoadingNew(false);
    }
  };

  const openDelete = (event: KisiEvent) =>
    confirmDelete({
      title: 'Delete this event?',
      confirmLabel: 'Delete event',
      body: (
        <p>
          The <code>{event.type}</code> event of {event.requestedBy ? `${event.requestedBy.name} (remote unlock via ${event.actorName ?? 'the Kisi integration'})` : (event.actorName ?? 'an unknown person')}
          {event.objectName ? ` at ${event.objectName}` : ''} ({formatWhenExact(event.createdAt)}) leaves the inbox. Kisi keeps its own record.
        </p>
      ),
      remove: () => deleteEvent({ params: { id: event.id } }),
      deleted: `Deleted ${eventInWords(event)}.`,
      afterDelete: (close) => {
        close();
        // The last row of a later page: go back to the page before (by this page's Previous cursor), which still has rows.
        if (events.items.length === 1 && search.page > 1) void navigate(pageHref(search.page - 1, { previous: events.previous }), { replace: true });
      },
    });

  return (
    <div className="stack-lg inbox">
      <PageHeader
        eyebrow="Kisi webhooks"
        title="Door events"
        actions={
          <>
            <LiveConnectionBadge />
            <ExportCsvLink href={exportHref(search)} />
          </>
        }
      >
        <p>Every unlock and refusal Kisi reports, newest first. New events arrive live while this page is open.</p>
      </PageHeader>

      <div className="new-events-slot" aria-live="polite">
        {incoming.length > 0 ? (
          <button type="button" className="new-events" onClick={() => void showNew()} aria-disabled={loadingNew || undefined} aria-busy={loadingNew}>
            <Icon name="refresh" size={18} />
            {newEventsLabel(incoming.length)}
          </button>
        ) : null}
      </div>

      <EventFilters search={search} busy={busy} onChange={setFilter} clearHref={clearHref} />
      <IgnoredParamsBanner ignored={ignored} />

      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the events: {errorMessage(error)}
        </LoadError>
      ) : null}
      <LiveConnectionError />

      <PagedList
        page={search.page}
        pageSize={events.pageSize}
        total={events.total}
        totalIsLowerBound={events.totalIsLowerBound}
        next={events.next}
        previous={events.previous}
        count={events.items.length}
        hrefFor={pageHref}
        label="Event pages"
        noun="events"
        empty={
          filtered ? (
            <NoMatchState title="No door events match these filters" clearTo={clearHref} clearLabel="Clear filters">
              Try another person, door or result, or a wider range of days.
            </NoMatchState>
          ) : (
            <EmptyState icon="inbox" title="No door events yet">
              Kisi sends an event each time someone unlocks a door (or is refused). Keep this page open: they appear here as they happen.
            </EmptyState>
          )
        }
      >
        <EventTable events={events.items} fresh={fresh} busy={busy} onDelete={openDelete} tableRef={tableRef} />
      </PagedList>
    </div>
  );
}
