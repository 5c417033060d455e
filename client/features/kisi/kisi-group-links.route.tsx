import { useState } from 'react';
import { useNavigation } from 'react-router';
import type { KisiGroupLink, KisiGroupLinkCreated } from '@contracts/kisi.contract';
import { kisiGroupLinksReads, parsePageQuery } from '@pages/kisi.reads';
import { CreatedLink } from '@/components/created-link';
import { DeleteButton, useConfirmDelete } from '@/components/confirm-delete';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { FormActions, ModalForm, TextField } from '@/components/form-fields';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { SearchBox } from '@/components/search-box';
import { useModal } from '@/components/modal-host';
import { useToast } from '@/components/toast-host';
import { LinkStateBadge } from '@/components/link-state-badge';
import { paths } from '@/lib/paths';
import { useSearch, useSetSearchParam } from '@/lib/search-params';
import { formatWhen, isoFromLocalInput } from '@/lib/format';
import { useForm } from '@/lib/form-state';
import { LINK_FIELDS, createGroupLink, deleteGroupLink, groupLinkBody, kisiErrorMessage, kisiFieldOf, kisiFormErrors } from '@/lib/kisi';
import { KisiPages } from './components/kisi-load-error';
import { KisiTable } from './components/kisi-table';
import { kisiRouteReads } from './kisi.api';

/** `/kisi/group_links?query&page`: access links (a door-opening web link and QR code, no Kisi account needed). */
const reads = kisiRouteReads(kisiGroupLinksReads);
export const { loader } = reads;
export const handle = { title: 'Kisi access links', ...reads.handle };

/** Name, email and when it opens doors; the group is the server's (KISI_GROUP_ID) and the QR code is "online". Kisi's 422 lands on the fields. */
function CreateLinkForm({ onCancel }: { onCancel: () => void }) {
  const toast = useToast();
  const [created, setCreated] = useState<KisiGroupLinkCreated>();
  const form = useForm({
    schema: createGroupLink.endpoint.body,
    initial: { name: '', email: '', validFrom: '', validUntil: '' },
    toInput: (values) =>
      groupLinkBody({ name: values.name.trim(), email: values.email.trim(), validFrom: isoFromLocalInput(values.validFrom), validUntil: isoFromLocalInput(values.validUntil) }),
    fieldOf: kisiFieldOf(LINK_FIELDS),
    send: async (body) => {
      const link = await createGroupLink({ body });
      setCreated(link);
      toast.show({ tone: 'success', message: `Access link “${link.name}” created.` });
    },
    failed: (error) => kisiFormErrors(error, LINK_FIELDS),
  });

  if (created) return <CreatedLink link={created} onClose={onCancel} />;

  return (
    <ModalForm form={form}>
      <TextField label="Link name" {...form.field('name')} hint="Say who it is for, “Day pass: Sam Lee”." data-autofocus />
      <TextField label="Email" type="email" {...form.field('email')} hint="Kisi sends the link to this address." />
      <TextField label="Valid from (optional)" type="datetime-local" {...form.field('validFrom')} hint="Leave empty for a link that works at once." />
      <TextField label="Valid until (optional)" type="datetime-local" {...form.field('validUntil')} hint="Leave empty for a link that does not expire." />
      <FormActions pending={form.pending} submitLabel="Create link" pendingLabel="Creating…" onCancel={onCancel} />
    </ModalForm>
  );
}

export function Component() {
  const { links } = reads.useReads();
  const search = useSearch(parsePageQuery);
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.kisiGroupLinks;
  const setSearchParam = useSetSearchParam();
  const modal = useModal();
  const confirmDelete = useConfirmDelete();

  const onSearch = (query: string) => setSearchParam('query', query, { replace: true });

  const openCreate = () =>
    modal.open({
      title: 'New access link',
      description: 'A web link and QR code that open the gym’s doors, sent by email; no Kisi account needed.',
      content: (close) => <CreateLinkForm onCancel={close} />,
    });

  const openDelete = (link: KisiGroupLink) =>
    confirmDelete({
      title: `Delete “${link.name}”?`,
      confirmLabel: 'Delete link',
      body: <p>The link{link.email ? ` sent to ${link.email}` : ''} stops opening doors at once. This cannot be undone.</p>,
      remove: () => deleteGroupLink({ params: { id: link.id } }),
      refusal: kisiErrorMessage,
      deleted: `Access link “${link.name}” deleted. It no longer opens any door.`,
    });

  return (
    <>
      <PageHeader
        eyebrow="Access control"
        title="Access links"
        actions={
          <button type="button" className="btn btn-primary" onClick={openCreate}>
            <Icon name="plus" size={18} /> New access link
          </button>
        }
      >
        <p>Guest passes: each link opens its group’s doors from a phone until it expires or is deleted.</p>
      </PageHeader>
      <div className="toolbar">
        <SearchBox value={search.query} onSearch={onSearch} label="Search access links" placeholder="Search by name or email" busy={busy} />
      </div>
      <KisiPages
        what="the access links"
        read={links}
        search={search}
        path={paths.kisiGroupLinks}
        label="Access link pages"
        noun="links"
        empty={
          search.query ? (
            <NoMatchState title="No access links match" clearTo={paths.kisiGroupLinks}>
              No link’s name or email matches “{search.query}”.
            </NoMatchState>
          ) : (
            <EmptyState
              icon="link"
              title="No access links"
              action={
                <button type="button" className="btn btn-primary" onClick={openCreate}>
                  Create one
                </button>
              }
            >
              Create a link to let a guest in without a Kisi account.
            </EmptyState>
          )
        }
      >
        {(items) => (
          <KisiTable label="Access links" busy={busy} columns={[{ label: 'Name' }, { label: 'Group' }, { label: 'State' }, { label: 'Valid until' }, { label: 'Last used' }]} actions>
            {items.map((link) => (
              <tr key={link.id}>
                <td className="cell-main">
                  <span className="cell-title">{link.name}</span>
                  <span className="cell-sub">{link.email ?? 'No email'}</span>
                </td>
                <td data-label="Group">{link.group.name}</td>
                <td data-label="State">
                  <LinkStateBadge link={link} />
                </td>
                <td data-label="Valid until" className={link.valid_until ? undefined : 'cell-muted'}>
                  {link.valid_until ? formatWhen(link.valid_until) : 'No end date'}
                </td>
                <td data-label="Last used" className={link.last_used_at ? undefined : 'cell-muted'}>
                  {link.last_used_at ? formatWhen(link.last_used_at) : 'Never'}
                </td>
                <td className="actions">
                  <DeleteButton label={`Delete ${link.name}`} onClick={() => openDelete(link)} />
                </td>
              </tr>
            ))}
          </KisiTable>
        )}
      </KisiPages>
    </>
  );
}
