import type { GymOwner } from '@contracts/gym.contract';
import { useToast } from '@/components/toast-host';
import { useForm } from '@/lib/form-state';
import { createOwner } from '@/features/gym/gym.api';
import { FormActions, ModalForm, TextField } from '@/components/form-fields';

/** "Add owner" in a modal: the contract's checks, then the server's (a taken email), under their fields. */
export function CreateOwnerForm({ onDone, onCancel }: { onDone: (owner: GymOwner) => void; onCancel: () => void }) {
  const toast = useToast();
  const form = useForm({
    schema: createOwner.endpoint.body,
    initial: { name: '', email: '', phone: '', gymName: '' },
    toInput: (values) => values,
    send: async (body) => {
      const owner = await createOwner({ body });
      toast.show({ tone: 'success', message: `${owner.name} (${owner.gymName}) was added.` });
      onDone(owner);
    },
    conflictField: 'email',
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
