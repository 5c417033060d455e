import { useState } from 'react';
import type { KisiLock } from '@contracts/kisi.contract';
import { kisiLocksReads } from '@pages/kisi.reads';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { useToast } from '@/components/toast-host';
import { kisiErrorMessage, unlockLock } from '@/lib/kisi';
import { KisiLoaded } from './components/kisi-load-error';
import { KisiTable } from './components/kisi-table';
import { kisiRouteReads } from './kisi.api';

/** `/kisi/locks`: every door (Kisi's maximum page holds them all), each with a remote unlock. A Kisi outage shows inside the page. */
const reads = kisiRouteReads(kisiLocksReads);
export const { loader } = reads;
export const handle = { title: 'Kisi locks', ...reads.handle };

function UnlockButton({ lock }: { lock: KisiLock }) {
  const toast = useToast();
  const [pending, setPending] = useState(false);
  const unlock = async () => {
    if (pending) return;
    setPending(true);
    try {
      const { message } = await unlockLock({ params: { id: lock.id } });
      toast.show({ tone: 'success', title: lock.name, message });
    } catch (error) {
      // Kisi's own words: "locked down" (409), "offline" (503).
      toast.show({ tone: 'error', title: `Could not unlock ${lock.name}`, message: kisiErrorMessage(error) });
    } finally {
      setPending(false);
    }
  };
  return (
    // aria-disabled while pending: a disabled button would drop the keyboard focus.
    <button
      type="button"
      className="btn btn-small"
      onClick={() => void unlock()}
      aria-disabled={pending || undefined}
      aria-busy={pending}
      aria-label={pending ? `Unlocking ${lock.name}` : `Unlock ${lock.name}`}
    >
      {pending ? <span className="spinner" aria-hidden="true" /> : <Icon name="unlock" size={16} />}
      {pending ? 'Unlocking…' : 'Unlock'}
    </button>
  );
}

export function Component() {
  const { locks: read } = reads.useReads();

  return (
    <>
      <PageHeader eyebrow="Access control" title="Locks">
        <p>The venue’s doors. Unlock one from here to let someone in: Kisi opens it for a few seconds and records who did.</p>
      </PageHeader>
      <KisiLoaded what="the locks" read={read}>
        {(locks) =>
          locks.items.length === 0 ? (
            <section className="card">
              <EmptyState icon="lock" title="No locks">
                Kisi has no doors for this organisation yet.
              </EmptyState>
            </section>
          ) : (
            <>
              <KisiTable label="Kisi locks" columns={[{ label: 'Name' }, { label: 'Place' }, { label: 'Online' }, { label: 'Locked down' }]} actions>
                {locks.items.map((lock) => (
                  <tr key={lock.id}>
                    <td className="cell-main">
                      <span className="cell-title">{lock.name}</span>
                      {lock.description ? <span className="cell-sub">{lock.description}</span> : null}
                    </td>
                    <td data-label="Place">{lock.place.name}</td>
                    <td data-label="Online">
                      {lock.online === null ? (
                        <span className="badge badge-muted">Unknown</span>
                      ) : (
                        <span className={`badge ${lock.online ? 'badge-ok' : 'badge-bad'}`}>{lock.online ? 'Online' : 'Offline'}</span>
                      )}
                    </td>
                    <td data-label="Locked down">
                      <span className={`badge ${lock.locked_down ? 'badge-warn' : 'badge-muted'}`}>{lock.locked_down ? 'Locked down' : 'No'}</span>
                    </td>
                    <td className="actions">
                      {lock.locked_down || lock.online === false ? (
                        // Kisi would refuse: say why instead of offering the button.
                        <span className="muted small">{lock.locked_down ? 'Locked down: no remote unlock' : 'Offline: no remote unlock'}</span>
                      ) : (
                        <UnlockButton lock={lock} />
                      )}
                    </td>
                  </tr>
                ))}
              </KisiTable>
              {locks.total > locks.items.length ? (
                <p className="muted small">
                  Showing the first {locks.items.length} of {locks.total} locks.
                </p>
              ) : null}
            </>
          )
        }
      </KisiLoaded>
    </>
  );
}
