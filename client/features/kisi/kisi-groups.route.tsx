import { useNavigation } from 'react-router';
import type { KisiGroup } from '@contracts/kisi.contract';
import { kisiGroupsReads, parsePage } from '@pages/kisi.reads';
import { DeleteButton, useConfirmDelete } from '@/components/confirm-delete';
import { EmptyState } from '@/components/empty-state';
import { FormActions, ModalForm, TextField } from '@/components/form-fields';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { useModal } from '@/components/modal-host';
import { useToast } from '@/components/toast-host';
import { paths } from '@/lib/paths';
import { useForm } from '@/lib/form-state';
import { useSearch } from '@/lib/search-params';
import { createGroup, deleteGroup, kisiErrorMessage, kisiFieldOf, kisiFormErrors } from '@/lib/kisi';
import { KisiPages } from './components/kisi-load-error';
import { KisiTable } from './components/kisi-table';
import { kisiRouteReads } from './kisi.api';

/** `/kisi/groups?page`: Kisi's groups (who may open which doors), created and deleted here. */
const reads = kisiRouteReads(kisiGroupsReads);
export const { loader } = reads;
export const handle = { title: 'Kisi groups', ...reads.handle };

/** Kisi's names of the group's fields, and the form's. */
const GROUP_FIELDS = { name: 'name', description: 'description' } as const;

/** Kisi checks the name (blank, too long) and answers 422 per field: the form shows those messages, not its own. */
function CreateGroupForm({ onDone, onCancel }: { onDone: (group: KisiGroup) => void; onCancel: () => void }) {
  const form = useForm({
    schema: createGroup.endpoint.body,
    initial: { name: '', description: '' },
    toInput: (values) => ({ group: { name: values.name.trim(), description: values.description.trim() || null } }),
    fieldOf: kisiFieldOf(GROUP_FIELDS),
    send: async (body) => onDone(await createGroup({ body })),
    failed: (error) => kisiFormErrors(error, GROUP_FIELDS),
  });

  return (
    <ModalForm form={form}>
      <TextField label="Name" {...form.field('name')} maxLength={255} data-autofocus />
      <TextField label="Description (optional)" {...form.field('description')} hint="Who the group is for, say “Weekend staff”." />
      <FormActions pending={form.pending} submitLabel="Create group" pendingLabel="Creating…" onCancel={onCancel} />
    </ModalForm>
  );
}

export function Component() {
  const { groups } = reads.useReads();
  const search = useSearch(parsePage);
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.kisiGroups;
  const modal = useModal();
  const toast = useToast();
  const confirmDelete = useConfirmDelete();

  const openCreate = () =>
    modal.open({
      title: 'New group',
      description: 'A group gives its people access to its doors. Add doors and people in Kisi.',
      content: (close) => (
        <CreateGroupForm
          onCancel={close}
          onDone={(group) => {
            close();
            toast.show({ tone: 'success', message: `Group “${group.name}” created.` });
          }}
        />
      ),
    });

  const openDelete = (group: KisiGroup) =>
    confirmDelete({
      title: `Delete “${group.name}”?`,
      confirmLabel: 'Delete group',
      body: (
        <p>
          Its {group.users_count} {group.users_count === 1 ? 'person loses' : 'people lose'} the access it gave to {group.locks_count} {group.locks_count === 1 ? 'door' : 'doors'}, and its access links stop working. This cannot be undone.
        </p>
      ),
      remove: () => deleteGroup({ params: { id: group.id } }),
      refusal: kisiErrorMessage,
      deleted: `Group “${group.name}” deleted.`,
    });

  return (
    <>
      <PageHeader
        eyebrow="Access control"
        title="Groups"
        actions={
          <button type="button" className="btn btn-primary" onClick={openCreate}>
            <Icon name="plus" size={18} /> New group
          </button>
        }
      >
        <p>Groups bundle doors with the people allowed through them.</p>
      </PageHeader>
      <KisiPages
        what="the groups"
        read={groups}
        search={search}
        path={paths.kisiGroups}
        label="Group pages"
        noun="groups"
        empty={
          <EmptyState
            icon="users"
            title="No groups yet"
            action={
              <button type="button" className="btn btn-primary" onClick={openCreate}>
                Create the first group
              </button>
            }
          >
            Without a group, nobody can open a door.
          </EmptyState>
        }
      >
        {(items) => (
          <KisiTable label="Kisi groups" busy={busy} columns={[{ label: 'Name' }, { label: 'Users', className: 'num' }, { label: 'Locks', className: 'num' }, { label: 'Place' }]} actions>
            {items.map((group) => (
              <tr key={group.id}>
                <td className="cell-main">
                  <span className="cell-title">{group.name}</span>
                  {group.description ? <span className="cell-sub">{group.description}</span> : null}
                </td>
                <td data-label="Users" className="num">
                  {group.users_count}
                </td>
                <td data-label="Locks" className="num">
                  {group.locks_count}
                </td>
                <td data-label="Place" className={group.place ? undefined : 'cell-muted'}>
                  {group.place?.name ?? 'Any place'}
                </td>
                <td className="actions">
                  <DeleteButton label={`Delete ${group.name}`} onClick={() => openDelete(group)} />
                </td>
              </tr>
            ))}
          </KisiTable>
        )}
      </KisiPages>
    </>
  );
}
