import { useEffect, useRef, useState } from 'react';
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import { PasskeyNameSchema, type Passkey } from '@contracts/account.contract';
import { DeleteButton, useConfirmDelete } from '@/components/confirm-delete';
import { TextField } from '@/components/form-fields';
import { Icon } from '@/components/icon';
import { useToast } from '@/components/toast-host';
import { ApiError, NetworkError, errorMessage } from '@/lib/api-client';
import { formatDate, formatWhen } from '@/lib/format';
import { useForm } from '@/lib/form-state';
import { PASSKEYS_UNSUPPORTED, createPasskey, passkeyPromptMessage, passkeysSupported, suggestedName } from '@/lib/passkeys';
import { addPasskey, passkeyOptions, removePasskey, renamePasskey } from './passkeys.api';
import './passkeys.css';

/**
 * The account page's passkeys: the ones this person has (name, added, last used, synced or kept on
 * one device), add one (the browser's prompt, then a name), rename and remove. The list comes from the
 * account read (`accountApi.get`); each change asks that read again, so the page's list follows.
 */
export function PasskeysSection({ passkeys, hasPassword = true }: { passkeys: readonly Passkey[]; hasPassword?: boolean }) {
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [problem, setProblem] = useState<string>();
  const [renaming, setRenaming] = useState<number>();
  const confirmDelete = useConfirmDelete();
  const toast = useToast();
  const supported = passkeysSupported();

  const add = async () => {
    setProblem(undefined);
    setRenaming(undefined);
    if (!passkeysSupported()) return setProblem(PASSKEYS_UNSUPPORTED);
    setStep({ kind: 'prompt' });
    try {
      const response = await createPasskey(await passkeyOptions());
      setStep({ kind: 'naming', response, suggested: suggestedName(response) });
    } catch (error) {
      setStep({ kind: 'idle' });
      setProblem(error instanceof ApiError || error instanceof NetworkError ? `Could not start adding a passkey: ${errorMessage(error)}` : passkeyPromptMessage(error, 'add'));
    }
  };

  const openRemove = (passkey: Passkey) =>
    confirmDelete({
      title: `Remove “${passkey.name}”?`,
      confirmLabel: 'Remove passkey',
      body: (
        <p>
          You can no longer sign in with it here. The device or password manager still lists it until you delete it there too.
        </p>
      ),
      blocked:
        !hasPassword && passkeys.length === 1 ? (
          <p>This passkey is your only way to sign in. Set a password or add another passkey first.</p>
        ) : undefined,
      remove: () => removePasskey({ params: { id: passkey.id } }),
      deleted: `Passkey “${passkey.name}” removed.`,
    });

  return (
    <section className="card stack" aria-labelledby="passkeys-title">
      <div className="card-head">
        <h2 id="passkeys-title" className="card-heading">
          <Icon name="key" /> Passkeys
        </h2>
        {step.kind === 'naming' ? null : (
          <button type="button" className="btn btn-primary btn-small" onClick={() => void add()} aria-disabled={step.kind === 'prompt' || undefined} aria-busy={step.kind === 'prompt'}>
            {step.kind === 'prompt' ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : <Icon name="plus" size={16} />}
            {step.kind === 'prompt' ? 'Waiting for your device…' : 'Add a passkey'}
          </button>
        )}
      </div>
      <p className="muted">
        Sign in with your fingerprint, face or screen lock instead of typing a password. A passkey stays on your device or in your password manager; the app
        keeps only its public half.
      </p>
      {supported ? null : <p className="muted small">{PASSKEYS_UNSUPPORTED}</p>}
      {problem ? (
        <div className="banner banner-danger" role="alert">
          {problem}
        </div>
      ) : null}
      {step.kind === 'prompt' ? (
        <p className="muted small" role="status">
          Follow your browser’s prompt to create the passkey.
        </p>
      ) : null}
      {step.kind === 'naming' ? (
        <NewPasskeyForm
          response={step.response}
          suggested={step.suggested}
          onSaved={(saved) => {
            setStep({ kind: 'idle' });
            toast.show({ tone: 'success', message: `Passkey “${saved.name}” added. Next time, sign in with it.` });
          }}
          onCancel={() => setStep({ kind: 'idle' })}
        />
      ) : null}

      {passkeys.length === 0 ? (
        <p className="passkeys-empty">You have no passkeys yet.</p>
      ) : (
        <ul className="passkey-list" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="passkey-row">
              {renaming === passkey.id ? (
                <RenameForm passkey={passkey} onDone={() => setRenaming(undefined)} />
              ) : (
                <>
                  <div className="passkey-main">
                    <span className="passkey-name">{passkey.name}</span>
                    <span className="passkey-sub">
                      Added {formatDate(passkey.createdAt)} · {passkey.lastUsedAt ? `last used ${formatWhen(passkey.lastUsedAt)}` : 'not used yet'}
                    </span>
                  </div>
                  {passkey.backedUp ? (
                    <span className="badge badge-ok" title="Your password manager keeps it on your other devices too">
                      Synced
                    </span>
                  ) : (
                    <span className="badge badge-muted" title="It stays on the one device or security key that made it">
                      One device
                    </span>
                  )}
                  <button type="button" className="icon-button" aria-label={`Rename ${passkey.name}`} onClick={() => setRenaming(passkey.id)}>
                    <Icon name="edit" size={18} />
                  </button>
                  <DeleteButton label={`Remove ${passkey.name}`} onClick={() => openRemove(passkey)} />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type Step = { kind: 'idle' } | { kind: 'prompt' } | { kind: 'naming'; response: RegistrationResponseJSON; suggested: string };

/** The passkey the browser just made, named and kept (the server checks it against the challenge it handed out). */
function NewPasskeyForm({ response, suggested, onSaved, onCancel }: { response: RegistrationResponseJSON; suggested: string; onSaved: (saved: Passkey) => void; onCancel: () => void }) {
  const form = useForm({
    schema: PasskeyNameSchema,
    initial: { name: suggested },
    toInput: (values) => values,
    send: async ({ name }) => onSaved(await addPasskey({ body: { name, response } })),
  });
  const input = useSelectedOnMount();
  return (
    <form ref={form.ref} onSubmit={form.onSubmit} noValidate className="passkey-name-form" aria-label="Name the new passkey" aria-busy={form.pending}>
      {form.errors.form ? (
        <div className="banner banner-danger" role="alert" tabIndex={-1}>
          {form.errors.form}
        </div>
      ) : null}
      <TextField label="Name this passkey" hint="So you can tell it from your others: the device or password manager that keeps it." maxLength={60} ref={input} {...form.field('name')} />
      <div className="form-actions">
        <button type="button" className="btn" onClick={onCancel} disabled={form.pending}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" aria-busy={form.pending} disabled={form.pending}>
          {form.pending ? 'Saving…' : 'Save passkey'}
        </button>
      </div>
    </form>
  );
}

function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) {
  const toast = useToast();
  const form = useForm({
    schema: PasskeyNameSchema,
    initial: { name: passkey.name },
    toInput: (values) => values,
    send: async (body) => {
      if (body.name !== passkey.name) {
        await renamePasskey({ params: { id: passkey.id }, body });
        toast.show({ tone: 'success', message: `Passkey renamed to “${body.name}”.` });
      }
      onDone();
    },
  });
  const input = useSelectedOnMount();
  return (
    <form ref={form.ref} onSubmit={form.onSubmit} noValidate className="passkey-name-form" aria-label={`Rename ${passkey.name}`} aria-busy={form.pending}>
      {form.errors.form ? (
        <div className="banner banner-danger" role="alert" tabIndex={-1}>
          {form.errors.form}
        </div>
      ) : null}
      <TextField label="New name" maxLength={60} ref={input} {...form.field('name')} onKeyDown={(event) => event.key === 'Escape' && onDone()} />
      <div className="form-actions">
        <button type="button" className="btn" onClick={onDone} disabled={form.pending}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" aria-busy={form.pending} disabled={form.pending}>
          {form.pending ? 'Saving…' : 'Save name'}
        </button>
      </div>
    </form>
  );
}

/** An inline name box takes the focus with its text selected, ready to be kept or typed over. */
function useSelectedOnMount() {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  return ref;
}
