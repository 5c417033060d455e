import { CartLineSchema, MAX_QUANTITY, ptApi, type Menu, type MenuItem, type Stall } from '@contracts/pt.contract';
import { Field, FormActions, ModalForm, TextField } from '@/components/form-fields';
import { errorMessage } from '@/lib/api-client';
import { cachedData, invalidate } from '@/lib/reads';
import { useForm } from '@/lib/form-state';
import { addToCart, clampQuantity } from '@/features/pt/diner-store';
import { menuQuery } from '@/features/pt/pt.api';
import { QuantityStepper } from './quantity-stepper';

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
      // The menu on screen may be older than a sold-out dish or a paused stall: it is read again (the
      // page shows the answer), and the dish added only if it is still there. Offline, it is added as
      // shown, and the cart says what it cannot order.
      const now = await invalidate(ptApi.menu).then(
        () => cachedData(menuQuery.key) as Menu | undefined,
        () => undefined,
      );
      const stallNow = now?.stalls.find((s) => s.id === stall.id);
      if (now && (!stallNow || stallNow.availability.state !== 'open')) throw new Error(`${stall.name} has just stopped taking orders, so ${item.name} cannot be added.`);
      if (stallNow && !stallNow.items.some((i) => i.id === item.id && !i.soldOut)) throw new Error(`${item.name} has just sold out.`);
      const added = addToCart(stall, item, line.quantity, line.note ?? null);
      onDone(`Added ${line.quantity} × ${item.name} to your cart${added.quantity > line.quantity ? ` (${added.quantity} in all)` : ''}.`);
    },
    failed: (error) => ({ fields: {}, form: errorMessage(error) }),
  });
  const quantity = form.field('quantity');
  // What the buttons step from: the typed count within a line's limits (a typed 25 steps down to 19), or 1 while it is no number.
  const typed = clampQuantity(Number(quantity.value) || 1);
  return (
    <ModalForm form={form}>
      <Field
        label="Quantity"
        error={quantity.error}
        control={(props) => (
          <QuantityStepper dish={item.name} quantity={typed} onChange={(next) => quantity.onChange({ target: { value: String(next) } })} focusMore>
            <input {...props} className="stepper-input tabular" name="quantity" type="number" inputMode="numeric" min={1} max={MAX_QUANTITY} step={1} value={quantity.value} onChange={quantity.onChange} />
          </QuantityStepper>
        )}
      />
      <TextField label="Note for the stall (optional)" name="note" autoComplete="off" placeholder="No chilli, please" {...form.field('note')} />
      <FormActions pending={form.pending} submitLabel="Add to cart" pendingLabel="Adding…" onCancel={onCancel} />
    </ModalForm>
  );
}
