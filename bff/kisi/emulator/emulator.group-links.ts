import crypto from 'node:crypto';
import { Router } from 'express';
import type { SelectQueryBuilder } from 'kysely';
import QRCode from 'qrcode';
import type { EmulatorDb } from './emulator.database';
import { containsText } from '../../db/engine';
import type { EmulatorTables, KisiEmuGroupLinksTable } from './emulator.schema';
import type { GroupsStore } from './emulator.groups';
import {
  bool,
  deleteById,
  idsFilter,
  intParam,
  isObject,
  kisiError,
  kisiNow,
  LIMITS,
  listParams,
  pagedQuery,
  sendCollection,
  storableId,
  validationErrors,
  wholeNumber,
  type ListParams,
  type Row,
} from './emulator.shared';

/** Access links: a group's door access for someone without a Kisi account, by link or QR code. */

type LinkRow = Row<KisiEmuGroupLinksTable>;

export function groupLinksStore(db: EmulatorDb) {
  async function toLinks(rows: LinkRow[]) {
    const groupIds = [...new Set(rows.map((l) => l.group_id))];
    const creatorIds = [...new Set(rows.flatMap((l) => (l.created_by_id ? [l.created_by_id] : [])))];
    const [groups, creators] = await Promise.all([
      groupIds.length ? db.selectFrom('kisi_emu_groups').select(['id', 'name']).where('id', 'in', groupIds).execute() : [],
      creatorIds.length ? db.selectFrom('kisi_emu_users').select(['id', 'name', 'email']).where('id', 'in', creatorIds).execute() : [],
    ]);
    const groupNames = new Map(groups.map((g) => [g.id, g.name]));
    const creatorById = new Map(creators.map((u) => [u.id, { id: u.id, resource_type: 'User' as const, email: u.email, name: u.name }]));
    return rows.map((l) => {
      const creator = l.created_by_id ? creatorById.get(l.created_by_id) : undefined;
      return {
        id: l.id,
        resource_type: 'GroupLink' as const,
        name: l.name,
        email: l.email,
        phone: l.phone,
        last_used_at: l.last_used_at,
        link_enabled: bool(l.link_enabled),
        quick_response_code_type: l.quick_response_code_type,
        valid_from: l.valid_from,
        valid_until: l.valid_until,
        created_at: l.created_at,
        updated_at: l.updated_at,
        group_id: l.group_id,
        group: { id: l.group_id, resource_type: 'Group' as const, name: groupNames.get(l.group_id) ?? '' },
        created_by_type: l.created_by_id ? ('User' as const) : null,
        created_by_id: l.created_by_id,
        ...(creator ? { created_by: creator } : {}),
        issued_by_id: l.created_by_id,
        ...(creator ? { issued_by: creator } : {}),
      };
    });
  }

  async function listGroupLinks(params: ListParams) {
    const { q } = params;
    const query = db
      .selectFrom('kisi_emu_group_links as l')
      .innerJoin('kisi_emu_groups as g', 'g.id', 'l.group_id')
      .selectAll('l')
      .where((eb) => {
        const c = idsFilter(q, 'l.id');
        if (q.group_id !== undefined) c.push(eb('l.group_id', '=', intParam(q.group_id) ?? 0));
        if (q.query) c.push(containsText(['l.name', 'l.email', 'l.phone', 'g.name'], q.query));
        return eb.and(c);
      });
    const key = q.sort?.replace(/^-/, '');
    const dir = q.sort?.startsWith('-') ? 'desc' : 'asc';
    const column = key === 'name' ? 'l.name' : key === 'unlock' ? 'l.last_used_at' : key === 'valid_until' ? 'l.valid_until' : key === 'group_name' ? 'g.name' : undefined;
    const { rows, total } = await pagedQuery(query as never, params, ((qb: SelectQueryBuilder<EmulatorTables, 'kisi_emu_group_links', LinkRow>) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- aliased columns
      column ? (qb as any).orderBy(column, dir).orderBy('l.id') : (qb as any).orderBy('l.id')) as never);
    return { items: await toLinks(rows as LinkRow[]), total };
  }

  async function createGroupLink(input: {
    group_id: number;
    name: string;
    email: string | null;
    phone: string | null;
    quick_response_code_type: 'online' | 'offline' | null;
    link_enabled: boolean;
    valid_from: string | null;
    valid_until: string | null;
    created_by_id: number | null;
  }) {
    const now = kisiNow();
    const secret = crypto.randomBytes(16).toString('hex');
    const row = await db
      .insertInto('kisi_emu_group_links')
      .values({ ...input, link_enabled: input.link_enabled ? 1 : 0, last_used_at: null, secret, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    const [link] = await toLinks([row as LinkRow]);
    const token = input.quick_response_code_type ? crypto.createHash('sha256').update(`qr:${secret}`).digest('hex').slice(0, 32) : null;
    // Like Kisi, only this answer carries the secret and the QR code: the lists never show them again.
    return { ...link!, secret, quick_response_code_token: token, quick_response_code_image: token ? await qrImage(token) : null };
  }

  /** Links sent to an email that still open doors (no valid-until, or one still ahead): what Kisi's quota counts. */
  async function liveEmailLinks(): Promise<number> {
    const row = await db
      .selectFrom('kisi_emu_group_links')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', 'is not', null)
      .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', kisiNow())]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function deleteGroupLink(id: number): Promise<boolean> {
    const result = await db.deleteFrom('kisi_emu_group_links').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  return { listGroupLinks, createGroupLink, deleteGroupLink, liveEmailLinks };
}
export type GroupLinksStore = ReturnType<typeof groupLinksStore>;

/**
 * A QR code as the emulator draws it: 8 px a module with a 2-module margin, each row of pixels
 * stored as its difference from the row above (PNG's "Up" filter; most rows repeat the one above).
 * One filter for all rows: pngjs's default tries all five on every row, which under Jest (where
 * each global such as `Math` is looked up through the test context) took half a second a code.
 */
export async function qrPng(text: string): Promise<Buffer> {
  // `filterType` is pngjs's own option (QRCode passes it on; its types do not list it). QRCode writes into this object: a new one each time.
  const rendererOpts: NonNullable<QRCode.QRCodeToBufferOptions['rendererOpts']> & { filterType: number } = { filterType: 2 };
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 8, rendererOpts });
}

/**
 * The QR code Kisi returns on create: its token (what a Kisi reader scans) drawn as a PNG, in bare
 * base64 as Kisi's schema says ("rendered as a Base64-encoded PNG image"), not a data URL.
 */
async function qrImage(token: string): Promise<string> {
  return (await qrPng(token)).toString('base64');
}

/** Kisi's quota of access links sent by email at once (its documentation: 1000). */
export const EMAIL_LINK_QUOTA = 1000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const US_E164 = /^\+1\d{10}$/;

/** `apiUserId` names the API user the key belongs to: the creator of every link made through the API. */
export function groupLinksRoutes(store: GroupLinksStore & Pick<GroupsStore, 'groupExists'>, apiUserId: () => Promise<number | null>) {
  const router = Router();

  router.get('/group_links', async (req, res) => {
    const params = listParams(req, LIMITS.group_links);
    if (params.q.group_id !== undefined && wholeNumber(params.q.group_id) === undefined) return void kisiError(res, 400, 'group_id must be an integer.', '000400');
    sendCollection(res, params, await store.listGroupLinks(params));
  });

  router.post('/group_links', async (req, res) => {
    const body: unknown = req.body;
    const input = isObject(body) && isObject(body.group_link) ? body.group_link : {};
    const errors: Record<string, string[]> = {};
    const add = (field: string, message: string) => (errors[field] ??= []).push(message);
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name) add('name', "can't be blank");
    else if (name.length > 255) add('name', 'is too long (maximum is 255 characters)');
    const groupId = typeof input.group_id === 'number' && storableId(input.group_id) ? input.group_id : undefined;
    if (input.group_id === undefined || input.group_id === null) add('group_id', "can't be blank");
    else if (groupId === undefined || !(await store.groupExists(groupId))) add('group', 'must exist');
    const email = input.email === undefined || input.email === null || input.email === '' ? null : input.email;
    if (email !== null && (typeof email !== 'string' || !EMAIL.test(email.trim()))) add('email', 'is invalid');
    const phone = input.phone === undefined || input.phone === null || input.phone === '' ? null : input.phone;
    if (phone !== null && (typeof phone !== 'string' || !US_E164.test(phone))) add('phone', 'is invalid. Only US, Canadian and Puerto Rican numbers in the format +11234567890 are accepted');
    const qr = input.quick_response_code_type ?? null;
    if (qr !== null && qr !== 'online' && qr !== 'offline') add('quick_response_code_type', 'is not included in the list');
    if (input.link_enabled !== undefined && typeof input.link_enabled !== 'boolean') add('link_enabled', 'must be true or false');
    const dates: Record<'valid_from' | 'valid_until', string | null> = { valid_from: null, valid_until: null };
    for (const key of ['valid_from', 'valid_until'] as const) {
      const value = input[key];
      if (value === undefined || value === null) continue;
      if (typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) dates[key] = new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z');
      else add(key, 'is not a valid date');
    }
    if (dates.valid_from && dates.valid_until && dates.valid_until <= dates.valid_from) add('valid_until', 'must be after valid from');
    if (email !== null && !errors.email && (await store.liveEmailLinks()) >= EMAIL_LINK_QUOTA) {
      add('email', `quota of ${EMAIL_LINK_QUOTA} access links sent by email at once is reached: delete or let some expire first`);
    }
    if (Object.keys(errors).length) return void validationErrors(res, errors);
    const link = await store.createGroupLink({
      group_id: groupId!,
      name,
      email: email === null ? null : (email as string).trim(),
      phone: phone as string | null,
      quick_response_code_type: qr as 'online' | 'offline' | null,
      link_enabled: input.link_enabled !== false,
      ...dates,
      created_by_id: await apiUserId(),
    });
    res.status(200).json(link);
  });

  deleteById(router, '/group_links', 'Group link', store.deleteGroupLink);

  return router;
}
