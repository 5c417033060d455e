import crypto from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A passkey authenticator in Node for the BFF's tests: what a browser and its platform authenticator
 * answer to `navigator.credentials.create/get`, as `@simplewebauthn/browser` sends it (base64url JSON).
 * One ES256 (P-256) key per credential, attestation 'none', user present and verified; the counter
 * can be set to act as a cloned authenticator. Chromium's virtual authenticator covers the browser
 * side (e2e/passkeys.e2e.ts); this one lets the service's checks be tested on both engines.
 */

type Cbor = Parameters<typeof isoCBOR.encode>[0];

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();

/** Authenticator data flags: user present, user verified, backup eligible and state, attested credential data. */
const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

export interface SoftwareCredential {
  id: string;
  userHandle: string;
  counter: number;
}

interface Held extends SoftwareCredential {
  privateKey: crypto.KeyObject;
  rpId: string;
}

interface Options {
  challenge: string;
  rp?: { id?: string };
  rpId?: string;
  user?: { id: string };
}

export function softwareAuthenticator(settings: { origin: string; synced?: boolean }) {
  const held: Held[] = [];
  const flagsOf = (extra = 0) => FLAG.UP | FLAG.UV | (settings.synced ? FLAG.BE | FLAG.BS : 0) | extra;
  const counterBytes = (counter: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(counter);
    return bytes;
  };
  const clientData = (type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    credentials: held as readonly SoftwareCredential[],

    /** Answers registration options (`generateRegistrationOptions`' JSON) with a new credential. */
    create(options: Options, overrides: { origin?: string; rpId?: string } = {}) {
      const rpId = overrides.rpId ?? options.rp?.id ?? new URL(settings.origin).hostname;
      const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
      const coseKey = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
      const credentialId = crypto.randomBytes(32);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([sha256(rpId), Buffer.from([flagsOf(FLAG.AT)]), counterBytes(0), Buffer.alloc(16), idLength, credentialId, coseKey]);
      const attestationObject = isoCBOR.encode(new Map<string, Cbor>([['fmt', 'none'], ['attStmt', new Map<string, Cbor>()], ['authData', authData]]));
      const id = b64url(credentialId);
      held.push({ id, userHandle: options.user?.id ?? '', counter: 0, privateKey, rpId });
      return {
        id,
        rawId: id,
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, overrides.origin ?? settings.origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },

    /** Answers sign-in options with an assertion of a held credential (the first, unless named). */
    get(options: Options, overrides: { credentialId?: string; origin?: string; counter?: number; userVerified?: boolean } = {}) {
      const credential = overrides.credentialId ? held.find((c) => c.id === overrides.credentialId) : held[0];
      if (!credential) throw new Error('The software authenticator holds no such credential');
      credential.counter = overrides.counter ?? credential.counter + 1;
      const flags = overrides.userVerified === false ? flagsOf() & ~FLAG.UV : flagsOf();
      const authenticatorData = Buffer.concat([sha256(options.rpId ?? credential.rpId), Buffer.from([flags]), counterBytes(credential.counter)]);
      const clientDataJSON = clientData('webauthn.get', options.challenge, overrides.origin ?? settings.origin);
      const signature = crypto.sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.privateKey);
      return {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authenticatorData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      };
    },
  };
}
