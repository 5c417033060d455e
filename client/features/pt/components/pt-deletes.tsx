import type { MenuItem, Stall } from '@contracts/pt.contract';
import type { DeleteOptions } from '@/components/confirm-delete';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { deleteItem, deleteStall } from '@/features/pt/pt.api';

/** Deleting a stall, from the list or its own page; the server refuses (409) while it has orders not yet served. */
export const stallDelete = (stall: Pick<Stall, 'id' | 'name' | 'itemCount'>): DeleteOptions => ({
  title: `Delete ${stall.name}?`,
  confirmLabel: 'Delete stall',
  body: (
    <p>
      <strong>{stall.name}</strong> and its menu of {stall.itemCount} {stall.itemCount === 1 ? 'item' : 'items'} will be removed. Orders already served keep what was ordered.
    </p>
  ),
  remove: () => deleteStall({ params: { id: stall.id } }),
  deleted: `${stall.name} was deleted.`,
  // The 409's own words ("still has orders that are not served yet…") show in the dialog, with the way to serve them.
  refusedExtra: (
    <AppLink to={paths.ptRunner} className="btn btn-small">
      Open the runner board
    </AppLink>
  ),
});

export const itemDelete = (item: MenuItem): DeleteOptions => ({
  title: `Delete ${item.name}?`,
  confirmLabel: 'Delete item',
  body: <p>{item.name} leaves the menu. Orders that have it keep its name and price.</p>,
  remove: () => deleteItem({ params: { id: item.id } }),
  deleted: `${item.name} was deleted from the menu.`,
});
