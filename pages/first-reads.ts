import type { AreaReads } from './reads';
import { gymReads } from './gym.reads';
import { homeReads } from './home.reads';

/**
 * Every page's first reads, by page: each area's declarations, the same values its routes load with.
 * The BFF names them in the page's HTML (bff/lib/static.middleware.ts); a client test checks each
 * route's loader reads what its page names here.
 */
export const firstReads: AreaReads = { ...homeReads, ...gymReads };
