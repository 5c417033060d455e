import { MAX_QUANTITY, type MenuItem, type Stall } from '@contracts/pt.contract';
import { FormActions, ModalForm, TextField } from '@/components/form-fields';
import { errorMessage } from '@/lib/api-client';
import { useForm } from '@/lib/form-state';
import { addToCart } from '@/features/pt/diner-store';

/**
 * "Add to cart" for one dish: how many (1–20) and a note for the stall. Nothing is sent until the
 * order is placed. `onDone` gets the sentence to confirm it with (the menu's cart bar says it: a
 * toast would sit on top of that bar's button).
 */
export function AddToCartForm({ stall, item, onDone, onCancel }: { stall: Pick<Stall, 'id' | 'name'>; item: MenuItem; onDone: (added: string) => void; onCancel: () => void }) {
  const form = useForm({
    initial: { quantity: '1', note: '' },
    check: (values) => {
      const n = Number(values.quantity);
      const errors: { quantity?: string; note?: string } = {};
      if (!/^\d+$/.test(values.quantity.trim()) || n < 1 || n > MAX_QUANTITY) errors.quantity = `Choose a quantity from 1 to ${MAX_QUANTITY}.`;
      if (values.note.trim().length > 140) errors.note = 'Keep the note under 140 characters.';
      return errors;
    },
    send: async (values) => {
      const quantity = Number(values.quantity);
      const line = addToCart(stall, item, quantity, values.note);
      onDone(`Added ${quantity} × ${item.name} to your cart${line.quantity > quantity ? ` (${line.quantity} in all)` : ''}.`);
    },
    failed: (error) => ({ fields: {}, form: errorMessage(error) }),
  });
  return (
    <ModalForm form={form}>
      <TextField label="Quantity" name="quantity" type="number" inputMode="numeric" min={1} max={MAX_QUANTITY} step={1} {...form.field('quantity')} data-autofocus />
      <TextField label="Note for the stall (optional)" name="note" autoComplete="off" maxLength={140} placeholder="No chilli, please" {...form.field('note')} />
      <FormActions pending={form.pending} submitLabel="Add to cart" pendingLabel="Adding…" onCancel={onCancel} />
    </ModalForm>
  );
}
