import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

/**
 * scrypt's cost: 2^14, about 50 ms of a core per hash. Under Jest (NODE_ENV=test) 2^10, as Devise
 * lowers its stretches in tests: the suites hash and check a few hundred passwords a pass, which at
 * full cost was a quarter of the BFF tests' CPU. The stored hash names its own cost, so either verifies.
 */
const PARAMS = { N: process.env.NODE_ENV === 'test' ? 2 ** 10 : 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$salt$hash`, so parameters can be raised later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem,
  });
  return crypto.timingSafeEqual(actual, expected);
}

/** A hash to compare against when the email is unknown, so both failures take the same time. */
export const DUMMY_HASH_PROMISE = hashPassword(crypto.randomBytes(16).toString('hex'));

export const generatePassword = (): string => crypto.randomBytes(18).toString('base64url');
