import { DEFAULT_ALLOWED_TYPES, type StoredUpload, type UploadLimits } from '@contracts/uploads.contract';
import { ADMIN_USER, problem } from '@/test-utils';
import type { FakeHandler, FakeReply } from '@/test-utils';

/**
 * Test support: `/api/uploads` behaving like `bff/features/uploads` as its contract describes it
 * (limits with this account's use, stored files newest first and paged, delete: staff their own,
 * admins any). The tus side is `tus.fake-api.ts`.
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
  /** Answers the next list read with this instead. */
  failNextList?: FakeReply;
  handler: FakeHandler;
};

export function fakeUploads(init: { files?: StoredUpload[]; limits?: Partial<UploadLimits>; role?: 'admin' | 'staff' } = {}): FakeUploads {
  const fake: FakeUploads = {
    limits: { ...LIMITS, ...init.limits },
    files: [...(init.files ?? [])],
    role: init.role ?? 'admin',
    handler: () => undefined,
  };
  fake.handler = ({ method, url }) => {
    const path = url.pathname;
    if (path === '/api/auth/getAuth' && fake.role === 'staff') return { json: { user: { ...ADMIN_USER, name: 'Ada Staff', role: 'staff' } } };
    if (path === '/api/uploads/limits' && method === 'GET') return { json: fake.limits };
    if (path === '/api/uploads' && method === 'GET') {
      const failure = fake.failNextList;
      fake.failNextList = undefined;
      if (failure) return failure;
      const page = Number(url.searchParams.get('page') ?? '0');
      const size = Number(url.searchParams.get('pageSize') ?? '10');
      const sorted = [...fake.files].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
      return { json: { items: sorted.slice(page * size, page * size + size), page, pageSize: size, total: sorted.length } };
    }
    const match = /^\/api\/uploads\/(\d+)$/.exec(path);
    if (match && method === 'DELETE') {
      const file = fake.files.find((f) => f.id === Number(match[1]));
      if (!file) return problem(404, 'Not Found', `No file with id ${match[1]}.`);
      if (fake.role !== 'admin' && file.uploadedBy.id !== ADMIN_USER.id) return problem(403, 'Forbidden', 'You can delete the files you uploaded; an admin can delete any.');
      fake.files = fake.files.filter((f) => f.id !== file.id);
      fake.limits = { ...fake.limits, usedBytes: Math.max(0, fake.limits.usedBytes - file.size) };
      return { status: 204 };
    }
    return undefined;
  };
  return fake;
}
