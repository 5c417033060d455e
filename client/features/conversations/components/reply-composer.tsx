import { useId, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { conversationsApi } from '@contracts/conversations.contract';
import { MAX_MESSAGE_LENGTH } from '@contracts/message.contract';
import { Icon } from '@/components/icon';
import { useDraft, type DraftPlace } from '@/lib/drafts';
import { checkInput, withoutSent } from '@/lib/form-state';
import { firstKeyIn, formErrors } from '@/lib/problem-fields';

/** From here on the composer says how many characters are left. */
const COUNT_FROM = MAX_MESSAGE_LENGTH - 200;

/**
 * The reply box under a thread: Enter sends, Shift+Enter starts a new line (and Enter while an
 * input method is composing a character is left to it). The text stays when sending fails, with
 * the reason under it, and is kept as a `draft` while it is not sent.
 */
export function ReplyComposer({ label, placeholder, draft, send }: { label: string; placeholder?: string; draft: DraftPlace; send: (body: string) => Promise<unknown> }) {
  const id = useId();
  const { text, setText, latest } = useDraft(draft);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async () => {
    if (pending) return;
    // The endpoint's own body schema says what is missing or too long, in the server's words.
    const invalid = checkInput(conversationsApi.reply.body, { body: text }, firstKeyIn(['body']));
    if (invalid.fields.body) return setError(invalid.fields.body);
    const body = text.trim();
    setPending(true);
    setError(undefined);
    const sent = text;
    try {
      await send(body);
      setText(withoutSent(latest.current, sent));
    } catch (failure) {
      const { fields, form } = formErrors(failure, ['body'] as const);
      setError(fields.body ?? form);
    } finally {
      setPending(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  const describedBy = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <form className="composer" onSubmit={onSubmit} noValidate>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <div className="composer-row">
        <textarea
          id={id}
          rows={2}
          value={text}
          placeholder={placeholder ?? label}
          maxLength={MAX_MESSAGE_LENGTH}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            if (error) setError(undefined);
          }}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="btn btn-primary composer-send" aria-busy={pending} aria-disabled={pending || undefined}>
          {pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : <Icon name="arrow" size={18} />}
          {pending ? 'Sending…' : 'Send'}
        </button>
      </div>
      <p id={`${id}-hint`} className="field-hint composer-hint">
        <kbd>Enter</kbd> sends · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
        {text.length >= COUNT_FROM ? <span className="tabular"> · {MAX_MESSAGE_LENGTH - text.length} characters left</span> : null}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
