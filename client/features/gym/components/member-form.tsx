import { useState } from 'react';
import type { FormEvent } from 'react';
import useSWR from 'swr';
import type { GymMember, Membership } from '../../../../bff/contracts/gym.contract';
import { useToast } from '../../../app/toast-host';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { formErrors } from '../../../lib/problem-fields';
import type { FormErrors } from '../../../lib/problem-fields';
import { MEMBERSHIP_VALUES, OWNER_CHOICES_KEY, createMember, fetchOwnerPage, updateMember } from '../gym.api';
import { FormActions } from '../../../components/form-actions';
import { SelectField, TextField, useFocusFirstInvalid } from './form-fields';
import { MEMBERSHIP_LABELS } from './membership-badge';

/**
 * The owners to pick from (the API's largest page), shared by the forms and the list filter. No
 * dedupe window: after a write drops this key from the cache, a remount inside SWR's 2 s window was
 * seen to wait forever on the old request ("Loading owners…"); a fresh request is cheap here.
 */
export function useOwnerChoices() {
  const { data, error, isLoading } = useSWR(OWNER_CHOICES_KEY, fetchOwnerPage, { dedupingInterval: 0 });
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
type CreateField = (typeof CREATE_FIELDS)[number];

/** "Add member" in a modal, with an owner picker; the server's field errors land on their fields. */
export function CreateMemberForm({ defaultOwnerId, onDone, onCancel }: { defaultOwnerId?: number; onDone: (member: GymMember) => void; onCancel: () => void }) {
  const toast = useToast();
  const [values, setValues] = useState({ email: '', name: '', ownerId: defaultOwnerId ? String(defaultOwnerId) : '', membership: 'active' as Membership });
  const [errors, setErrors] = useState<FormErrors<CreateField>>({ fields: {} });
  const [pending, setPending] = useState(false);
  const formRef = useFocusFirstInvalid(errors);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: FormErrors<CreateField> = { fields: {} };
    if (!values.name.trim()) missing.fields.name = 'Enter the member’s name.';
    if (!values.email.trim()) missing.fields.email = 'Enter an email address.';
    if (!values.ownerId) missing.fields.ownerId = 'Choose the owner of their gym.';
    if (Object.keys(missing.fields).length) return setErrors(missing);
    setPending(true);
    setErrors({ fields: {} });
    try {
      const member = await createMember({ email: values.email, name: values.name, ownerId: Number(values.ownerId), membership: values.membership });
      toast.show({ tone: 'success', message: `${member.name} was added to ${member.gymName}.` });
      onDone(member);
    } catch (error) {
      const found = formErrors(error, CREATE_FIELDS);
      if (isApiError(error, 409) && !found.fields.email) setErrors({ fields: { email: found.form } });
      else setErrors(found);
      setPending(false);
    }
  };

  return (
    <form ref={formRef} className="form form-modal" noValidate onSubmit={(e) => void onSubmit(e)}>
      {errors.form ? (
        <div className="banner banner-danger" role="alert" tabIndex={-1}>
          {errors.form}
        </div>
      ) : null}
      <TextField label="Name" autoComplete="off" value={values.name} onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))} error={errors.fields.name} data-autofocus />
      <TextField label="Email" type="email" autoComplete="off" value={values.email} onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))} error={errors.fields.email} />
      <SelectField label="Owner" value={values.ownerId} onChange={(e) => setValues((v) => ({ ...v, ownerId: e.target.value }))} error={errors.fields.ownerId}>
        <OwnerOptions placeholder="Choose an owner" />
      </SelectField>
      <SelectField
        label="Membership"
        value={values.membership}
        onChange={(e) => setValues((v) => ({ ...v, membership: e.target.value as Membership }))}
        error={errors.fields.membership}
        hint="Only active members can open the doors."
      >
        {MEMBERSHIP_VALUES.map((m) => (
          <option key={m} value={m}>
            {MEMBERSHIP_LABELS[m]}
          </option>
        ))}
      </SelectField>
      <FormActions pending={pending} submitLabel="Add member" pendingLabel="Adding…" onCancel={onCancel} />
    </form>
  );
}

const EDIT_FIELDS = ['name', 'ownerId'] as const;
type EditField = (typeof EDIT_FIELDS)[number];

/** Edit a member's name and owner (the membership has its own switch on the profile). */
export function EditMemberForm({ member, onDone, onCancel }: { member: GymMember; onDone: (member: GymMember) => void; onCancel: () => void }) {
  const toast = useToast();
  const [values, setValues] = useState({ name: member.name, ownerId: String(member.ownerId) });
  const [errors, setErrors] = useState<FormErrors<EditField>>({ fields: {} });
  const [pending, setPending] = useState(false);
  const formRef = useFocusFirstInvalid(errors);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!values.name.trim()) return setErrors({ fields: { name: 'Enter the member’s name.' } });
    const patch = {
      ...(values.name.trim() !== member.name ? { name: values.name } : {}),
      ...(Number(values.ownerId) !== member.ownerId ? { ownerId: Number(values.ownerId) } : {}),
    };
    if (Object.keys(patch).length === 0) return onCancel();
    setPending(true);
    setErrors({ fields: {} });
    try {
      const updated = await updateMember(member.id, patch);
      toast.show({ tone: 'success', message: `Saved ${updated.name}.` });
      onDone(updated);
    } catch (error) {
      setErrors(formErrors(error, EDIT_FIELDS));
      setPending(false);
    }
  };

  return (
    <form ref={formRef} className="form form-modal" noValidate onSubmit={(e) => void onSubmit(e)}>
      {errors.form ? (
        <div className="banner banner-danger" role="alert" tabIndex={-1}>
          {errors.form}
        </div>
      ) : null}
      <TextField label="Name" autoComplete="off" value={values.name} onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))} error={errors.fields.name} data-autofocus />
      <TextField label="Email" value={member.email} readOnly disabled hint="The email links the member to their Kisi account and cannot change." />
      <SelectField label="Owner" value={values.ownerId} onChange={(e) => setValues((v) => ({ ...v, ownerId: e.target.value }))} error={errors.fields.ownerId}>
        <OwnerOptions placeholder="Choose an owner" current={{ id: member.ownerId, name: member.ownerName, gymName: member.gymName }} />
      </SelectField>
      <FormActions pending={pending} submitLabel="Save" pendingLabel="Saving…" onCancel={onCancel} />
    </form>
  );
}
