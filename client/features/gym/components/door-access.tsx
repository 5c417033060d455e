import { useState } from 'react';
import { doorStateOf, type DoorState, type GymMember, type MemberDoorAccess, type Membership } from '@contracts/gym.contract';
import { Icon } from '@/components/icon';
import { useToast } from '@/components/toast-host';
import { errorMessage } from '@/lib/api-client';
import { formatWhen } from '@/lib/format';
import { retryDoorAccess } from '@/features/gym/gym.api';
import type { InPageRead } from '@/lib/route-reads';

const DOOR_BADGE: Record<DoorState['doors'], string> = { open: 'badge-ok', closed: 'badge-bad', no_account: 'badge-muted', unknown: 'badge-muted' };

/** The verdict of `doorStateOf` as a badge, the same on the door card and in the member list; doors open against the membership warn. */
export function DoorStateBadge({ door, membership, title }: { door: { doors: DoorState['doors']; label: string }; membership: Membership; title?: string }) {
  return (
    <span className={`badge ${door.doors === 'open' && membership !== 'active' ? 'badge-warn' : DOOR_BADGE[door.doors]}`} title={title} data-testid="door-state">
      {door.label}
    </span>
  );
}

/** What the last switch did, in words. */
function syncSentence(member: GymMember): { tone: 'ok' | 'bad' | 'info' | 'muted'; text: string } {
  const { state, wantEnabled, at } = member.accessSync;
  const stamp = at ? ` (${formatWhen(at)})` : '';
  switch (state) {
    case 'synced':
      return { tone: 'ok', text: `Door access was switched ${wantEnabled ? 'on' : 'off'} to match the membership${stamp}.` };
    case 'failed':
      return { tone: 'bad', text: member.accessSync.error ?? `Could not switch door access ${wantEnabled ? 'on' : 'off'}.` };
    case 'pending':
      return { tone: 'info', text: `Door access is to be switched ${wantEnabled ? 'on' : 'off'} to match the membership${stamp}.` };
    case 'no_kisi_user':
      return { tone: 'info', text: `No Kisi account uses ${member.email}, so there was no door access to switch${stamp}.` };
    default:
      return { tone: 'muted', text: 'Not switched yet: the membership has not changed since the member was added.' };
  }
}

/**
 * The member's door access: whether the doors open for them (`doorStateOf`: Kisi's switch, the
 * membership and whether they have a Kisi account, in one verdict), the Kisi account's live state
 * (`GET …/access`) and what the last switch did. A failed switch (or a Kisi account out of step)
 * gets a Retry that asks the BFF to switch again.
 */
export function DoorAccessCard({ member, read }: { member: GymMember; read: InPageRead<MemberDoorAccess> }) {
  const toast = useToast();
  const { data: access, error, isValidating, mutate } = read;
  const [retrying, setRetrying] = useState(false);
  const want = member.accessSync.wantEnabled;
  const kisi = access?.kisiUser;
  // Not known until Kisi has answered once; said as the member list says it when Kisi could not be asked.
  const door = doorStateOf(member.membership, access?.kisiUser, { unreachable: !access && !!error });
  const outOfStep = kisi ? kisi.accessEnabled !== want : false;
  const failed = member.accessSync.state === 'failed';
  const waiting = member.accessSync.state === 'pending' ? member.accessSync.waiting : null;
  const { confirmedEnabled, confirmedAt } = member.accessSync;
  const sentence = syncSentence(member);

  const retry = async () => {
    setRetrying(true);
    try {
      const updated = await retryDoorAccess({ params: { id: member.id } });
      if (updated.accessSync.state === 'failed') toast.show({ tone: 'error', title: 'Door access still not switched', message: updated.accessSync.error ?? 'Kisi did not accept the change.' });
      else if (updated.accessSync.state === 'pending')
        toast.show({ tone: 'error', title: 'Kisi did not take it yet', message: updated.accessSync.waiting?.lastError ?? 'The switch stays queued and is tried again by itself.' });
      else toast.show({ tone: 'success', message: `Door access is ${updated.accessSync.wantEnabled ? 'on' : 'off'} for ${updated.name}.` });
    } catch (err) {
      toast.show({ tone: 'error', title: 'Could not retry', message: errorMessage(err) });
    } finally {
      setRetrying(false);
    }
  };

  return (
    <section className="card stack door-card" aria-labelledby="door-title">
      <div className="card-head">
        <h2 id="door-title" className="card-heading">
          <Icon name="door" /> Door access
        </h2>
        <DoorStateBadge door={door} membership={member.membership} />
      </div>

      {waiting ? (
        <div className="banner banner-warning sync-waiting" role="status" data-testid="door-waiting">
          <p>
            <strong>Waiting for Kisi, next try at {formatWhen(waiting.nextTryAt)}.</strong> Door access is switched {want ? 'on' : 'off'} as soon as Kisi takes it
            {waiting.attempts > 0 ? ` (tried ${waiting.attempts} time${waiting.attempts === 1 ? '' : 's'}${waiting.lastError ? `: ${waiting.lastError}` : ''})` : ''}.
          </p>
          <button type="button" className="btn btn-small" onClick={() => void retry()} disabled={retrying} aria-busy={retrying}>
            <Icon name="refresh" size={16} />
            {retrying ? 'Trying…' : 'Try now'}
          </button>
        </div>
      ) : failed ? (
        <div className="banner banner-danger sync-failed" role="alert">
          <p>
            <strong>Door access was not switched {want ? 'on' : 'off'}.</strong> {sentence.text}
          </p>
          <button type="button" className="btn btn-small" onClick={() => void retry()} disabled={retrying} aria-busy={retrying}>
            <Icon name="refresh" size={16} />
            {retrying ? 'Retrying…' : 'Retry'}
          </button>
        </div>
      ) : (
        <p className={`sync-line sync-${sentence.tone}`}>
          <Icon name={sentence.tone === 'ok' ? 'check' : 'info'} size={16} />
          <span>{sentence.text}</span>
        </p>
      )}

      <dl className="facts">
        <div>
          <dt>Kisi account</dt>
          <dd>
            {access === undefined && isValidating ? (
              <span className="muted">Checking…</span>
            ) : error && !access ? (
              <span className="muted">Unknown</span>
            ) : kisi ? (
              <span>
                {kisi.name ?? kisi.email} <span className="muted tabular">#{kisi.id}</span>
              </span>
            ) : (
              <span className="muted">None with this email</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Last confirmed by Kisi</dt>
          <dd data-testid="kisi-confirmed">
            {confirmedEnabled === null ? (
              <span className="muted">Never</span>
            ) : (
              <span>
                {confirmedEnabled ? 'Enabled' : 'Disabled'}
                {confirmedAt ? <span className="muted"> ({formatWhen(confirmedAt)})</span> : null}
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Access in Kisi now</dt>
          <dd>
            {kisi ? (
              <span className={`badge ${kisi.accessEnabled ? 'badge-ok' : 'badge-bad'}`} data-testid="kisi-access">
                {kisi.accessEnabled ? 'Enabled' : 'Disabled'}
              </span>
            ) : (
              <span className="muted">—</span>
            )}
          </dd>
        </div>
      </dl>

      {error ? (
        <div className="banner banner-warning" role="alert">
          Could not read the Kisi account: {errorMessage(error)}{' '}
          <button type="button" className="link-button" onClick={() => void mutate()} disabled={isValidating}>
            Check again
          </button>
        </div>
      ) : null}
      {outOfStep && !failed && !waiting ? (
        <div className="banner banner-warning">
          <p>
            Kisi has access {kisi?.accessEnabled ? 'enabled' : 'disabled'}, but the membership says it should be {want ? 'on' : 'off'}.
          </p>
          <button type="button" className="btn btn-small" onClick={() => void retry()} disabled={retrying} aria-busy={retrying}>
            <Icon name="refresh" size={16} />
            {retrying ? 'Switching…' : `Switch ${want ? 'on' : 'off'} now`}
          </button>
        </div>
      ) : null}
      <div className="card-foot">
        <button type="button" className="btn btn-small btn-ghost" onClick={() => void mutate()} disabled={isValidating} aria-busy={isValidating}>
          <Icon name="refresh" size={16} />
          {isValidating ? 'Checking Kisi…' : 'Check Kisi now'}
        </button>
      </div>
    </section>
  );
}
