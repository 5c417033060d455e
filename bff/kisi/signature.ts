import crypto from 'node:crypto';

/** Kisi's webhook signature: HMAC-SHA256 of the raw body with the shared key, as lowercase hex. */
export const signBody = (body: Buffer | string, secret: string): string => crypto.createHmac('sha256', secret).update(body).digest('hex');

/**
 * Checks an `X-Signature` header against the raw body: hex, with or without a `sha256=` prefix
 * (Kisi's spec and its docs disagree on the prefix), compared in constant time.
 */
export function verifySignature(header: string | undefined, body: Buffer, secret: string): boolean {
  if (!header) return false;
  const hex = header.trim().replace(/^sha256=/i, '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hex)) return false;
  const expected = Buffer.from(signBody(body, secret), 'hex');
  return crypto.timingSafeEqual(Buffer.from(hex, 'hex'), expected);
}
