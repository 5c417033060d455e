import type { Page, PageQuery } from '../contracts/common.contract';

/** The one pagination helper: runs the count and the page query together; a page past the end is empty. */
export async function paginate<T>(
  { page, pageSize }: PageQuery,
  count: () => Promise<number>,
  fetchPage: (limit: number, offset: number) => Promise<T[]>,
): Promise<Page<T>> {
  const [total, items] = await Promise.all([count(), fetchPage(pageSize, page * pageSize)]);
  return { items, page, pageSize, total };
}

