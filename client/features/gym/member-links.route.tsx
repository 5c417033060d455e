import { useState } from 'react';
import { useLoaderData } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import type { GymMember } from '@contracts/gym.contract';
import { LINK_ENDED, type KisiGroupLink, type KisiGroupLinkCreated } from '@contracts/kisi.contract';
import { DeleteButton, useConfirmDelete } from '@/components/confirm-delete';
import { CreatedLink } from '@/components/created-link';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { Spinner } from '@/components/spinner';
import { useModal } from '@/components/modal-host';
import { useToast } from '@/components/toast-host';
import { load, useRead } from '@/lib/reads';
import { endOfTodayLocalInput, formatTime, formatWhen, isoFromLocalInput } from '@/lib/format';
import { hasRole, useShellUser } from '@/lib/session';
import { FormActions, ModalForm, TextField } from '@/components/form-fields';
import { LinkStateBadge } from '@/components/link-state-badge';
import { useForm } from '@/lib/form-state';
import { LINK_FIELDS, createGroupLink, deleteGroupLink, groupLinkBody, kisiErrorMessage, kisiFieldOf, kisiFormErrors, linksOf } from '@/lib/kisi';
import { memberLayout, useMember } from './member';

/** The member first (the layout's read, for the email), then their access links through the Kisi proxy. A Kisi failure stays in the tab. */
export async function loader(args: LoaderFunctionArgs) {
  const { member } = await memberLayout.loader(args);
  return load(linksOf(member.email));
}

export const handle = { title: 'Access links' };

/** A pass ending this soon says so: issued late in the evening, "tonight at 23:59" is a short pass. */
const SHORT_PASS_MS = 3 * 3_600_000;

/** What the end of a day pass means for the member: the default, how soon it ends when that is soon, or that it has passed. */
function validUntilHint(local: string, now = Date.now()): string {
  const until = local ? Date.parse(local) : NaN;
  if (Number.isNaN(until)) return local ? 'Pick a day and a time, or leave it empty for no end.' : 'No end: the pass works until it is revoked.';
  const left = until - now;
  if (left <= 0) return LINK_ENDED;
  if (left < SHORT_PASS_MS) {
    const minutes = Math.ceil(left / 60_000);
    return `Ends in ${minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`}, at ${formatTime(new Date(until).toISOString())}: pick a later end for a longer pass.`;
  }
  return local === endOfTodayLocalInput(now) ? 'Tonight at 23:59 unless you change it; empty for no end.' : `Ends ${formatWhen(new Date(until).toISOString())}; empty for no end.`;
}

/**
 * A day pass: an access link for the member that ends tonight (23:59 by the desk's clock) unless
 * staff pick another end, with a QR code to scan. Kisi shows its secret and QR code only in the
 * create answer, so the form gives way to them once created. Kisi's 422 lands on the fields.
 */
function DayPassForm({ member, onClose }: { member: GymMember; onClose: () => void }) {
  const toast = useToast();
  const [created, setCreated] = useState<KisiGroupLinkCreated>();
  const form = useForm({
    schema: createGroupLink.endpoint.body,
    initial: { name: `Day pass: ${member.name}`, email: member.email, validFrom: '', validUntil: endOfTodayLocalInput() },
    toInput: (values) =>
      groupLinkBody({ name: values.name.trim(), email: values.email.trim(), validFrom: isoFromLocalInput(values.validFrom), validUntil: isoFromLocalInput(values.validUntil) }),
    fieldOf: kisiFieldOf(LINK_FIELDS),
    send: async (body) => {
      const link = await createGroupLink({ body });
      setCreated(link);
      toast.show({ tone: 'success', message: `Day pass “${link.name}” created${link.email ? ` for ${link.email}` : ''}.` });
    },
    failed: (error) => kisiFormErrors(error, LINK_FIELDS),
  });

  if (created) return <CreatedLink link={created} onClose={onClose} />;
  const until = form.field('validUntil');

  return (
    <ModalForm form={form}>
      <TextField label="Name" {...form.field('name')} data-autofocus />
      <TextField label="Email" type="email" {...form.field('email')} hint="Kisi also sends the link and QR code to this address." />
      <TextField label="Valid from (optional)" type="datetime-local" {...form.field('validFrom')} hint="Leave empty for a pass that works at once." />
      {/* Its error, once there is one, says what the hint would (an end that has passed) or more: not both. */}
      <TextField label="Valid until" type="datetime-local" {...until} hint={until.error ? undefined : validUntilHint(form.values.validUntil)} />
      <FormActions pending={form.pending} submitLabel="Create day pass" pendingLabel="Creating…" onCancel={onClose} />
    </ModalForm>
  );
}

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const member = useMember();
  // Staff hand out and revoke day passes at the desk; who may is the endpoint's own access (runners never reach this tab).
  const canWrite = hasRole(useShellUser(), createGroupLink.endpoint.access);
  const read = useRead(linksOf(member.email), loaded.data);
  const { data: links, isValidating, mutate } = read;
  const error = read.error ?? (links === undefined ? loaded.error : undefined);
  const modal = useModal();
  const confirmDelete = useConfirmDelete();

  const openCreate = () =>
    modal.open({
      title: 'New day pass',
      description: `An access link and QR code that open the gym’s doors for ${member.name} until it ends, without a Kisi account.`,
      content: (close) => <DayPassForm member={member} onClose={close} />,
    });

  const openDelete = (link: KisiGroupLink) =>
    confirmDelete({
      title: `Revoke “${link.name}”?`,
      confirmLabel: 'Revoke link',
      body: <p>The link and its QR code stop opening doors at once. This cannot be undone.</p>,
      remove: () => deleteGroupLink({ params: { id: link.id } }),
      refusal: kisiErrorMessage,
      deleted: `Access link “${link.name}” revoked. It no longer opens any door.`,
    });

  return (
    <section className="card stack" aria-labelledby="links-title">
      <div className="card-head">
        <h2 id="links-title" className="card-heading">
          <Icon name="door" /> Access links
        </h2>
        {canWrite ? (
          <button type="button" className="btn btn-primary btn-small" onClick={openCreate}>
            <Icon name="plus" size={16} /> New day pass
          </button>
        ) : null}
      </div>
      <p className="muted">Kisi links sent to {member.email}. Each opens the gym’s doors from a phone until it expires or is revoked.</p>
      {canWrite ? null : <p className="muted small">Only the front desk can create or revoke access links.</p>}
      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not load the access links from Kisi: {kisiErrorMessage(error)}
        </LoadError>
      ) : links === undefined ? (
        <Spinner />
      ) : links.length === 0 ? (
        <EmptyState
          icon="door"
          title="No access links"
          action={
            canWrite ? (
              <button type="button" className="btn btn-primary" onClick={openCreate}>
                Create a day pass
              </button>
            ) : undefined
          }
        >
          {member.name} has no Kisi access link.
        </EmptyState>
      ) : (
        <ul className="gym-list" aria-label="Access links">
          {links.map((link) => (
            <li key={link.id} className="gym-row">
              <div className="gym-row-main">
                <span className="gym-row-title">{link.name}</span>
                <span className="gym-row-sub">
                  {link.valid_until ? `Valid until ${formatWhen(link.valid_until)}` : 'No end date'} ·{' '}
                  {link.last_used_at ? `last used ${formatWhen(link.last_used_at)}` : 'never used'} · {link.group.name}
                </span>
              </div>
              <span className="gym-row-meta">
                <LinkStateBadge link={link} />
              </span>
              {canWrite ? (
                <DeleteButton label={`Revoke ${link.name}`} onClick={() => openDelete(link)} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
