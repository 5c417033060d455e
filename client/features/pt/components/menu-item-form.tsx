import { useId } from 'react';
import type { MenuItem } from '@contracts/pt.contract';
import { FormActions, ModalForm, TextAreaField, TextField } from '@/components/form-fields';
import { useToast } from '@/components/toast-host';
import { useForm } from '@/lib/form-state';
import { formErrors } from '@/lib/problem-fields';
import { createItem, updateItem } from '@/features/pt/pt.api';
import { centsToInput, currencySymbol, formatMoney, parseAllergens, parsePrice } from '@/features/pt/pt-format';

// The form's field names are the API's, so a problem's `body.priceCents` lands on the price field.
const FIELDS = ['name', 'priceCents', 'category', 'allergens', 'description'] as const;
type Values = Record<(typeof FIELDS)[number], string>;

function check(values: Values, { categoryRequired }: { categoryRequired: boolean }) {
  const missing: Partial<Values> = {};
  if (!values.name.trim()) missing.name = 'Enter the dish’s name.';
  if (!values.priceCents.trim()) missing.priceCents = 'Enter a price.';
  else if (parsePrice(values.priceCents) === undefined) missing.priceCents = 'Enter a price such as 7.50 (at most two decimals).';
  if (categoryRequired && !values.category.trim()) missing.category = 'Enter a category, such as Mains.';
  return missing;
}

/**
 * Adding an item to a stall's menu, or changing one (`item` given), in a modal. The price is typed
 * in the currency ("7.50") and sent in cents; allergens are a comma-separated list.
 */
export function MenuItemForm({
  stallId,
  item,
  currency,
  categories,
  onDone,
  onCancel,
}: {
  stallId: number;
  item?: MenuItem;
  currency: string;
  /** The stall's categories so far, offered as suggestions. */
  categories: string[];
  onDone: () => void;
  onCancel: () => void;
}) {
  const toast = useToast();
  const listId = useId();
  const form = useForm<Values>({
    initial: item
      ? { name: item.name, priceCents: centsToInput(item.priceCents), category: item.category, allergens: item.allergens.join(', '), description: item.description ?? '' }
      : { name: '', priceCents: '', category: '', allergens: '', description: '' },
    check: (values) => check(values, { categoryRequired: !!item }),
    send: async (values) => {
      const fields = {
        name: values.name.trim(),
        priceCents: parsePrice(values.priceCents) ?? 0,
        allergens: parseAllergens(values.allergens),
        description: values.description.trim() || null,
      };
      if (item) {
        const saved = await updateItem(item, { ...fields, category: values.category.trim() });
        toast.show({ tone: 'success', message: `${saved.name} was saved (${formatMoney(saved.priceCents, currency)}).` });
      } else {
        await createItem(stallId, { ...fields, category: values.category.trim() || undefined });
        toast.show({ tone: 'success', message: `${fields.name} was added to the menu.` });
      }
      onDone();
    },
    failed: (error) => formErrors(error, FIELDS),
  });

  return (
    <ModalForm form={form}>
      <TextField label="Name" name="name" autoComplete="off" maxLength={80} {...form.field('name')} data-autofocus />
      <TextField label={`Price (${currencySymbol(currency)})`} name="price" inputMode="decimal" autoComplete="off" placeholder="7.50" {...form.field('priceCents')} />
      <TextField
        label={item ? 'Category' : 'Category (optional)'}
        name="category"
        autoComplete="off"
        maxLength={40}
        list={categories.length ? listId : undefined}
        hint={item ? undefined : 'Left empty, the item goes under Mains.'}
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
      <TextAreaField label="Description (optional)" name="description" maxLength={300} {...form.field('description')} />
      <FormActions pending={form.pending} submitLabel={item ? 'Save item' : 'Add item'} pendingLabel={item ? 'Saving…' : 'Adding…'} onCancel={onCancel} />
    </ModalForm>
  );
}
