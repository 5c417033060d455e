import { CartLineSchema, MAX_QUANTITY, type MenuItem, type Stall } from '@contracts/pt.contract';
import { FormActions, ModalForm, TextField } from '@/components/form-fields';
import { errorMessage } from '@/lib/api-client';
import { useForm } from '@/lib/form-state';
import { addToCart } from '@/features/pt/diner-store';

/**
 * "Add to cart" for one dish: how many and a note for the stall. Nothing is sent until the order is
 * placed, but the line is checked now with the order's own cart-line schema, so what the cart holds
 * is what the server takes. `onDone` gets the sentence to confirm it with (the menu's cart bar says
 * it: a toast would sit on top of that bar's button).
 */
export function AddToCartForm({ stall, item, onDone, onCancel }: { stall: Pick<Stall, 'id' | 'name'>; item: MenuItem; onDone: (added: string) => void; onCancel: () => void }) {
  const form = useForm({
    schema: CartLineSchema,
    initial: { quantity: '1', note: '' },
    // Text that is no number becomes NaN, which the contract refuses with its own words.
    toInput: (values) => ({ itemId: item.id, quantity: Number(values.quantity), note: values.note }),
    send: async (line) => {
      const added = addToCart(stall, item, line.quantity, line.note ?? null);
      onDone(`Added ${line.quantity} × ${item.name} to your cart${added.quantity > line.quantity ? ` (${added.quantity} in all)` : ''}.`);
    },
    failed: (error) => ({ fields: {}, form: errorMessage(error) }),
  });
  return (
    <ModalForm form={form}>
      <TextField label="Quantity" name="quantity" type="number" inputMode="numeric" min={1} max={MAX_QUANTITY} step={1} {...form.field('quantity')} data-autofocus />
      <TextField label="Note for the stall (optional)" name="note" autoComplete="off" placeholder="No chilli, please" {...form.field('note')} />
      <FormActions pending={form.pending} submitLabel="Add to cart" pendingLabel="Adding…" onCancel={onCancel} />
    </ModalForm>
  );
}
