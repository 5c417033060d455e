import { useState } from 'react';
import type { FormEvent } from 'react';
import type { GymOwner } from '../../../../bff/contracts/gym.contract';
import { useToast } from '../../../app/toast-host';
import { isApiError } from '../../../lib/api-client';
import { formErrors } from '../../../lib/problem-fields';
import type { FormErrors } from '../../../lib/problem-fields';
import { createOwner } from '../gym.api';
import { FormActions } from '../../../components/form-actions';
import { TextField, useFocusFirstInvalid } from './form-fields';

const FIELDS = ['name', 'email', 'phone', 'gymName'] as const;
type Field = (typeof FIELDS)[number];

/** "Add owner" in a modal: the server's field errors appear under their fields. */
export function CreateOwnerForm({ onDone, onCancel }: { onDone: (owner: GymOwner) => void; onCancel: () => void }) {
  const toast = useToast();
  const [values, setValues] = useState<Record<Field, string>>({ name: '', email: '', phone: '', gymName: '' });
  const [errors, setErrors] = useState<FormErrors<Field>>({ fields: {} });
  const [pending, setPending] = useState(false);
  const formRef = useFocusFirstInvalid(errors);
  const set = (field: Field) => (event: { target: { value: string } }) => setValues((old) => ({ ...old, [field]: event.target.value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: FormErrors<Field> = { fields: {} };
    if (!values.name.trim()) missing.fields.name = 'Enter the owner’s name.';
    if (!values.email.trim()) missing.fields.email = 'Enter an email address.';
    if (!values.gymName.trim()) missing.fields.gymName = 'Enter the gym’s name.';
    if (Object.keys(missing.fields).length) return setErrors(missing);
    setPending(true);
    setErrors({ fields: {} });
    try {
      const owner = await createOwner({ name: values.name, email: values.email, phone: values.phone.trim() || null, gymName: values.gymName });
      toast.show({ tone: 'success', message: `${owner.name} (${owner.gymName}) was added.` });
      onDone(owner);
    } catch (error) {
      const found = formErrors(error, FIELDS);
      // A duplicate email is the email field's problem.
      if (isApiError(error, 409) && !found.fields.email) setErrors({ fields: { email: found.form }, form: undefined });
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
      <TextField label="Name" name="name" autoComplete="name" value={values.name} onChange={set('name')} error={errors.fields.name} data-autofocus />
      <TextField label="Email" name="email" type="email" autoComplete="email" value={values.email} onChange={set('email')} error={errors.fields.email} />
      <TextField label="Phone (optional)" name="phone" type="tel" autoComplete="tel" value={values.phone} onChange={set('phone')} error={errors.fields.phone} />
      <TextField label="Gym name" name="gymName" value={values.gymName} onChange={set('gymName')} error={errors.fields.gymName} />
      <FormActions pending={pending} submitLabel="Add owner" pendingLabel="Adding…" onCancel={onCancel} />
    </form>
  );
}
