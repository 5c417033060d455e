import crypto from 'node:crypto';

/**
 * An answer serialized once, for a read that many ask for between two changes (the open orders'
 * pages every board and stall screen refills): the endpoint router sends its bytes and ETag as they
 * are, instead of serializing, hashing and copying the same value for every request. `value` is
 * what the bytes say, for the tests' check of answers against their contract.
 */
export class SerializedJson<T> {
  readonly bytes: Buffer;
  /** A weak validator, as Express makes one for `res.json` (a revisit with it gets a 304). */
  readonly etag: string;

  constructor(readonly value: T) {
    this.bytes = Buffer.from(JSON.stringify(value));
    this.etag = `W/"${this.bytes.length.toString(16)}-${crypto.createHash('sha1').update(this.bytes).digest('base64').slice(0, 27)}"`;
  }
}
