import { useLoaderData } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import type { GymMember } from '@contracts/gym.contract';
import type { KisiGroupLink } from '@contracts/kisi.contract';
import { DeleteButton, useConfirmDelete } from '@/components/confirm-delete';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { Spinner } from '@/components/spinner';
import { useModal } from '@/components/modal-host';
import { useToast } from '@/components/toast-host';
import { loadQuery, useQuery } from '@/lib/cache';
import { formatWhen, isoFromLocalInput } from '@/lib/format';
import { useShellUser } from '@/lib/session';
import { FormActions, ModalForm, TextField } from '@/components/form-fields';
import { LinkStateBadge } from '@/components/link-state-badge';
import { useForm } from '@/lib/form-state';
import { LINK_FIELDS, createGroupLink, deleteGroupLink, fetchLinksOf, groupLinkBody, kisiErrorMessage, kisiFieldOf, kisiFormErrors, linksOfKey } from '@/lib/kisi';
import { fetchMember, memberKey } from './gym.api';
import { useMember } from './member';

/** The member first (for the email), then their access links through the Kisi proxy. A Kisi failure stays in the tab. */
export async function loader({ params }: LoaderFunctionArgs) {
  const member: GymMember = await loadQuery(memberKey(params.id ?? ''), fetchMember);
  return loadQuery(linksOfKey(member.email), fetchLinksOf, { outage: 'in-page' });
}

export const handle = { title: 'Access links' };

function CreateLinkForm({ member, onDone, onCancel }: { member: GymMember; onDone: () => void; onCancel: () => void }) {
  const toast = useToast();
  // Kisi checks the link (a blank name, say) and answers 422 per field: those messages land on the fields.
  const form = useForm({
    schema: createGroupLink.endpoint.body,
    initial: { name: `${member.name} (front desk)`, email: member.email, validFrom: '', validUntil: '' },
    toInput: (values) =>
      groupLinkBody({ name: values.name.trim(), email: values.email.trim(), validFrom: isoFromLocalInput(values.validFrom), validUntil: isoFromLocalInput(values.validUntil) }),
    fieldOf: kisiFieldOf(LINK_FIELDS),
    send: async (body, values) => {
      await createGroupLink({ body });
      toast.show({ tone: 'success', message: `Access link “${values.name.trim()}” created for ${values.email.trim()}.` });
      onDone();
    },
    failed: (error) => kisiFormErrors(error, LINK_FIELDS),
  });

  return (
    <ModalForm form={form}>
      <TextField label="Link name" {...form.field('name')} data-autofocus />
      <TextField label="Email" type="email" {...form.field('email')} hint="Kisi sends the link to this address." />
      <TextField label="Valid from (optional)" type="datetime-local" {...form.field('validFrom')} hint="Leave empty for a link that works at once." />
      <TextField label="Valid until (optional)" type="datetime-local" {...form.field('validUntil')} hint="Leave empty for a link that does not expire." />
      <FormActions pending={form.pending} submitLabel="Create link" pendingLabel="Creating…" onCancel={onCancel} />
    </ModalForm>
  );
}

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const member = useMember();
  const canWrite = useShellUser().role === 'admin';
  const { data: links, error, isValidating, mutate } = useQuery(linksOfKey(member.email), fetchLinksOf, loaded, { outage: 'in-page' });
  const modal = useModal();
  const confirmDelete = useConfirmDelete();

  const openCreate = () =>
    modal.open({
      title: 'New access link',
      description: `A web link (and QR code) that opens the gym doors for ${member.name}, without a Kisi account.`,
      content: (close) => <CreateLinkForm member={member} onCancel={close} onDone={close} />,
    });

  const openDelete = (link: KisiGroupLink) =>
    confirmDelete({
      title: `Delete “${link.name}”?`,
      confirmLabel: 'Delete link',
      body: <p>The link stops opening doors at once. This cannot be undone.</p>,
      remove: () => deleteGroupLink({ params: { id: link.id } }),
      refusal: kisiErrorMessage,
      deleted: `Access link “${link.name}” deleted. It no longer opens any door.`,
    });

  return (
    <section className="card stack" aria-labelledby="links-title">
      <div className="card-head">
        <h2 id="links-title" className="card-heading">
          <Icon name="door" /> Access links
        </h2>
        {canWrite ? (
          <button type="button" className="btn btn-primary btn-small" onClick={openCreate}>
            <Icon name="plus" size={16} /> New access link
          </button>
        ) : null}
      </div>
      <p className="muted">Kisi links sent to {member.email}. Each opens the gym’s doors from a phone until it expires or is deleted.</p>
      {canWrite ? null : <p className="muted small">Only admins can create or delete access links.</p>}
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
                Create one
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
                <DeleteButton label={`Delete ${link.name}`} onClick={() => openDelete(link)} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
