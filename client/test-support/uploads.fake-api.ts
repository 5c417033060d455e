import type { RequestHandler } from 'msw';
import { DEFAULT_ALLOWED_TYPES, uploadsApi, type StoredUpload, type UploadLimits } from '@contracts/uploads.contract';
import { ADMIN_USER, signedInAs } from './test-utils';
import { handle, problem } from './test-server';

/**
 * Test support: `/api/uploads` behaving like `bff/features/uploads` as its contract describes it
 * (limits with this account's use, stored files newest first and paged, delete: staff their own,
 * admins any), as msw handlers. The tus side is `tus.fake-api.ts`, a stand-in for tus-js-client.
 */
export const MB = 1024 * 1024;

/** A file that says it has `size` bytes without holding them (jsdom would allocate 312 MB otherwise). */
export function sizedFile(name: string, size: number, type = ''): File {
  const f = new File(['x'], name, { type, lastModified: 1 });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

export const LIMITS: UploadLimits = {
  maxFileBytes: 250 * MB,
  maxBatchBytes: 1024 * MB,
  maxBatchFiles: 10,
  allowedTypes: Object.fromEntries(Object.entries(DEFAULT_ALLOWED_TYPES).map(([type, extensions]) => [type, [...extensions]])),
  quotaBytes: 2048 * MB,
  usedBytes: 120 * MB,
  chunkBytes: 8 * MB,
};

export const SAM = { id: 7, name: 'Sam Rivera' };

const at = (minutesAgo: number) => new Date(Date.UTC(2026, 2, 1, 12, 0) - minutesAgo * 60_000).toISOString();

export function storedUpload(id: number, overrides: Partial<StoredUpload> = {}): StoredUpload {
  return {
    id,
    name: `file-${id}.pdf`,
    type: 'application/pdf',
    size: 2 * MB + id,
    sha256: id.toString(16).padStart(64, '0'),
    uploadedBy: { id: ADMIN_USER.id, name: ADMIN_USER.name },
    createdAt: at(100 - id),
    ...overrides,
  };
}

export type FakeUploads = {
  limits: UploadLimits;
  files: StoredUpload[];
  /** The signed-in account's role: the admin of test-utils, or (same id) a staff member, who deletes only their own files. */
  role: 'admin' | 'staff';
  handlers: RequestHandler[];
};

export function fakeUploads(init: { files?: StoredUpload[]; limits?: Partial<UploadLimits>; role?: 'admin' | 'staff' } = {}): FakeUploads {
  const fake: FakeUploads = {
    limits: { ...LIMITS, ...init.limits },
    files: [...(init.files ?? [])],
    role: init.role ?? 'admin',
    handlers: [],
  };
  fake.handlers = [
    ...(fake.role === 'staff' ? [signedInAs({ name: 'Ada Staff', role: 'staff' })] : []),
    handle(uploadsApi.limits, () => fake.limits),
    // As the server pages: from the key a cursor names (`<ms>-<id>`, a row that may be gone since), else by number.
    handle(uploadsApi.list, ({ query: { page, pageSize, next, previous } }) => {
      const keyOf = (f: StoredUpload) => [Date.parse(f.createdAt), f.id] as const;
      const cursorOf = (f: StoredUpload) => keyOf(f).join('-');
      const newer = (a: readonly number[], b: readonly number[]) => a[0]! > b[0]! || (a[0] === b[0] && a[1]! > b[1]!);
      const sorted = [...fake.files].sort((a, b) => (newer(keyOf(a), keyOf(b)) ? -1 : 1));
      const key = (cursor: string) => cursor.split('-').map(Number);
      const start = next
        ? sorted.filter((f) => newer(keyOf(f), key(next)) || cursorOf(f) === next).length
        : previous
          ? Math.max(0, sorted.filter((f) => newer(keyOf(f), key(previous))).length - pageSize)
          : page * pageSize;
      const items = sorted.slice(start, start + pageSize);
      const more = start + pageSize < sorted.length;
      return {
        items,
        page,
        pageSize,
        total: sorted.length,
        ...(more && items.length ? { next: cursorOf(items.at(-1)!) } : {}),
        ...(page > 0 && items.length ? { previous: cursorOf(items[0]!) } : {}),
      };
    }),
    handle(uploadsApi.remove, ({ params }) => {
      const file = fake.files.find((f) => f.id === params.id);
      if (!file) return problem(404, 'Not Found', `No file with id ${params.id}.`);
      if (fake.role !== 'admin' && file.uploadedBy.id !== ADMIN_USER.id) return problem(403, 'Forbidden', 'You can delete the files you uploaded; an admin can delete any.');
      fake.files = fake.files.filter((f) => f.id !== file.id);
      fake.limits = { ...fake.limits, usedBytes: Math.max(0, fake.limits.usedBytes - file.size) };
    }),
  ];
  return fake;
}
