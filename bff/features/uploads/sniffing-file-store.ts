import crypto from 'node:crypto';
import type http from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { bytesMatchType, FEWEST_TELLING_BYTES, SNIFF_BYTES } from './sniff';

/** tus answers an error thrown by a store with its `status_code` and `body`. */
export class RefusedUpload extends Error {
  constructor(
    readonly status_code: number,
    readonly detail: string,
  ) {
    super(detail);
  }
  get body() {
    return this.detail;
  }
}

/**
 * Holds back a file's first bytes until they show what the file is: only bytes that match the
 * claimed type are written, so a refused file leaves nothing on disk. A first PATCH that ends (or
 * breaks off) before it sent enough to tell keeps none of its bytes: the client sends them again
 * from offset 0, and the upload is not refused for a dropped connection.
 */
function sniffer(type: string, name: string, size: number): { stream: Transform; refusal: () => RefusedUpload | undefined } {
  const held: Buffer[] = [];
  let heldBytes = 0;
  let decided = false;
  let refusal: RefusedUpload | undefined;
  const decide = (stream: Transform): Error | undefined => {
    decided = true;
    const start = Buffer.concat(held);
    if (!bytesMatchType(type, start.subarray(0, SNIFF_BYTES))) {
      refusal = new RefusedUpload(415, `${name} does not hold what a ${type} file holds (its first bytes say otherwise), so nothing was stored.`);
      return refusal;
    }
    stream.push(start);
    held.length = 0;
    return undefined;
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (decided) return callback(null, chunk);
      held.push(chunk);
      heldBytes += chunk.length;
      callback(heldBytes >= SNIFF_BYTES ? decide(this) : undefined);
    },
    flush(callback: TransformCallback) {
      if (!decided && heldBytes < Math.min(FEWEST_TELLING_BYTES, size)) {
        held.length = 0;
        return callback();
      }
      callback(decided ? undefined : decide(this));
    },
  });
  return { stream, refusal: () => refusal };
}

/** The SHA-256 of an upload's bytes so far, fed as they are written; `offset` is how many it has seen. */
interface RunningHash {
  hash: crypto.Hash;
  offset: number;
}

/**
 * tus's own file store, checking each upload's first bytes against the type it claimed before any
 * of them are written; a mismatch is a 415 and the upload is removed. Whatever removes an upload
 * (a refusal, termination, expiry) also forgets it (`onRemoved`) before it answers, so its place in
 * the quota is free by the time the client hears back.
 *
 * It also hashes the bytes as they are written, so a finished upload's SHA-256 is known without
 * reading the file back (that re-read was up to 43 % of a 200 MB upload). The running hash holds only
 * while the PATCHes follow each other in this process: one that fails, or starts at an offset the hash
 * has not reached (another instance wrote in between, or this process restarted), drops it, and
 * {@link finishedHash} then answers undefined so the caller reads the file.
 */
export class SniffingFileStore extends FileStore {
  private readonly running = new Map<string, RunningHash>();

  constructor(
    options: ConstructorParameters<typeof FileStore>[0],
    private readonly claimOf: (id: string) => Promise<{ type: string; name: string; size: number } | undefined>,
    private readonly onRemoved: (id: string) => Promise<void>,
  ) {
    super(options);
  }

  override async remove(id: string): Promise<void> {
    this.running.delete(id);
    try {
      await super.remove(id);
    } finally {
      await this.onRemoved(id);
    }
  }

  /** The SHA-256 (hex) of a finished upload of `size` bytes when every byte went through this store's hash, and forgets it. */
  finishedHash(id: string, size: number): string | undefined {
    const state = this.running.get(id);
    this.running.delete(id);
    return state && state.offset === size ? state.hash.digest('hex') : undefined;
  }

  override async write(readable: http.IncomingMessage | Readable, id: string, offset: number): Promise<number> {
    if (offset !== 0) return this.writeHashed(readable, id, offset);
    const claim = await this.claimOf(id);
    if (!claim) throw new RefusedUpload(404, 'No such upload under way.');
    const checked = sniffer(claim.type, claim.name, claim.size);
    readable.on('error', (err) => checked.stream.destroy(err));
    try {
      return await this.writeHashed(readable.pipe(checked.stream), id, offset);
    } catch (err) {
      // The file store words every failure as its own write error: the refusal is known here.
      const refusal = checked.refusal();
      if (!refusal) throw err;
      await this.remove(id).catch(() => undefined);
      throw refusal;
    }
  }

  /** The file store's write, with the bytes it is given fed to the upload's running hash on the way. */
  private async writeHashed(readable: Readable, id: string, offset: number): Promise<number> {
    const state = offset === 0 ? { hash: crypto.createHash('sha256'), offset: 0 } : this.running.get(id);
    this.running.delete(id);
    if (!state || state.offset !== offset) return super.write(readable, id, offset);
    let seen = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        state.hash.update(chunk);
        seen += chunk.length;
        callback(null, chunk);
      },
    });
    readable.on('error', (err) => hashing.destroy(err));
    const written = await super.write(readable.pipe(hashing), id, offset);
    // Kept only when the store wrote exactly what the hash saw (a failed write threw above and dropped it).
    if (written === offset + seen) this.running.set(id, { hash: state.hash, offset: written });
    return written;
  }
}
