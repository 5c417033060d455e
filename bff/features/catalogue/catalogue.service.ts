import type { Category, PartDetail, PieceDetail, PieceListQuery, PieceSummary } from '../../contracts/catalogue.contract';
import type { Page, PageQuery } from '../../contracts/common.contract';
import type { Database } from '../../db/database';
import { badRequest, notFound } from '../../lib/http-error';
import { searchWords } from './catalogue.importer';
import type { CatalogueRepository } from './catalogue.repository';

export interface CatalogueServiceDeps {
  catalogue: CatalogueRepository;
  matchesText: Database['matchesText'];
  /** How long the category tree is kept before it is read again (it changes only with an import). */
  categoriesTtlMs?: number;
  now?: () => number;
}

/** A search uses at most this many words (the rest would only narrow an already narrow answer). */
const MAX_WORDS = 8;

export function catalogueService({ catalogue, matchesText, categoriesTtlMs = 60_000, now = Date.now }: CatalogueServiceDeps) {
  let categories: { items: Category[]; readAt: number } | undefined;
  const categoryList = async (): Promise<Category[]> => {
    if (!categories || now() - categories.readAt > categoriesTtlMs) categories = { items: await catalogue.themes(), readAt: now() };
    return categories.items;
  };

  /** A category and every category below it. */
  async function categoryAndBelow(id: number): Promise<number[]> {
    const all = await categoryList();
    if (!all.some((c) => c.id === id)) {
      throw badRequest(`There is no category ${id}.`, [{ path: 'query.category', message: `No category with id ${id}; GET /api/rest/categories lists them` }]);
    }
    const ids = [id];
    for (let i = 0; i < ids.length; i++) for (const child of all) if (child.parentId === ids[i] && !ids.includes(child.id)) ids.push(child.id);
    return ids;
  }

  return {
    async listPieces(query: PieceListQuery): Promise<Page<PieceSummary>> {
      const words = searchWords(query.query ?? '').slice(0, MAX_WORDS);
      const { items, total } = await catalogue.searchPieces({
        textMatch: words.length > 0 ? matchesText('pieces', 'search_text', words) : undefined,
        exactNumber: words.length > 0 ? query.query!.trim().toLowerCase() : undefined,
        themeIds: query.category !== undefined ? await categoryAndBelow(query.category) : undefined,
        // Without words there is nothing to rank by: the newest first.
        order: query.sort === 'relevance' && words.length === 0 ? 'year-desc' : query.sort,
        limit: query.pageSize,
        offset: query.page * query.pageSize,
      });
      return { items, page: query.page, pageSize: query.pageSize, total };
    },

    async piece(ref: number | string): Promise<PieceDetail> {
      const piece = await catalogue.findPiece(ref);
      if (!piece) throw notFound(`There is no piece ${ref}.`);
      const lines = await catalogue.pieceLines(piece.id);
      // Grouped by part category, the categories by name (parts without one last).
      const groups = new Map<string, PieceDetail['groups'][number]>();
      for (const line of lines) {
        const key = line.part.category ? String(line.part.category.id) : 'none';
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { category: line.part.category, lines: [], quantity: 0 }));
        group.lines.push(line);
        group.quantity += line.quantity;
      }
      const sorted = [...groups.values()].sort((a, b) => (a.category?.name ?? '\uffff').localeCompare(b.category?.name ?? '\uffff'));
      const regular = lines.filter((line) => !line.spare);
      return {
        ...piece,
        groups: sorted,
        totals: {
          lines: lines.length,
          distinctParts: new Set(lines.map((line) => line.part.id)).size,
          quantity: regular.reduce((sum, line) => sum + line.quantity, 0),
          spares: lines.reduce((sum, line) => sum + (line.spare ? line.quantity : 0), 0),
        },
      };
    },

    async part(ref: number | string, page: PageQuery): Promise<PartDetail> {
      const part = await catalogue.findPart(ref);
      if (!part) throw notFound(`There is no part ${ref}.`);
      const { pieceCount, ...summary } = part;
      const [colours, items] = await Promise.all([catalogue.partColours(part.id), catalogue.whereUsed(part.id, page.pageSize, page.page * page.pageSize)]);
      return { ...summary, colours, usedIn: { items, page: page.page, pageSize: page.pageSize, total: pieceCount } };
    },

    categories: async () => ({ items: await categoryList() }),
  };
}
export type CatalogueService = ReturnType<typeof catalogueService>;
