import { LRUCache } from 'lru-cache';
import { CATALOGUE_NUMBER, type Category, type PartCategory, type PartDetail, type PartListItem, type PartListQuery, type PieceDetail, type PieceListQuery, type PieceSummary } from '../../contracts/catalogue.contract';
import type { Page, PageQuery } from '../../contracts/common.contract';
import type { Database } from '../../db/database';
import { badRequest, notFound } from '../../lib/http-error';
import { searchWords } from './catalogue.importer';
import type { CatalogueRepository, TextSearch } from './catalogue.repository';

export interface CatalogueServiceDeps {
  catalogue: CatalogueRepository;
  textHits: Database['textHits'];
  /**
   * How long the category lists are kept before they are read again: the catalogue changes only
   * with an import (another process), which the filters then show within this.
   */
  keptForMs?: number;
  now?: () => number;
}

/** A search uses at most this many words (the rest would only narrow an already narrow answer). */
const MAX_WORDS = 8;

/** The lists kept: the categories of pieces and of parts. */
const KEPT_LISTS = 2;

export function catalogueService({ catalogue, textHits, keptForMs = 60_000, now = Date.now }: CatalogueServiceDeps) {
  // The catalogue changes only with an import, and every filtered search checks its category against
  // the whole list (with the categories below it): the lists are kept, the same read asked for at
  // once is made once. Searches are read from the database each time (decision 0086).
  const lists = new LRUCache<string, object, () => Promise<object>>({
    max: KEPT_LISTS,
    ttl: keptForMs,
    perf: { now },
    ttlResolution: 0,
    fetchMethod: (_key, _stale, { context }) => context(),
  });
  const kept = async <T extends object>(key: string, read: () => Promise<T>): Promise<T> => (await lists.fetch(key, { context: read })) as T;
  const categoryList = () => kept<Category[]>('categories', catalogue.themes);
  const partCategoryList = () => kept<PartCategory[]>('part categories', catalogue.partCategories);

  /**
   * A query's words found in the text index, and the query itself when it could be a number (one
   * word with a digit in it, as every piece and part number has): none without words.
   */
  const textSearch = (table: 'pieces' | 'parts', query: string | undefined): TextSearch | undefined => {
    const words = searchWords(query ?? '').slice(0, MAX_WORDS);
    if (words.length === 0) return undefined;
    const typed = query!.trim();
    return { hits: textHits(table, 'search_rank', words), number: CATALOGUE_NUMBER.test(typed) && /[0-9]/.test(typed) ? typed : undefined };
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

  async function searchPieces(query: PieceListQuery, themeIds: number[] | undefined): Promise<Page<PieceSummary>> {
    const text = textSearch('pieces', query.query);
    const found = await catalogue.searchPieces({
      text,
      themeIds,
      // Without words there is nothing to rank by: the newest first.
      order: query.sort === 'relevance' && !text ? 'year-desc' : query.sort,
      limit: query.pageSize,
      offset: query.page * query.pageSize,
    });
    return { ...found, page: query.page, pageSize: query.pageSize };
  }

  async function searchParts(query: PartListQuery): Promise<Page<PartListItem>> {
    const text = textSearch('parts', query.query);
    const found = await catalogue.searchParts({
      text,
      categoryId: query.category,
      // Without words there is nothing to rank by: the most used first.
      order: query.sort === 'relevance' && !text ? 'used-desc' : query.sort,
      limit: query.pageSize,
      offset: query.page * query.pageSize,
    });
    return { ...found, page: query.page, pageSize: query.pageSize };
  }

  return {
    async listPieces(query: PieceListQuery): Promise<Page<PieceSummary>> {
      const themeIds = query.category !== undefined ? await categoryAndBelow(query.category) : undefined;
      return searchPieces(query, themeIds);
    },

    async listParts(query: PartListQuery): Promise<Page<PartListItem>> {
      if (query.category !== undefined && !(await partCategoryList()).some((c) => c.id === query.category)) {
        throw badRequest(`There is no part category ${query.category}.`, [{ path: 'query.category', message: `No part category with id ${query.category}; GET /api/rest/part-categories lists them` }]);
      }
      return searchParts(query);
    },

    async piece(ref: string): Promise<PieceDetail> {
      const piece = await catalogue.findPiece(ref);
      if (!piece) throw notFound(`There is no piece ${ref}.`);
      const lines = await catalogue.pieceLines(piece.id);
      // Grouped by part category, the categories by name (parts without one last).
      const groups = new Map<string, PieceDetail['groups'][number]>();
      for (const line of lines) {
        const key = line.part.category ? String(line.part.category.id) : 'none';
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { category: line.part.category, lines: [], quantity: 0, spares: 0 }));
        group.lines.push(line);
        // Counted as the totals count: spares beside the parts, never in them.
        if (line.spare) group.spares += line.quantity;
        else group.quantity += line.quantity;
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

    async part(ref: string, page: PageQuery): Promise<PartDetail> {
      const part = await catalogue.findPart(ref);
      if (!part) throw notFound(`There is no part ${ref}.`);
      const { pieceCount, ...summary } = part;
      const [colours, items] = await Promise.all([catalogue.partColours(part.id), catalogue.whereUsed(part.id, page.pageSize, page.page * page.pageSize)]);
      return { ...summary, colours, usedIn: { items, page: page.page, pageSize: page.pageSize, total: pieceCount } };
    },

    categories: async () => ({ items: await categoryList() }),
    partCategories: async () => ({ items: await partCategoryList() }),
  };
}
export type CatalogueService = ReturnType<typeof catalogueService>;
