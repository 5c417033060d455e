import request from 'supertest';
import type { MemberImportPreview, MemberImportResult, MemberImportRow } from '../../contracts/member-import.contract';
import type { GymMember } from '../../contracts/gym.contract';
import { createTestContext, type TestContext } from '../../test-support/test-app';

/**
 * Issue 52: members imported from the venue's spreadsheet. A preview says what each row would do
 * and writes nothing; a confirm writes exactly the previewed new members, each as by hand (row, door
 * switch owed to Kisi, audit entry), plus one entry for the import; the same file again adds nobody.
 */
let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
beforeAll(async () => {
  ctx = await createTestContext();
  staff = await ctx.loginAs('staff');
  await staff.post('/api/gym/owners').send({ name: 'Marta Kowalski', email: 'marta@ironharbour.test', gymName: 'Iron Harbour' }).expect(201);
  await staff.post('/api/gym/owners').send({ name: 'Theo Brandt', email: 'theo@northside.test', gymName: 'Northside' }).expect(201);
});
afterAll(() => ctx.close());

const db = () => ctx.database.db;
/** Every table an import writes, counted. */
async function counts() {
  const n = async (table: 'gym_users' | 'audit_entries' | 'door_access_outbox') => Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { members: await n('gym_users'), audit: await n('audit_entries'), outbox: await n('door_access_outbox') };
}
const preview = async (csv: string) => (await staff.post('/api/gym/users/import/preview').send({ csv }).expect(200)).body as MemberImportPreview;
const confirm = async (csv: string, previewHash: string) => (await staff.post('/api/gym/users/import').send({ csv, previewHash }).expect(200)).body as MemberImportResult;
const byLine = (rows: MemberImportRow[], line: number) => rows.find((r) => r.line === line)!;
const memberByEmail = async (email: string) => {
  const list = await staff.get(`/api/gym/users?query=${encodeURIComponent(email)}`).expect(200);
  return (list.body.items as GymMember[]).find((m) => m.email === email);
};

describe('preview', () => {
  it('says what each row would do, with counts, and writes nothing', async () => {
    const csv = ['name,email,owner_email,membership', 'Ana Lima,ana.lima@mail.test,marta@ironharbour.test,active', 'Ben Ode,ben.ode@mail.test,theo@northside.test,paused', 'No Owner,no.owner@mail.test,nobody@gyms.test,'].join('\n');
    const before = await counts();
    const answer = await preview(csv);
    expect(await counts()).toEqual(before);
    expect(answer.counts).toEqual({ rows: 3, new: 2, members: 0, problems: 1 });
    expect(answer.separator).toBe(',');
    expect(answer.columns).toEqual([
      { header: 'name', field: 'name' },
      { header: 'email', field: 'email' },
      { header: 'owner_email', field: 'ownerEmail' },
      { header: 'membership', field: 'membership' },
    ]);
    expect(answer.rows[0]).toEqual({ line: 2, name: 'Ana Lima', email: 'ana.lima@mail.test', ownerEmail: 'marta@ironharbour.test', membership: 'active', outcome: 'new', problems: [], memberId: null, differences: [] });
    expect(answer.rows[1]).toMatchObject({ line: 3, membership: 'paused', outcome: 'new' });
    expect(answer.rows[2]).toMatchObject({ line: 4, outcome: 'problem', problems: ['No owner has the email nobody@gyms.test'], membership: 'active' });
    expect(answer.previewHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names every problem of a row in words', async () => {
    const csv = [
      'name,email,owner_email,membership',
      ',nameless@mail.test,marta@ironharbour.test,active', // 2: no name
      `${'A'.repeat(121)},long.name@mail.test,marta@ironharbour.test,`, // 3: name too long
      'Bad Email,not-an-email,marta@ironharbour.test,', // 4
      'No Email,,marta@ironharbour.test,', // 5
      `Long Email,${'a'.repeat(250)}@mail.test,marta@ironharbour.test,`, // 6
      'No Owner Email,no.owner.email@mail.test,,', // 7
      'Bad Owner,bad.owner@mail.test,marta-at-harbour,', // 8
      'Unknown Owner,unknown.owner@mail.test,ghost@gyms.test,', // 9
      'Gold Member,gold@mail.test,marta@ironharbour.test,gold', // 10
      'First Twin,twin@mail.test,marta@ironharbour.test,', // 11: fine
      'Second Twin,TWIN@mail.test,theo@northside.test,', // 12: the same email
      ',,,', // a spreadsheet's empty row: no row
      'Everything Wrong,@,@,frozen', // 14
    ].join('\n');
    const { rows, counts: c } = await preview(csv);
    expect(c).toEqual({ rows: 12, new: 1, members: 0, problems: 11 });
    const problems = Object.fromEntries(rows.map((r) => [r.line, r.problems]));
    expect(problems).toEqual({
      2: ['No name'],
      3: ['Name is longer than 120 characters'],
      4: ['Email “not-an-email” is not an email address'],
      5: ['No email'],
      6: ['Email is longer than 254 characters'],
      7: ['No owner email'],
      8: ['Owner email “marta-at-harbour” is not an email address'],
      9: ['No owner has the email ghost@gyms.test'],
      10: ['Membership “gold” is not one of active, paused, cancelled'],
      11: [],
      12: ['Same email as row 11'],
      14: ['Email “@” is not an email address', 'Owner email “@” is not an email address', 'Membership “frozen” is not one of active, paused, cancelled'],
    });
    expect(byLine(rows, 11).outcome).toBe('new');
    expect(byLine(rows, 3).name).toHaveLength(121);
  });

  it('takes the headers, separators, quotes and byte-order mark spreadsheets write', async () => {
    const csv = '\uFEFFFull name;E-mail;Owner E-mail;Membership status;Phone\r\n"Lopez; Carla";Carla.Lopez@Mail.test;MARTA@IronHarbour.test;Paused;555\r\n"Dee ""DJ"" Jones";dee@mail.test;theo@northside.test;;\r\n"Multi\r\nLine";multi@mail.test;theo@northside.test;canceled;\r\n;;;;\r\n\r\nLast Row;last.row@mail.test;theo@northside.test;;\r\n';
    const answer = await preview(csv);
    expect(answer.separator).toBe(';');
    expect(answer.columns.map((c) => c.field)).toEqual(['name', 'email', 'ownerEmail', 'membership', null]);
    expect(answer.rows.map((r) => [r.line, r.name, r.email, r.ownerEmail, r.membership, r.outcome])).toEqual([
      [2, 'Lopez; Carla', 'carla.lopez@mail.test', 'marta@ironharbour.test', 'paused', 'new'],
      [3, 'Dee "DJ" Jones', 'dee@mail.test', 'theo@northside.test', 'active', 'new'],
      [4, 'Multi\r\nLine', 'multi@mail.test', 'theo@northside.test', 'cancelled', 'new'],
      // Row 5 is the empty cells, row 6 the empty line: as a spreadsheet numbers them.
      [7, 'Last Row', 'last.row@mail.test', 'theo@northside.test', 'active', 'new'],
    ]);
    // Excel's own separator line, which it does not show as a row.
    const excel = await preview('\uFEFFsep=;\r\nname;email;owner_email\r\nAda, Countess;ada@mail.test;theo@northside.test\r\n');
    expect(excel.separator).toBe(';');
    expect(excel.rows.map((r) => [r.line, r.name, r.outcome])).toEqual([[2, 'Ada, Countess', 'new']]);
    const split = await preview('First name\tLast name\tEmail\tOwner\nGrace\tHopper\tgrace@mail.test\ttheo@northside.test\n');
    expect(split.separator).toBe('\t');
    expect(split.rows[0]).toMatchObject({ name: 'Grace Hopper', outcome: 'new' });
  });

  it('refuses a file it cannot read with a 400 saying why, and too much with a 413', async () => {
    const refused = async (csv: string, status: number) => (await staff.post('/api/gym/users/import/preview').send({ csv }).expect(status)).body as { detail: string; errors: Array<{ path: string; message: string }> };
    expect((await refused('', 400)).detail).toBe('The file is empty.');
    expect((await refused('\uFEFF  \n', 400)).detail).toBe('The file is empty.');
    // What a blank spreadsheet exports: separators and nothing in any cell (no header row at all).
    for (const blank of [',,\n', ';;;\n;;;\n', 'sep=;\n;;\n']) {
      const empty = await refused(blank, 400);
      expect(empty).toMatchObject({ detail: 'The file is empty.', errors: [{ path: 'body.csv', message: 'The file is empty.' }] });
      const notImported = await staff.post('/api/gym/users/import').send({ csv: blank, previewHash: '0'.repeat(64) }).expect(400);
      expect(notImported.body.detail).toBe('The file is empty.');
    }
    const noColumns = await refused('Nom,Courriel\nAna,ana@mail.test\n', 400);
    expect(noColumns.detail).toMatch(/^The first row must name the columns: it has no name, no email, no owner_email column \(it names “Nom”, “Courriel”\)/);
    expect(noColumns.errors).toEqual([{ path: 'body.csv', message: noColumns.detail }]);
    expect((await refused('name,email,owner_email\n', 400)).detail).toBe('The file has its header row but no rows of members under it.');
    expect((await refused('name,email,owner_email\n"Ana,ana@mail.test,marta@ironharbour.test\n', 400)).detail).toMatch(/^The file could not be read as CSV: .*Quote Not Closed/);
    const header = 'name,email,owner_email\n';
    const manyRows = header + Array.from({ length: 5_001 }, (_, i) => `M ${i},m${i}@mail.test,marta@ironharbour.test`).join('\n');
    expect((await refused(manyRows, 413)).detail).toBe('The file has 5,001 rows; an import takes at most 5,000. Split it and import each part.');
    const big = header + `Big,big@mail.test,marta@ironharbour.test,${'x'.repeat(1024 * 1024)}\n`;
    expect((await refused(big, 413)).detail).toMatch(/^The file is 1\.0 MB; an import takes at most 1\.0 MB/);
    // Past what the route reads at all: the JSON parser's own 413, a problem too.
    const huge = await staff.post('/api/gym/users/import/preview').send({ csv: 'x'.repeat(3 * 1024 * 1024 + 10) }).expect(413);
    expect(huge.headers['content-type']).toMatch(/application\/problem\+json/);
    // No text at all: the contract's 400.
    const wrongType = await staff.post('/api/gym/users/import/preview').send({ csv: 5 }).expect(400);
    expect(wrongType.body.errors).toEqual([{ path: 'body.csv', message: 'Send the file’s text as csv' }]);
  });

  it('is the front desk’s: 401 without a session, 403 for a runner, and CSRF-checked like every write', async () => {
    await request(ctx.app).post('/api/gym/users/import/preview').send({ csv: 'a' }).expect(401);
    const runner = await ctx.loginAs('runner');
    await runner.post('/api/gym/users/import/preview').send({ csv: 'a' }).expect(403);
    await runner.post('/api/gym/users/import').send({ csv: 'a', previewHash: '0'.repeat(64) }).expect(403);
    await staff.post('/api/gym/users/import/preview').set('Origin', 'https://elsewhere.example').send({ csv: 'a' }).expect(403);
  });
});

describe('confirm', () => {
  const file = [
    'Name,Email,Owner email,Membership',
    'Cleo Park,cleo.park@mail.test,marta@ironharbour.test,active',
    'Dev Rao,dev.rao@mail.test,THEO@northside.test,paused',
    'Eve Stone,eve.stone@mail.test,marta@ironharbour.test,',
    'Ghost Row,ghost.row@mail.test,ghost@gyms.test,active',
  ].join('\n');

  it('adds exactly the previewed new members, each as by hand, and audits the import once', async () => {
    const shown = await preview(file);
    expect(shown.counts).toEqual({ rows: 4, new: 3, members: 0, problems: 1 });
    const before = await counts();
    const result = await confirm(file, shown.previewHash);
    expect(result).toEqual({ rows: 4, new: 3, members: 0, problems: 1, created: 3 });
    // Three members, each with their door switch owed to Kisi and their own "created" entry, and one entry for the import.
    expect(await counts()).toEqual({ members: before.members + 3, outbox: before.outbox + 3, audit: before.audit + 4 });
    const dev = (await memberByEmail('dev.rao@mail.test'))!;
    expect(dev).toMatchObject({ name: 'Dev Rao', ownerName: 'Theo Brandt', membership: 'paused', accessSync: expect.objectContaining({ state: 'pending', wantEnabled: false }) });
    expect((await memberByEmail('eve.stone@mail.test'))!).toMatchObject({ membership: 'active', ownerName: 'Marta Kowalski' });
    expect(await memberByEmail('ghost.row@mail.test')).toBeUndefined();
    const owed = await db().selectFrom('door_access_outbox').select(['want_enabled']).where('member_id', '=', dev.id).executeTakeFirstOrThrow();
    expect(owed.want_enabled).toBe(0);
    const entries = await db().selectFrom('audit_entries').select(['action', 'subject', 'subject_id', 'changes', 'actor_role']).orderBy('id', 'desc').limit(4).execute();
    expect(entries[0]).toMatchObject({ action: 'imported', subject: 'CSV import of 4 rows', subject_id: null, actor_role: 'staff' });
    expect(JSON.parse(entries[0]!.changes)).toEqual([
      { field: 'created', before: null, after: 3 },
      { field: 'already members', before: null, after: 0 },
      { field: 'rows left out', before: null, after: 1 },
    ]);
    expect(entries.slice(1).map((e) => e.action)).toEqual(['created', 'created', 'created']);
    expect(entries.slice(1).map((e) => e.subject).sort()).toEqual(['Cleo Park <cleo.park@mail.test>', 'Dev Rao <dev.rao@mail.test>', 'Eve Stone <eve.stone@mail.test>']);
  });

  it('the same file twice changes nothing: already members, skipped, their differences shown', async () => {
    const again = await preview(file);
    expect(again.counts).toEqual({ rows: 4, new: 0, members: 3, problems: 1 });
    const cleo = (await memberByEmail('cleo.park@mail.test'))!;
    expect(byLine(again.rows, 2)).toMatchObject({ outcome: 'member', memberId: cleo.id, differences: [] });
    const before = await counts();
    expect(await confirm(file, again.previewHash)).toEqual({ rows: 4, new: 0, members: 3, problems: 1, created: 0 });
    expect(await counts()).toEqual(before);

    // Changed at the desk since: the file's other words are shown beside the member, who is left as they are.
    await staff.patch(`/api/gym/users/${cleo.id}`).send({ name: 'Cleo Park-Lee', membership: 'cancelled' }).expect(200);
    const changed = await preview(file);
    expect(byLine(changed.rows, 2)).toMatchObject({
      outcome: 'member',
      differences: [
        { field: 'name', member: 'Cleo Park-Lee', file: 'Cleo Park' },
        { field: 'membership', member: 'cancelled', file: 'active' },
      ],
    });
    // An empty membership cell says nothing: Eve is not shown as differing.
    expect(byLine(changed.rows, 4).differences).toEqual([]);
    await confirm(file, changed.previewHash);
    expect(await memberByEmail('cleo.park@mail.test')).toMatchObject({ name: 'Cleo Park-Lee', membership: 'cancelled' });
  });

  it('refuses (409, nothing written) when a member was added or an owner went between the preview and the confirm', async () => {
    const csv = 'name,email,owner_email\nFay Wu,fay.wu@mail.test,marta@ironharbour.test\nGus Hall,gus.hall@mail.test,marta@ironharbour.test\n';
    const shown = await preview(csv);
    expect(shown.counts.new).toBe(2);
    const owner = (await staff.get('/api/gym/owners?query=marta').expect(200)).body.items[0] as { id: number };
    await staff.post('/api/gym/users').send({ email: 'gus.hall@mail.test', name: 'Gus Hall', ownerId: owner.id }).expect(201);
    const before = await counts();
    const refused = await staff.post('/api/gym/users/import').send({ csv, previewHash: shown.previewHash }).expect(409);
    expect(refused.body.detail).toMatch(/changed since this file was previewed.*nothing was imported/);
    expect(await counts()).toEqual(before);
    expect(await memberByEmail('fay.wu@mail.test')).toBeUndefined();
    // Previewed again, it imports the one that is new.
    const again = await preview(csv);
    expect(again.rows.map((r) => r.outcome)).toEqual(['new', 'member']);
    expect((await confirm(csv, again.previewHash)).created).toBe(1);

    // An owner with no members, deleted after the preview: the rows naming them are problems now.
    const lone = (await staff.post('/api/gym/owners').send({ name: 'Lone Owner', email: 'lone@gyms.test', gymName: 'Lone Gym' }).expect(201)).body as { id: number };
    const loneCsv = 'name,email,owner_email\nHal Ito,hal.ito@mail.test,lone@gyms.test\n';
    const loneShown = await preview(loneCsv);
    await staff.delete(`/api/gym/owners/${lone.id}`).expect(204);
    await staff.post('/api/gym/users/import').send({ csv: loneCsv, previewHash: loneShown.previewHash }).expect(409);
    expect((await preview(loneCsv)).rows[0]!.problems).toEqual(['No owner has the email lone@gyms.test']);
  });

  it('the same file confirmed twice at once: one imports it, the other is a 409, never a 500 or half a file', async () => {
    const csv = ['name,email,owner_email', ...Array.from({ length: 40 }, (_, i) => `Race ${i},race${i}@mail.test,theo@northside.test`)].join('\n');
    const shown = await preview(csv);
    const before = await counts();
    const answers = await Promise.all([0, 1].map(() => staff.post('/api/gym/users/import').send({ csv, previewHash: shown.previewHash })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect((await counts()).members).toBe(before.members + 40);
  });

  it('takes a file of 5,000 rows, the most it takes, in one go', async () => {
    const csv = ['name,email,owner_email', ...Array.from({ length: 5_000 }, (_, i) => `Bulk ${i},bulk${i}@mail.test,marta@ironharbour.test`)].join('\n');
    const shown = await preview(csv);
    expect(shown.counts).toEqual({ rows: 5_000, new: 5_000, members: 0, problems: 0 });
    const before = await counts();
    expect((await confirm(csv, shown.previewHash)).created).toBe(5_000);
    expect(await counts()).toEqual({ members: before.members + 5_000, outbox: before.outbox + 5_000, audit: before.audit + 5_001 });
    expect((await preview(csv)).counts.members).toBe(5_000);
  }, 60_000);

  it('refuses a hash that is not the preview’s, and a malformed one', async () => {
    const csv = 'name,email,owner_email\nIda Bell,ida.bell@mail.test,marta@ironharbour.test\n';
    await staff.post('/api/gym/users/import').send({ csv, previewHash: 'f'.repeat(64) }).expect(409);
    const bad = await staff.post('/api/gym/users/import').send({ csv, previewHash: 'abc' }).expect(400);
    expect(bad.body.errors).toEqual([{ path: 'body.previewHash', message: 'Expected the previewHash a preview answered' }]);
    expect(await memberByEmail('ida.bell@mail.test')).toBeUndefined();
  });
});
