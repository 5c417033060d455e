import type { UploadLimits } from '@contracts/uploads.contract';
import { formatBytes } from '@/lib/format';

/**
 * The server's upload limits, checked in the browser before a byte is sent (the server checks them
 * again): which files of a choice may go, the type each is sent as, and why any other is refused,
 * plus the limits and sizes in words.
 */

/** A speed: "2.1 MB/s". */
export const formatSpeed = (bytesPerSecond: number) => `${formatBytes(Math.round(bytesPerSecond))}/s`;

/** Time left, roughly: "about 5 s", "about 3 min", "about 1 h 20 min". */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `about ${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `about ${hours} h ${rest} min` : `about ${hours} h`;
}

export const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
};

/** Every accepted extension once, in the server's order. */
export const acceptedExtensions = (limits: Pick<UploadLimits, 'allowedTypes'>) => [...new Set(Object.values(limits.allowedTypes).flat())];

/** The kinds in words: "PNG, JPG, JPEG, PDF, …". */
export const acceptedKinds = (limits: Pick<UploadLimits, 'allowedTypes'>) =>
  acceptedExtensions(limits)
    .map((ext) => ext.toUpperCase())
    .join(', ');

/** The file picker's `accept`: the MIME types and the extensions, so it offers only what may go. */
export const acceptAttribute = (limits: Pick<UploadLimits, 'allowedTypes'>) =>
  [...Object.keys(limits.allowedTypes), ...acceptedExtensions(limits).map((ext) => `.${ext}`)].join(',');

/** Types that say nothing about the content (the browser did not know): the extension decides. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

export type FileCheck = { ok: true; type: string } | { ok: false; reason: string };

/**
 * What one file may be sent as, by its own limits: the name's extension picks the allowed type
 * (a browser's own type wins when it is one of the candidates; some browsers call a .csv
 * "application/vnd.ms-excel", and a .md "text/markdown"). A browser type of another family than
 * the extension's (a ".png" that says it is video) is refused.
 */
export function checkFile(file: { name: string; size: number; type: string }, limits: Pick<UploadLimits, 'allowedTypes' | 'maxFileBytes'>): FileCheck {
  const kinds = acceptedKinds(limits);
  if (file.size === 0) return { ok: false, reason: 'This file is empty: there is nothing to upload.' };
  const ext = extensionOf(file.name);
  if (!ext) return { ok: false, reason: `This file has no extension, so its kind is unknown. Accepted: ${kinds}.` };
  const candidates = Object.entries(limits.allowedTypes)
    .filter(([, extensions]) => extensions.includes(ext))
    .map(([type]) => type);
  if (candidates.length === 0) return { ok: false, reason: `.${ext} files are not accepted. Accepted: ${kinds}.` };
  const claimed = file.type.toLowerCase();
  let type = candidates[0]!;
  if (candidates.includes(claimed)) type = claimed;
  else if (!GENERIC_TYPES.has(claimed) && !(claimed in limits.allowedTypes) && claimed.split('/')[0] !== type.split('/')[0]) {
    return { ok: false, reason: `The file says it is ${claimed}, which is not what a .${ext} file holds.` };
  }
  if (file.size > limits.maxFileBytes) {
    return { ok: false, reason: `This file is ${formatBytes(file.size)}; the limit is ${formatBytes(limits.maxFileBytes)} per file.` };
  }
  return { ok: true, type };
}

export type BatchDecision<F> = { file: F; ok: true; type: string } | { file: F; ok: false; reason: string };

/**
 * The files chosen together (one pick or one drop), in order: each file's own check, then the
 * batch's count and bytes (unless the files do not go as a `batch`) and the account's free space.
 * `uncountedBytes` is what this page has queued that the server's `usedBytes` does not count yet
 * (files not started).
 */
export function checkBatch<F extends { name: string; size: number; type: string }>(
  files: readonly F[],
  limits: UploadLimits,
  { uncountedBytes = 0, batch = true }: { uncountedBytes?: number; batch?: boolean } = {},
): BatchDecision<F>[] {
  let count = 0;
  let bytes = 0;
  const free = limits.quotaBytes - limits.usedBytes - uncountedBytes;
  return files.map((file): BatchDecision<F> => {
    const check = checkFile(file, limits);
    if (!check.ok) return { file, ok: false, reason: check.reason };
    if (batch && count + 1 > limits.maxBatchFiles) {
      return { file, ok: false, reason: `At most ${limits.maxBatchFiles} files can go at once: add this one again when the others are done.` };
    }
    if (batch && bytes + file.size > limits.maxBatchBytes) {
      return { file, ok: false, reason: `It would bring this batch to ${formatBytes(bytes + file.size)}; at most ${formatBytes(limits.maxBatchBytes)} can go at once.` };
    }
    if (bytes + file.size > free) {
      return {
        file,
        ok: false,
        reason: `It does not fit in your space: ${formatBytes(Math.max(0, free - bytes))} of ${formatBytes(limits.quotaBytes)} is free. Delete some files first.`,
      };
    }
    count += 1;
    bytes += file.size;
    return { file, ok: true, type: check.type };
  });
}

/** A stored type in words, by the extensions it may carry ("PDF", "JPG"); the MIME type when it is not one of the allowed. */
export function kindOf(type: string, limits: Pick<UploadLimits, 'allowedTypes'>): string {
  const extensions = limits.allowedTypes[type];
  return extensions?.[0] ? extensions[0].toUpperCase() : type;
}
