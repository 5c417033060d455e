import zlib from 'node:zlib';
import QRCode from 'qrcode';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { EMAIL_LINK_QUOTA, qrPng } from './emulator.group-links';

/** Access links as Kisi makes them: the secret and the QR code in the create answer only, the QR code a real PNG of the token. */
let ctx: TestContext;
let kisi: (method: string, url: string, body?: unknown) => Promise<{ status: number; json: unknown }>;

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  const { baseUrl, apiKey } = ctx.kisi!.settings;
  kisi = async (method, url, body) => {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `KISI-LOGIN ${apiKey}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined };
  };
});
afterAll(() => ctx.close());

type Created = { id: number; secret: string | null; quick_response_code_token: string | null; quick_response_code_image: string | null };
const create = async (name: string, qr: 'online' | 'offline' | null) => {
  const res = await kisi('POST', '/group_links', { group_link: { name, group_id: ctx.kisi!.settings.groupId, email: 'qr.test@mail.example', quick_response_code_type: qr } });
  expect(res.status).toBe(200);
  return res.json as Created;
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The PNG's size and its pixel rows once inflated: enough to know a viewer can draw it. */
function readPng(png: Buffer) {
  expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  const idat: Buffer[] = [];
  let header: { width: number; height: number; bitDepth: number; colorType: number } | undefined;
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), bitDepth: data[8]!, colorType: data[9]! };
    if (type === 'IDAT') idat.push(data);
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return { ...header!, pixels: zlib.inflateSync(Buffer.concat(idat)) };
}

describe('POST /group_links with a QR code', () => {
  it.each(['online', 'offline'] as const)('answers a %s link with a base64 PNG of its QR token, once', async (type) => {
    const link = await create(`QR ${type}`, type);
    expect(link.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(link.quick_response_code_token).toMatch(/^[0-9a-f]{32}$/);
    // Bare base64, as Kisi's schema says, not a data URL.
    expect(link.quick_response_code_image).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const png = readPng(Buffer.from(link.quick_response_code_image!, 'base64'));
    // Square, 8 px a module with a 2-module margin, and every row of pixels there (a filter byte + 8-bit channels each).
    const modules = QRCode.create(link.quick_response_code_token!, { errorCorrectionLevel: 'M' }).modules.size;
    expect(png).toMatchObject({ width: (modules + 4) * 8, height: (modules + 4) * 8, bitDepth: 8 });
    const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[png.colorType as 0 | 2 | 4 | 6];
    expect(png.pixels.length).toBe(png.height * (1 + png.width * channels));
    // It draws the token (what a Kisi reader scans), not the secret.
    const ofToken = await qrPng(link.quick_response_code_token!);
    expect(Buffer.from(link.quick_response_code_image!, 'base64').equals(ofToken)).toBe(true);
  });

  it('answers no token and no image for a link without a QR code', async () => {
    const link = await create('No QR', null);
    expect(link).toMatchObject({ secret: expect.any(String), quick_response_code_token: null, quick_response_code_image: null });
  });

  it('never shows the secret, token or image again in a list', async () => {
    const link = await create('Listed once', 'online');
    const listed = (await kisi('GET', '/group_links?query=qr.test&limit=250')).json as Array<Record<string, unknown>>;
    expect(listed.map((l) => l.id)).toContain(link.id);
    for (const item of listed) for (const once of ['secret', 'quick_response_code_token', 'quick_response_code_image']) expect(item).not.toHaveProperty(once);
    expect(JSON.stringify(listed)).not.toContain(link.secret);
  });

  it('keeps Kisi’s quota of links sent by email at once: the next one is refused until one is deleted or has expired', async () => {
    const { db } = ctx.kisi!.emulator!.database;
    const groupId = ctx.kisi!.settings.groupId;
    const live = await db
      .selectFrom('kisi_emu_group_links')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', 'is not', null)
      .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', new Date().toISOString())]))
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const filler = Array.from({ length: EMAIL_LINK_QUOTA - Number(live.n) }, (_, i) => ({
      group_id: groupId, name: `Quota ${i}`, email: `quota${i}@mail.example`, phone: null, link_enabled: 1, quick_response_code_type: null,
      valid_from: null, valid_until: null, last_used_at: null, secret: `quota-secret-${i}`, created_by_id: null, created_at: now, updated_at: now,
    }));
    for (let i = 0; i < filler.length; i += 200) await db.insertInto('kisi_emu_group_links').values(filler.slice(i, i + 200)).execute();

    const refused = await kisi('POST', '/group_links', { group_link: { name: 'One too many', group_id: groupId, email: 'late@mail.example' } });
    expect(refused).toEqual({ status: 422, json: { errors: { email: [expect.stringContaining(`quota of ${EMAIL_LINK_QUOTA}`)] } } });
    // A link nobody is emailed is not counted.
    expect((await kisi('POST', '/group_links', { group_link: { name: 'At the desk', group_id: groupId } })).status).toBe(200);
    // One that has expired no longer counts either.
    await db.updateTable('kisi_emu_group_links').set({ valid_until: '2020-01-01T00:00:00Z' }).where('name', '=', 'Quota 0').execute();
    expect((await kisi('POST', '/group_links', { group_link: { name: 'Now it fits', group_id: groupId, email: 'late@mail.example' } })).status).toBe(200);
    await db.deleteFrom('kisi_emu_group_links').where('name', 'like', 'Quota %').execute();
  });
});
