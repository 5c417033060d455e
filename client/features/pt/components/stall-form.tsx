import { FormActions, ModalForm, TextAreaField, TextField } from '@/components/form-fields';
import { useToast } from '@/components/toast-host';
import { useForm } from '@/lib/form-state';
import { createStall } from '@/features/pt/pt.api';

/** "Add stall" in a modal: a new stall opens with an empty menu; the contract's and the server's messages appear under their fields. */
export function CreateStallForm({ onDone, onCancel }: { onDone: (id: number) => void; onCancel: () => void }) {
  const toast = useToast();
  const form = useForm({
    schema: createStall.endpoint.body,
    initial: { name: '', cuisine: '', description: '' },
    toInput: (values) => values,
    send: async (body) => {
      const { id } = await createStall({ body });
      toast.show({ tone: 'success', message: `${body.name} was added. Add its menu next.` });
      onDone(id);
    },
    conflictField: 'name',
  });

  return (
    <ModalForm form={form}>
      <TextField label="Name" name="name" autoComplete="off" {...form.field('name')} data-autofocus />
      <TextField label="Cuisine (optional)" name="cuisine" autoComplete="off" hint="Shown under the name, e.g. Malaysian or Pizza." {...form.field('cuisine')} />
      <TextAreaField label="Description (optional)" name="description" {...form.field('description')} />
      <FormActions pending={form.pending} submitLabel="Add stall" pendingLabel="Adding…" onCancel={onCancel} />
    </ModalForm>
  );
}
