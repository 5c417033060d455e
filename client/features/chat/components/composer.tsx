import { useId, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { MAX_MESSAGE_LENGTH } from '@contracts/message.contract';
import * as v from 'valibot';
import type { Channel } from '@contracts/chat.contract';
import { Icon } from '@/components/icon';
import { errorMessage } from '@/lib/api-client';
import { useDraft } from '@/lib/drafts';
import { withoutSent } from '@/lib/form-state';
import { useShellUser } from '@/lib/session';
import { sendMessage } from '@/features/chat/chat.api';

/** The counter shows from here on, before the limit is reached. */
export const COUNTER_FROM = MAX_MESSAGE_LENGTH - 200;

/**
 * Writes a message: Enter sends, Shift+Enter starts a new line. Send stays disabled while the
 * text is blank or too long; a refusal (rate limit, archived channel) stays above the box and the
 * draft stays in it.
 */
export function Composer({ channel, compact = false }: { channel: Channel; compact?: boolean }) {
  const me = useShellUser();
  // Switching channel, layout or page, or reloading, finds the half-written message where it was left.
  const { text, setText, latest } = useDraft({ owner: me.id, place: `chat.${channel.id}` });
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const sending = useRef(false);
  const id = useId();
  // What the server counts: the text trimmed, checked with the endpoint's own body schema.
  const length = text.trim().length;
  const sendable = v.is(sendMessage.endpoint.body, { body: text });
  const over = length > MAX_MESSAGE_LENGTH;
  const showCounter = length >= COUNTER_FROM;

  const send = async () => {
    if (sending.current || !sendable) return;
    sending.current = true;
    setPending(true);
    setError(undefined);
    const sent = text;
    try {
      await sendMessage({ params: { id: channel.id }, body: { body: sent } });
      setText(withoutSent(latest.current, sent));
    } catch (failure) {
      // Archived meanwhile (409): the write has read the lists again, so the page shows the channel as it is now.
      setError(errorMessage(failure));
    } finally {
      sending.current = false;
      setPending(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME composing a word uses Enter to pick it, not to send.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  if (channel.archivedAt) {
    return (
      <p className="chat-composer chat-archived muted">
        <Icon name="lock" size={16} /> This channel is archived: it can be read, not written in.
      </p>
    );
  }

  const lines = text.split('\n').length;
  const describedBy = [error ? `${id}-error` : '', showCounter ? `${id}-counter` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <form className={`chat-composer${compact ? ' is-compact' : ''}`} onSubmit={onSubmit} aria-label={`Write to ${channel.name}`}>
      {error ? (
        <p id={`${id}-error`} className="banner banner-danger chat-composer-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="chat-composer-row">
        <label htmlFor={id} className="visually-hidden">
          Message
        </label>
        <textarea
          id={id}
          className="chat-input"
          value={text}
          rows={Math.min(compact ? 3 : 6, Math.max(1, lines))}
          placeholder={`Message ${channel.name}`}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={over || undefined}
          aria-describedby={describedBy}
        />
        <button type="submit" className="btn btn-primary chat-send" disabled={!sendable} aria-busy={pending}>
          {pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : <Icon name="arrow" size={18} />}
          <span className={compact ? 'visually-hidden' : undefined}>{pending ? 'Sending…' : 'Send'}</span>
        </button>
      </div>
      {showCounter ? (
        <p id={`${id}-counter`} className={`chat-counter${over ? ' is-over' : ''}`} aria-live="polite">
          {over ? `${length - MAX_MESSAGE_LENGTH} characters over the limit of ${MAX_MESSAGE_LENGTH}` : `${MAX_MESSAGE_LENGTH - length} characters left`}
        </p>
      ) : compact ? null : (
        <p className="chat-hint muted">
          <kbd>Enter</kbd> sends · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line
        </p>
      )}
    </form>
  );
}
