import * as v from 'valibot';

/**
 * Members imported from the venue's spreadsheet, saved as CSV (decision 0106): the file's text is
 * previewed (nothing written), then confirmed with the preview's hash, which the server checks
 * against the file read again, so what is written is what was shown, on whichever instance answers.
 */

/** The largest file an import takes (its text, UTF-8), and the most rows after its header. */
export const MEMBER_IMPORT_MAX_BYTES = 1024 * 1024;
export const MEMBER_IMPORT_MAX_ROWS = 5_000;

/** The file's text as it was read (any size here: the server answers a 413 past `MEMBER_IMPORT_MAX_BYTES`). */
const CsvTextSchema = v.string('Send the file’s text as csv');

export const MemberImportPreviewBodySchema = v.object({ csv: CsvTextSchema });
export type MemberImportPreviewBody = v.InferOutput<typeof MemberImportPreviewBodySchema>;

/** The hash a preview answered: a confirm writes only when the file, read again now, gives the same. */
export const PreviewHashSchema = v.pipe(v.string('Send the preview’s hash'), v.regex(/^[0-9a-f]{64}$/, 'Expected the previewHash a preview answered'));

export const MemberImportConfirmBodySchema = v.object({ csv: CsvTextSchema, previewHash: PreviewHashSchema });
export type MemberImportConfirmBody = v.InferOutput<typeof MemberImportConfirmBodySchema>;

/** What the file's columns are taken for: each header is matched by its letters (Name, Full name, E-mail, Owner email…). */
export const IMPORT_FIELDS = ['name', 'email', 'ownerEmail', 'membership', 'firstName', 'lastName'] as const;
export const ImportColumnSchema = v.object({ header: v.string(), field: v.nullable(v.picklist(IMPORT_FIELDS)) });

/**
 * What the import does with a row: `new`, a member is added; `member`, the email is a member's
 * already and they are left as they are (`differences` says where the file says otherwise);
 * `problem`, the row is left out (`problems` says why, in words).
 */
export const IMPORT_OUTCOMES = ['new', 'member', 'problem'] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

export const ImportDifferenceSchema = v.object({ field: v.picklist(['name', 'owner', 'membership']), member: v.string(), file: v.string() });
export type ImportDifference = v.InferOutput<typeof ImportDifferenceSchema>;

export const MemberImportRowSchema = v.object({
  /** The row's number as a spreadsheet shows the file (its header is row 1; empty lines count). */
  line: v.number(),
  name: v.string(),
  email: v.string(),
  ownerEmail: v.string(),
  /** As the row will be (empty in the file: active), or as written when it is not a membership. */
  membership: v.string(),
  outcome: v.picklist(IMPORT_OUTCOMES),
  problems: v.array(v.string()),
  /** `member`: who they are. */
  memberId: v.nullable(v.number()),
  differences: v.array(ImportDifferenceSchema),
});
export type MemberImportRow = v.InferOutput<typeof MemberImportRowSchema>;

export const ImportCountsSchema = v.object({ rows: v.number(), new: v.number(), members: v.number(), problems: v.number() });
export type ImportCounts = v.InferOutput<typeof ImportCountsSchema>;

export const MemberImportPreviewSchema = v.object({
  separator: v.picklist([',', ';', '\t']),
  columns: v.array(ImportColumnSchema),
  rows: v.array(MemberImportRowSchema),
  counts: ImportCountsSchema,
  /** Send it back with the file to confirm. */
  previewHash: v.string(),
});
export type MemberImportPreview = v.InferOutput<typeof MemberImportPreviewSchema>;

/** What a confirm did: `created` members added; the rest were members already or left out with their problems. */
export const MemberImportResultSchema = v.object({ ...ImportCountsSchema.entries, created: v.number() });
export type MemberImportResult = v.InferOutput<typeof MemberImportResultSchema>;
