import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import * as v from 'valibot';
import { EmailSchema } from '../../contracts/common.contract';
import { CreateMemberSchema, MEMBERSHIPS, type CreateMember, type Membership } from '../../contracts/gym.contract';
import {
  IMPORT_FIELDS,
  MEMBER_IMPORT_MAX_BYTES,
  MEMBER_IMPORT_MAX_ROWS,
  type ImportCounts,
  type ImportDifference,
  type MemberImportConfirmBody,
  type MemberImportPreview,
  type MemberImportPreviewBody,
  type MemberImportResult,
  type MemberImportRow,
} from '../../contracts/member-import.contract';
import type { AuditActor } from '../../db/audit-trail';
import { badRequest, conflict, HttpError } from '../../lib/http-error';
import type { GymService } from './gym.service';
import type { MemberImportRepository } from './member-import.repository';

type ImportField = (typeof IMPORT_FIELDS)[number];
type Separator = MemberImportPreview['separator'];

/**
 * The headers a venue's spreadsheet may have, by their letters and digits alone, lower-cased
 * ("Full name", "E-mail", "Owner email", "owner_email" → fullname, email, owneremail).
 */
const HEADERS: Record<string, ImportField> = {
  name: 'name',
  fullname: 'name',
  membername: 'name',
  member: 'name',
  firstname: 'firstName',
  givenname: 'firstName',
  forename: 'firstName',
  lastname: 'lastName',
  surname: 'lastName',
  familyname: 'lastName',
  email: 'email',
  emailaddress: 'email',
  memberemail: 'email',
  mail: 'email',
  owneremail: 'ownerEmail',
  owneremailaddress: 'ownerEmail',
  gymowneremail: 'ownerEmail',
  owner: 'ownerEmail',
  membership: 'membership',
  membershipstatus: 'membership',
  status: 'membership',
};
const headerKey = (header: string) =>
  header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const MEMBERSHIP_WORDS: Record<string, Membership> = { ...Object.fromEntries(MEMBERSHIPS.map((m) => [m, m])), canceled: 'cancelled' };
const NAME_MAX = 120;
/** What a row shows of a cell at most (the file's text is the file's; a preview need not echo a novel). */
const SHOWN_MAX = 200;
const shown = (text: string) => (text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX - 1)}…` : text);

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const tooLarge = (detail: string) => new HttpError(413, detail, { errors: [{ path: 'body.csv', message: detail }] });
const unreadable = (detail: string) => badRequest(detail, [{ path: 'body.csv', message: detail }]);

/** The separator of the header line (outside quotes): the most frequent of comma, semicolon and tab, a comma when none. */
function separatorOf(text: string): Separator {
  const counts: Record<Separator, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char in counts) counts[char as Separator]++;
  }
  return counts[';'] > counts[','] && counts[';'] >= counts['\t'] ? ';' : counts['\t'] > counts[','] ? '\t' : ',';
}

type ParsedRecord = { record: string[]; info: { records: number; empty_lines: number } };

/** The file's records, each with its row as a spreadsheet numbers it (empty lines count); a file that is not CSV is a 400 saying where. */
function recordsOf(text: string, separator: Separator): Array<{ cells: string[]; line: number }> {
  let parsed: ParsedRecord[];
  try {
    parsed = parse(text, { bom: true, delimiter: separator, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true }) as unknown as ParsedRecord[];
  } catch (err) {
    throw unreadable(`The file could not be read as CSV: ${err instanceof Error ? err.message : String(err)}.`);
  }
  return (
    parsed
      // A spreadsheet's row number: records and empty lines so far (a cell's line breaks stay in its row).
      .map(({ record, info }) => ({ cells: record, line: info.records + info.empty_lines }))
      // A spreadsheet's trailing rows of empty cells (";;;") are no rows.
      .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''))
  );
}

const validEmail = (text: string) => {
  const result = v.safeParse(EmailSchema, text);
  return result.success ? result.output : undefined;
};

/** Why an email cell is no email, or undefined. */
function emailProblem(text: string, what: 'Email' | 'Owner email'): string | undefined {
  if (text === '') return what === 'Email' ? 'No email' : 'No owner email';
  if (validEmail(text)) return undefined;
  return text.length > 254 ? `${what} is longer than 254 characters` : `${what} “${shown(text)}” is not an email address`;
}

/** A row of the plan: what the preview shows, and the member it adds. */
type Planned = { row: MemberImportRow; ownerId: number | null; create?: CreateMember };

/**
 * Imports members from a CSV file (decision 0106). `preview` reads the file, the owners it names and
 * the members its emails already are, and says what would happen to each row, writing nothing;
 * `confirm` does the same again and, when it gives the preview's hash, adds the new members through
 * the gym's own path (`addImportedMembers`: as by hand, in one transaction). Nothing is kept between
 * the two calls, so any instance can answer either.
 */
export function memberImportService({ lookups, gym }: { lookups: MemberImportRepository; gym: Pick<GymService, 'addImportedMembers'> }) {
  async function plan(csv: string): Promise<{ preview: MemberImportPreview; creates: CreateMember[] }> {
    const bytes = Buffer.byteLength(csv, 'utf8');
    if (bytes > MEMBER_IMPORT_MAX_BYTES) {
      throw tooLarge(`The file is ${megabytes(bytes)}; an import takes at most ${megabytes(MEMBER_IMPORT_MAX_BYTES)} (about ${MEMBER_IMPORT_MAX_ROWS.toLocaleString('en')} members). Split it and import each part.`);
    }
    // Excel may write its separator first ("sep=;"), a line it does not show (nor number) itself.
    const hint = /^\uFEFF?sep=([,;\t])\r?\n/i.exec(csv);
    const text = hint ? csv.slice(hint[0].length) : csv.replace(/^\uFEFF/, '');
    if (text.trim() === '') throw unreadable('The file is empty.');
    const separator = hint ? (hint[1] as Separator) : separatorOf(text);
    const [header, ...records] = recordsOf(text, separator);
    // Lines of separators alone (",,", ";;;": what a blank spreadsheet exports) are no rows, so no header either.
    if (!header) throw unreadable('The file is empty.');
    if (records.length > MEMBER_IMPORT_MAX_ROWS) {
      throw tooLarge(`The file has ${records.length.toLocaleString('en')} rows; an import takes at most ${MEMBER_IMPORT_MAX_ROWS.toLocaleString('en')}. Split it and import each part.`);
    }

    // The header row: each column's field (the first column of a field wins; others are ignored).
    const index = new Map<ImportField, number>();
    const columns = header.cells.map((text, i) => {
      const field = HEADERS[headerKey(text)] ?? null;
      if (field && !index.has(field)) {
        index.set(field, i);
        return { header: shown(text.trim()), field };
      }
      return { header: shown(text.trim()), field: null };
    });
    const missing = [
      ...(index.has('name') || index.has('firstName') || index.has('lastName') ? [] : ['name']),
      ...(index.has('email') ? [] : ['email']),
      ...(index.has('ownerEmail') ? [] : ['owner_email']),
    ];
    if (missing.length > 0) {
      const named = columns.map((c) => `“${c.header}”`).join(', ');
      throw unreadable(
        `The first row must name the columns: it has no ${missing.join(', no ')} column (it names ${named}). Expected name, email, owner_email and, if you like, membership (active, paused or cancelled).`,
      );
    }
    if (records.length === 0) throw unreadable('The file has its header row but no rows of members under it.');

    const cellOf = (cells: string[], field: ImportField) => {
      const i = index.get(field);
      return i === undefined ? '' : (cells[i] ?? '').trim();
    };
    const rows = records.map(({ cells, line }) => ({
      line,
      name: cellOf(cells, 'name') || [cellOf(cells, 'firstName'), cellOf(cells, 'lastName')].filter(Boolean).join(' '),
      email: cellOf(cells, 'email'),
      ownerEmail: cellOf(cells, 'ownerEmail'),
      membership: cellOf(cells, 'membership'),
    }));

    const emails = [...new Set(rows.flatMap((r) => validEmail(r.email) ?? []))];
    const ownerEmails = [...new Set(rows.flatMap((r) => validEmail(r.ownerEmail) ?? []))];
    const [owners, members] = await Promise.all([lookups.ownersByEmail(ownerEmails), lookups.membersByEmail(emails)]);

    const firstLineOf = new Map<string, number>();
    const planned = rows.map(({ line, name, email, ownerEmail, membership: membershipText }): Planned => {
      const problems: string[] = [];
      if (name === '') problems.push('No name');
      else if (name.length > NAME_MAX) problems.push(`Name is longer than ${NAME_MAX} characters`);
      const memberEmail = validEmail(email);
      const badEmail = emailProblem(email, 'Email');
      if (badEmail) problems.push(badEmail);
      if (memberEmail) {
        const first = firstLineOf.get(memberEmail);
        if (first !== undefined) problems.push(`Same email as row ${first}`);
        else firstLineOf.set(memberEmail, line);
      }
      const owner = owners.get(validEmail(ownerEmail) ?? '');
      const badOwner = emailProblem(ownerEmail, 'Owner email');
      if (badOwner) problems.push(badOwner);
      else if (!owner) problems.push(`No owner has the email ${shown(ownerEmail)}`);
      const membership = membershipText === '' ? 'active' : MEMBERSHIP_WORDS[membershipText.toLowerCase()];
      if (!membership) problems.push(`Membership “${shown(membershipText)}” is not one of active, paused, cancelled`);

      const base = { line, name: shown(name), email: shown(memberEmail ?? email), ownerEmail: shown(owner?.email ?? ownerEmail), membership: membership ?? shown(membershipText), memberId: null, differences: [] };
      // (Each of email, owner and membership missing is a problem above; the checks again narrow their types.)
      if (problems.length > 0 || !memberEmail || !owner || !membership) return { row: { ...base, outcome: 'problem', problems }, ownerId: owner?.id ?? null };
      const already = members.get(memberEmail);
      if (already) {
        const differences: ImportDifference[] = [
          ...(already.name !== name ? [{ field: 'name' as const, member: already.name, file: shown(name) }] : []),
          ...(already.ownerEmail.toLowerCase() !== owner.email.toLowerCase() ? [{ field: 'owner' as const, member: already.ownerEmail, file: owner.email }] : []),
          // An empty cell says nothing about the membership: only one written is compared.
          ...(membershipText !== '' && already.membership !== membership ? [{ field: 'membership' as const, member: already.membership, file: membership }] : []),
        ];
        return { row: { ...base, outcome: 'member', problems: [], memberId: already.id, differences }, ownerId: owner.id };
      }
      // The same checks as a member added by hand (the form's body schema), so an import adds nothing the form would refuse.
      const checked = v.safeParse(CreateMemberSchema, { email: memberEmail, name, ownerId: owner.id, membership });
      if (!checked.success) return { row: { ...base, outcome: 'problem', problems: checked.issues.map((issue) => issue.message) }, ownerId: owner.id };
      return { row: { ...base, outcome: 'new', problems: [] }, ownerId: owner.id, create: checked.output };
    });

    const count = (outcome: MemberImportRow['outcome']) => planned.filter((p) => p.row.outcome === outcome).length;
    const counts: ImportCounts = { rows: planned.length, new: count('new'), members: count('member'), problems: count('problem') };
    // What the confirm must find again: each row's outcome and what it would write (not the differences shown beside a member).
    const previewHash = createHash('sha256')
      .update(JSON.stringify(planned.map(({ row, ownerId, create }) => [row.line, row.outcome, row.email, row.name, ownerId, row.membership, row.memberId, create ? 1 : 0])))
      .digest('hex');
    return { preview: { separator, columns, rows: planned.map((p) => p.row), counts, previewHash }, creates: planned.flatMap((p) => (p.create ? [p.create] : [])) };
  }

  return {
    preview: async ({ csv }: MemberImportPreviewBody): Promise<MemberImportPreview> => (await plan(csv)).preview,

    /**
     * Adds the previewed new members, when the file read again now gives the preview's hash; else a
     * 409 (a member added or an owner gone since: the page previews again). An import that adds
     * members is audited once with its counts, beside each member's own entry; one that adds none
     * changed nothing and writes nothing.
     */
    async confirm(actor: AuditActor, { csv, previewHash }: MemberImportConfirmBody): Promise<MemberImportResult> {
      const { preview, creates } = await plan(csv);
      if (preview.previewHash !== previewHash) {
        throw conflict('The members or owners changed since this file was previewed, so it would not import as shown; nothing was imported. Look at the preview again and confirm it.');
      }
      const { counts } = preview;
      if (creates.length > 0) {
        await gym.addImportedMembers(actor, creates, {
          kind: 'member',
          action: 'imported',
          subject: `CSV import of ${counts.rows} row${counts.rows === 1 ? '' : 's'}`,
          changes: [
            { field: 'created', before: null, after: creates.length },
            { field: 'already members', before: null, after: counts.members },
            { field: 'rows left out', before: null, after: counts.problems },
          ],
        });
      }
      return { ...counts, created: creates.length };
    },
  };
}
export type MemberImportService = ReturnType<typeof memberImportService>;
