import type { SessionUser } from '../../contracts/auth.contract';
import { softwareAuthenticator } from '../../test-support/software-authenticator';
import { HttpError } from '../../lib/http-error';
import type { Account } from './accounts.repository';
import type { PasskeysRepository, StoredPasskey } from './passkeys.repository';
import { passkeysService } from './passkeys.service';

/**
 * The service's answers when the database fails while a challenge is taken: the library calls our
 * check of the challenge inside its own, and treats what it throws as a refusal; a database away is
 * not one (the request is answered 503 by the error handler, and the person tries again), so the
 * service hands on the database's error instead of a 400 or 401.
 */
const ORIGIN = 'http://localhost:5173';
const RP = { rpID: 'localhost', origin: ORIGIN };
const USER: SessionUser = { id: 7, email: 'ada@frontdesk.test', name: 'Ada', role: 'staff' };
const ACCOUNT: Account = { ...USER, passwordHash: 'x', status: 'active' };
const DATABASE_AWAY = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

function serviceWith(consumeChallenge: PasskeysRepository['consumeChallenge']) {
  const device = softwareAuthenticator({ origin: ORIGIN });
  const created = device.create({ challenge: 'cmVnaXN0ZXI', rp: { id: 'localhost' }, user: { id: 'aGFuZGxl' } });
  const stored: StoredPasskey = { id: 1, accountId: USER.id, credentialId: created.id, publicKey: 'AA', counter: 0, transports: [], name: 'Laptop', createdAt: '', lastUsedAt: null, backedUp: false };
  const passkeys = {
    consumeChallenge,
    findByCredentialId: async () => stored,
    userHandleOf: async () => 'aGFuZGxl',
  } as Partial<PasskeysRepository> as PasskeysRepository;
  const service = passkeysService({
    passkeys,
    accounts: { findById: async () => ACCOUNT },
    inTransaction: () => Promise.reject(new Error('no write expected')),
    auth: { openSession: () => Promise.reject(new Error('no session expected')) },
  });
  return { service, device, created };
}

describe('passkeys service, the database failing while a challenge is taken', () => {
  it('hands on the database’s error for a sign-in, not a refusal', async () => {
    const { service, device } = serviceWith(() => Promise.reject(DATABASE_AWAY));
    await expect(service.signIn(RP, device.get({ challenge: 'c2lnbi1pbg' }), { userAgent: '', address: '' })).rejects.toBe(DATABASE_AWAY);
  });

  it('hands on the database’s error for a registration, not a refusal', async () => {
    const { service, created } = serviceWith(() => Promise.reject(DATABASE_AWAY));
    await expect(service.add(USER, RP, { name: 'Laptop', response: created })).rejects.toBe(DATABASE_AWAY);
  });

  it('still refuses with the generic 401 when the challenge is simply not ours', async () => {
    const { service, device } = serviceWith(async () => false);
    const refused = await service.signIn(RP, device.get({ challenge: 'c2lnbi1pbg' }), { userAgent: '', address: '' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 401, detail: 'Signing in with this passkey did not work. Try again, or sign in with your password.' });
  });
});
