import { accountApi } from '@contracts/account.contract';
import { write } from '@/lib/endpoint-write';

/**
 * The account page's passkey writes (docs/decisions/0001-one-way-to-write.md): each leaves the
 * account read out of date, so the list the page shows is asked again.
 */

/** A fresh challenge for the browser's "create a passkey" prompt (changes nothing the page shows). */
export const passkeyOptions = write(accountApi.passkeyOptions);
export const addPasskey = write(accountApi.addPasskey, { stale: [accountApi.get] });
export const renamePasskey = write(accountApi.renamePasskey, { stale: [accountApi.get], staleWhenRefused: [accountApi.get] });
export const removePasskey = write(accountApi.removePasskey, { stale: [accountApi.get], staleWhenRefused: [accountApi.get] });
