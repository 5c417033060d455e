import { FormActions, ModalForm, TextAreaField, TextField } from '@/components/form-fields';
import { useToast } from '@/components/toast-host';
import { useForm } from '@/lib/form-state';
import { formErrors } from '@/lib/problem-fields';
import { createStall } from '@/features/pt/pt.api';

const FIELDS = ['name', 'cuisine', 'description'] as const;

/** "Add stall" in a modal: a new stall opens with an empty menu; the server's field errors appear under their fields. */
export function CreateStallForm({ onDone, onCancel }: { onDone: (id: number) => void; onCancel: () => void }) {
  const toast = useToast();
  const form = useForm({
    initial: { name: '', cuisine: '', description: '' },
    check: (values) => (values.name.trim() ? {} : { name: 'Enter the stall’s name.' }),
    send: async (values) => {
      const id = await createStall({ name: values.name, cuisine: values.cuisine.trim() || null, description: values.description.trim() || null });
      toast.show({ tone: 'success', message: `${values.name.trim()} was added. Add its menu next.` });
      onDone(id);
    },
    failed: (error) => formErrors(error, FIELDS, { conflictField: 'name' }),
  });

  return (
    <ModalForm form={form}>
      <TextField label="Name" name="name" autoComplete="off" maxLength={80} {...form.field('name')} data-autofocus />
      <TextField label="Cuisine (optional)" name="cuisine" autoComplete="off" maxLength={40} hint="Shown under the name, e.g. Malaysian or Pizza." {...form.field('cuisine')} />
      <TextAreaField label="Description (optional)" name="description" maxLength={500} {...form.field('description')} />
      <FormActions pending={form.pending} submitLabel="Add stall" pendingLabel="Adding…" onCancel={onCancel} />
    </ModalForm>
  );
}
