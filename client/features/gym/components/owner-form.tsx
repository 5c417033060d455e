import type { GymOwner } from '@contracts/gym.contract';
import { useToast } from '@/components/toast-host';
import { useForm } from '@/lib/form-state';
import { formErrors } from '@/lib/problem-fields';
import { createOwner } from '@/features/gym/gym.api';
import { FormActions, ModalForm, TextField } from '@/components/form-fields';

const FIELDS = ['name', 'email', 'phone', 'gymName'] as const;

/** "Add owner" in a modal: the server's field errors appear under their fields. */
export function CreateOwnerForm({ onDone, onCancel }: { onDone: (owner: GymOwner) => void; onCancel: () => void }) {
  const toast = useToast();
  const form = useForm({
    initial: { name: '', email: '', phone: '', gymName: '' },
    check: (values) => ({
      ...(values.name.trim() ? {} : { name: 'Enter the owner’s name.' }),
      ...(values.email.trim() ? {} : { email: 'Enter an email address.' }),
      ...(values.gymName.trim() ? {} : { gymName: 'Enter the gym’s name.' }),
    }),
    send: async (values) => {
      const owner = await createOwner({ name: values.name, email: values.email, phone: values.phone.trim() || null, gymName: values.gymName });
      toast.show({ tone: 'success', message: `${owner.name} (${owner.gymName}) was added.` });
      onDone(owner);
    },
    failed: (error) => formErrors(error, FIELDS, { conflictField: 'email' }),
  });

  return (
    <ModalForm form={form}>
      <TextField label="Name" name="name" autoComplete="name" {...form.field('name')} data-autofocus />
      <TextField label="Email" name="email" type="email" autoComplete="email" {...form.field('email')} />
      <TextField label="Phone (optional)" name="phone" type="tel" autoComplete="tel" {...form.field('phone')} />
      <TextField label="Gym name" name="gymName" {...form.field('gymName')} />
      <FormActions pending={form.pending} submitLabel="Add owner" pendingLabel="Adding…" onCancel={onCancel} />
    </ModalForm>
  );
}
