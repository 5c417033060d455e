import type { AreaReads } from './reads';
import { gymReads } from './gym.reads';
import { homeReads } from './home.reads';
import { catalogueReads } from './catalogue.reads';
import { samplesReads } from './samples.reads';
import { ptReads } from './pt.reads';
import { kisiReads } from './kisi.reads';
import { auditReads } from './audit.reads';
import { webhooksReads } from './webhooks.reads';
import { uploadsReads } from './uploads.reads';
import { chatReads } from './chat.reads';
import { conversationsReads } from './conversations.reads';
import { shellReads } from './shell.reads';
import { teamReads } from './team.reads';
import { operationsReads } from './operations.reads';

/**
 * Every page's first reads, by page: each area's declarations, the same values its routes load with.
 * The BFF names them in the page's HTML (bff/lib/static.middleware.ts); a client test checks each
 * route's loader reads what its page names here.
 */
export const firstReads: AreaReads = { ...homeReads, ...gymReads, ...kisiReads, ...auditReads, ...webhooksReads, ...uploadsReads, ...chatReads, ...conversationsReads, ...shellReads, ...teamReads, ...operationsReads, ...ptReads, ...catalogueReads, ...samplesReads };
