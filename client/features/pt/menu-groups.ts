import type { MenuItem } from '@contracts/pt.contract';

/** Items grouped by category, categories and items in the order the API gives them. */
export function byCategory<T extends Pick<MenuItem, 'category'>>(items: T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(item.category);
    if (list) list.push(item);
    else groups.set(item.category, [item]);
  }
  return [...groups];
}
