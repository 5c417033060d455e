import type { GymMember, Membership } from '@contracts/gym.contract';
import { useToast } from '@/components/toast-host';
import { errorMessage } from '@/lib/api-client';
import { useForm } from '@/lib/form-state';
import { formErrors } from '@/lib/problem-fields';
import { MEMBERSHIP_VALUES, OWNER_CHOICES_KEY, createMember, fetchOwnerPage, updateMember } from '@/features/gym/gym.api';
import { FormActions, ModalForm, SelectField, TextField } from '@/components/form-fields';
import { MEMBERSHIP_LABELS } from './membership-badge';
import { useQuery } from '@/lib/cache';

/** The owners to pick from (the API's largest page), shared by the forms and the list filter. */
export function useOwnerChoices() {
  const { data, error, isLoading } = useQuery(OWNER_CHOICES_KEY, fetchOwnerPage);
  return { owners: data?.items ?? [], total: data?.total ?? 0, error, isLoading };
}

function OwnerOptions({ placeholder, current }: { placeholder: string; current?: { id: number; name: string; gymName: string } }) {
  const { owners, isLoading, error } = useOwnerChoices();
  // The member's own owner is always a choice, even before (or beyond) the loaded list.
  const missing = current && !owners.some((o) => o.id === current.id) ? current : undefined;
  return (
    <>
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
    </>
  );
}

const CREATE_FIELDS = ['email', 'name', 'ownerId', 'membership'] as const;

/** "Add member" in a modal, with an owner picker; the server's field errors land on their fields. */
export function CreateMemberForm({ defaultOwnerId, onDone, onCancel }: { defaultOwnerId?: number; onDone: (member: GymMember) => void; onCancel: () => void }) {
  const toast = useToast();
  const form = useForm({
    initial: { email: '', name: '', ownerId: defaultOwnerId ? String(defaultOwnerId) : '', membership: 'active' as Membership },
    check: (values) => ({
      ...(values.name.trim() ? {} : { name: 'Enter the member’s name.' }),
      ...(values.email.trim() ? {} : { email: 'Enter an email address.' }),
      ...(values.ownerId ? {} : { ownerId: 'Choose the owner of their gym.' }),
    }),
    send: async (values) => {
      const member = await createMember({ email: values.email, name: values.name, ownerId: Number(values.ownerId), membership: values.membership });
      toast.show({ tone: 'success', message: `${member.name} was added to ${member.gymName}.` });
      onDone(member);
    },
    failed: (error) => formErrors(error, CREATE_FIELDS, { conflictField: 'email' }),
  });

  return (
    <ModalForm form={form}>
      <TextField label="Name" autoComplete="off" {...form.field('name')} data-autofocus />
      <TextField label="Email" type="email" autoComplete="off" {...form.field('email')} />
      <SelectField label="Owner" {...form.field('ownerId')}>
        <OwnerOptions placeholder="Choose an owner" />
      </SelectField>
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

const EDIT_FIELDS = ['name', 'ownerId'] as const;

/** Edit a member's name and owner (the membership has its own switch on the profile). */
export function EditMemberForm({ member, onDone, onCancel }: { member: GymMember; onDone: (member: GymMember) => void; onCancel: () => void }) {
  const toast = useToast();
  const form = useForm({
    initial: { name: member.name, ownerId: String(member.ownerId) },
    check: (values) => (values.name.trim() ? {} : { name: 'Enter the member’s name.' }),
    send: async (values) => {
      const patch = {
        ...(values.name.trim() !== member.name ? { name: values.name } : {}),
        ...(Number(values.ownerId) !== member.ownerId ? { ownerId: Number(values.ownerId) } : {}),
      };
      if (Object.keys(patch).length === 0) return onCancel();
      const updated = await updateMember(member.id, patch);
      toast.show({ tone: 'success', message: `Saved ${updated.name}.` });
      onDone(updated);
    },
    failed: (error) => formErrors(error, EDIT_FIELDS),
  });

  return (
    <ModalForm form={form}>
      <TextField label="Name" autoComplete="off" {...form.field('name')} data-autofocus />
      <TextField label="Email" value={member.email} readOnly disabled hint="The email links the member to their Kisi account and cannot change." />
      <SelectField label="Owner" {...form.field('ownerId')}>
        <OwnerOptions placeholder="Choose an owner" current={{ id: member.ownerId, name: member.ownerName, gymName: member.gymName }} />
      </SelectField>
      <FormActions pending={form.pending} submitLabel="Save" pendingLabel="Saving…" onCancel={onCancel} />
    </ModalForm>
  );
}
