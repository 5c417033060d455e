import { useId } from 'react';
import type { MenuItem } from '@contracts/pt.contract';
import { FormActions, ModalForm, TextAreaField, TextField } from '@/components/form-fields';
import { useToast } from '@/components/toast-host';
import { useForm } from '@/lib/form-state';
import { createItem, updateItem } from '@/features/pt/pt.api';
import { centsToInput, currencySymbol, formatMoney, parseAllergens, parsePrice } from '@/features/pt/pt-format';

// The form's field names are the API's, so a message about `priceCents` (the contract's or the server's) lands on the price field.
type Values = { name: string; priceCents: string; category: string; allergens: string; description: string };

/**
 * A typed price in cents for the contract to judge: "7.50" is 750; "7.505" stays fractional cents,
 * which the contract refuses as more than two decimals; "99999999" is a number too, which it refuses
 * as over the highest price; anything else is none, and it asks for a price.
 */
const centsOf = (text: string) => parsePrice(text) ?? (/^\d+([.,]\d+)?$/.test(text.trim()) ? Number(text.trim().replace(',', '.')) * 100 : undefined);

/** The typed text as the body's parts: the price in cents, allergens as a list. */
const toParts = (values: Values) => ({
  name: values.name,
  priceCents: centsOf(values.priceCents),
  description: values.description,
  allergens: parseAllergens(values.allergens),
});

type Props = {
  stallId: number;
  /** The item to change; without one, a new item is added. */
  item?: MenuItem;
  currency: string;
  /** The stall's categories so far, offered as suggestions. */
  categories: string[];
  onDone: () => void;
  onCancel: () => void;
};

/**
 * Adding an item to a stall's menu, or changing one (`item` given), in a modal. The price is typed
 * in the currency ("7.50") and sent in cents; allergens are a comma-separated list. Each is checked
 * with its endpoint's body schema: a new item may leave the category out (the server files it under
 * Mains), an item's category may not be emptied.
 */
export function MenuItemForm({ item, ...props }: Props) {
  return item ? <EditItemForm item={item} {...props} /> : <AddItemForm {...props} />;
}

function AddItemForm({ stallId, currency, categories, onDone, onCancel }: Omit<Props, 'item'>) {
  const toast = useToast();
  const form = useForm({
    schema: createItem.endpoint.body,
    initial: { name: '', priceCents: '', category: '', allergens: '', description: '' },
    toInput: (values) => ({ ...toParts(values), category: values.category.trim() || undefined }),
    send: async (body) => {
      await createItem({ params: { id: stallId }, body });
      toast.show({ tone: 'success', message: `${body.name} was added to the menu.` });
      onDone();
    },
  });
  return <MenuItemFields form={form} isNew currency={currency} categories={categories} onCancel={onCancel} />;
}

function EditItemForm({ item, currency, categories, onDone, onCancel }: Omit<Props, 'item' | 'stallId'> & { item: MenuItem }) {
  const toast = useToast();
  const form = useForm({
    schema: updateItem.endpoint.body,
    initial: { name: item.name, priceCents: centsToInput(item.priceCents), category: item.category, allergens: item.allergens.join(', '), description: item.description ?? '' },
    toInput: (values) => ({ ...toParts(values), category: values.category }),
    send: async (body) => {
      const saved = await updateItem({ params: { id: item.id }, body });
      toast.show({ tone: 'success', message: `${saved.name} was saved (${formatMoney(saved.priceCents, currency)}).` });
      onDone();
    },
  });
  return <MenuItemFields form={form} isNew={false} currency={currency} categories={categories} onCancel={onCancel} />;
}

type ItemForm = ReturnType<typeof useForm<Values, typeof createItem.endpoint.body>> | ReturnType<typeof useForm<Values, typeof updateItem.endpoint.body>>;

function MenuItemFields({ form, isNew, currency, categories, onCancel }: { form: ItemForm; isNew: boolean; currency: string; categories: string[]; onCancel: () => void }) {
  const listId = useId();
  return (
    <ModalForm form={form}>
      <TextField label="Name" name="name" autoComplete="off" {...form.field('name')} data-autofocus />
      <TextField label={`Price (${currencySymbol(currency)})`} name="price" inputMode="decimal" autoComplete="off" placeholder="7.50" {...form.field('priceCents')} />
      <TextField
        label={isNew ? 'Category (optional)' : 'Category'}
        name="category"
        autoComplete="off"
        list={categories.length ? listId : undefined}
        hint={isNew ? 'Left empty, the item goes under Mains.' : undefined}
        {...form.field('category')}
      />
      {categories.length ? (
        <datalist id={listId}>
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      ) : null}
      <TextField label="Allergens (optional)" name="allergens" autoComplete="off" hint="Separate them with commas: gluten, peanuts, shellfish." {...form.field('allergens')} />
      <TextAreaField label="Description (optional)" name="description" {...form.field('description')} />
      <FormActions pending={form.pending} submitLabel={isNew ? 'Add item' : 'Save item'} pendingLabel={isNew ? 'Adding…' : 'Saving…'} onCancel={onCancel} />
    </ModalForm>
  );
}
