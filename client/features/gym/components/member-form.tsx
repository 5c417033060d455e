import type { ComponentProps } from 'react';
import type { GymMember, Membership } from '@contracts/gym.contract';
import { useToast } from '@/components/toast-host';
import { errorMessage } from '@/lib/api-client';
import { useForm } from '@/lib/form-state';
import { MEMBERSHIP_VALUES, ownerChoicesRead } from '@pages/gym.reads';
import { createMember, updateMember } from '@/features/gym/gym.api';
import { FormActions, ModalForm, SelectField, TextField } from '@/components/form-fields';
import { MEMBERSHIP_LABELS } from './membership-badge';
import { useRead } from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';

const ownerChoices = queryOf(ownerChoicesRead);

/** The owners to pick from (the API's largest page), shared by the forms and the list filter. */
export function useOwnerChoices() {
  const { data, error, isLoading } = useRead(ownerChoices);
  return { owners: data?.items ?? [], total: data?.total ?? 0, error, isLoading };
}

/**
 * The owner picker. Its choices come after the page has painted, and the select is drawn again with
 * them: options redrawn on their own would leave a chosen owner that moved in the list unchosen (the
 * browser picks the first option, and React sets a select's value only when it draws the select).
 */
function OwnerSelect({ placeholder, current, ...field }: ComponentProps<typeof SelectField> & { placeholder: string; current?: { id: number; name: string; gymName: string } }) {
  const { owners, isLoading, error } = useOwnerChoices();
  // The member's own owner is always a choice, even before (or beyond) the loaded list.
  const missing = current && !owners.some((o) => o.id === current.id) ? current : undefined;
  return (
    <SelectField {...field}>
      <option value="">{isLoading ? 'Loading owners…' : error ? `Could not load owners: ${errorMessage(error)}` : placeholder}</option>
      {missing ? (
        <option value={missing.id}>
          {missing.name} · {missing.gymName}
        </option>
      ) : null}
      {owners.map((owner) => (
        <option key={owner.id} value={owner.id}>
          {owner.name} · {owner.gymName}
        </option>
      ))}
    </SelectField>
  );
}

/** The owner picker's text as the body's id; none chosen is no id (the contract's message asks for one). */
const ownerIdOf = (text: string) => (text ? Number(text) : undefined);

/** "Add member" in a modal, with an owner picker; the contract's and the server's messages land on their fields. */
export function CreateMemberForm({ defaultOwnerId, onDone, onCancel }: { defaultOwnerId?: number; onDone: (member: GymMember) => void; onCancel: () => void }) {
  const toast = useToast();
  const form = useForm({
    schema: createMember.endpoint.body,
    initial: { email: '', name: '', ownerId: defaultOwnerId ? String(defaultOwnerId) : '', membership: 'active' as Membership },
    toInput: (values) => ({ ...values, ownerId: ownerIdOf(values.ownerId) }),
    send: async (body) => {
      const member = await createMember({ body });
      toast.show({ tone: 'success', message: `${member.name} was added to ${member.gymName}.` });
      onDone(member);
    },
    conflictField: 'email',
  });

  return (
    <ModalForm form={form}>
      <TextField label="Name" autoComplete="off" {...form.field('name')} data-autofocus />
      <TextField label="Email" type="email" autoComplete="off" {...form.field('email')} />
      <OwnerSelect label="Owner" placeholder="Choose an owner" {...form.field('ownerId')} />
      <SelectField label="Membership" {...form.field('membership')} hint="Only active members can open the doors.">
        {MEMBERSHIP_VALUES.map((m) => (
          <option key={m} value={m}>
            {MEMBERSHIP_LABELS[m]}
          </option>
        ))}
      </SelectField>
      <FormActions pending={form.pending} submitLabel="Add member" pendingLabel="Adding…" onCancel={onCancel} />
    </ModalForm>
  );
}

/** Edit a member's name and owner (the membership has its own switch on the profile). */
export function EditMemberForm({ member, onDone, onCancel }: { member: GymMember; onDone: (member: GymMember) => void; onCancel: () => void }) {
  const toast = useToast();
  const form = useForm({
    schema: updateMember.endpoint.body,
    initial: { name: member.name, ownerId: String(member.ownerId) },
    // Both fields are checked as the contract would; only what changed is sent.
    toInput: (values) => ({ name: values.name, ownerId: ownerIdOf(values.ownerId) }),
    send: async ({ name, ownerId }) => {
      const body = { ...(name !== member.name ? { name } : {}), ...(ownerId !== member.ownerId ? { ownerId } : {}) };
      if (Object.keys(body).length === 0) return onCancel();
      const updated = await updateMember({ params: { id: member.id }, body });
      toast.show({ tone: 'success', message: `Saved ${updated.name}.` });
      onDone(updated);
    },
  });

  return (
    <ModalForm form={form}>
      <TextField label="Name" autoComplete="off" {...form.field('name')} data-autofocus />
      <TextField label="Email" value={member.email} readOnly disabled hint="The email links the member to their Kisi account and cannot change." />
      <OwnerSelect label="Owner" placeholder="Choose an owner" current={{ id: member.ownerId, name: member.ownerName, gymName: member.gymName }} {...form.field('ownerId')} />
      <FormActions pending={form.pending} submitLabel="Save" pendingLabel="Saving…" onCancel={onCancel} />
    </ModalForm>
  );
}
