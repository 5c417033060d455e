import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { MAX_MESSAGE_LENGTH } from '@contracts/message.contract';
import * as v from 'valibot';
import type { ChatMessage } from '@contracts/chat.contract';
import { useConfirmDelete } from '@/components/confirm-delete';
import { Icon } from '@/components/icon';
import { LinkedText } from '@/components/linked-text';
import { errorMessage } from '@/lib/api-client';
import { formatTime, formatWhen } from '@/lib/format';
import { deleteMessage, editMessage } from '@/features/chat/chat.api';
import { initials } from '@/features/chat/chat-format';

/**
 * One message of a thread. The reader's own sit on the other side (`is-mine`) and may be edited
 * or deleted; an admin may delete anyone's. A deleted message keeps its place, said as deleted.
 */
export function MessageItem({ message, mine, continued, mayDelete }: { message: ChatMessage; mine: boolean; continued: boolean; mayDelete: boolean }) {
  const [editing, setEditing] = useState(false);
  // Closing the edit form removes the focused box: the focus goes back to the Edit button, not to the page's start.
  const editButton = useRef<HTMLButtonElement>(null);
  const [refocus, setRefocus] = useState(false);
  useEffect(() => {
    if (!refocus || editing) return;
    editButton.current?.focus();
    setRefocus(false);
  }, [refocus, editing]);
  const confirmDelete = useConfirmDelete();
  const who = mine ? 'You' : message.author.name;
  const classes = ['chat-message', mine ? 'is-mine' : 'is-theirs', continued ? 'is-continued' : '', message.deleted ? 'is-deleted' : ''].filter(Boolean).join(' ');

  const openDelete = () =>
    confirmDelete({
      title: 'Delete this message?',
      confirmLabel: 'Delete message',
      body: (
        <>
          <p>It stays in the thread as “This message was deleted”, for everyone. This cannot be undone.</p>
          <blockquote className="chat-quote">
            <LinkedText className="chat-text" text={message.body} />
          </blockquote>
        </>
      ),
      remove: () => deleteMessage(message),
      deleted: 'Message deleted.',
    });

  return (
    <li className={classes}>
      {mine ? null : (
        <span className="chat-avatar" aria-hidden="true">
          {continued ? '' : initials(message.author.name)}
        </span>
      )}
      <div className="chat-bubble">
        {continued ? (
          <span className="visually-hidden">
            {who}, {formatTime(message.createdAt)}:{' '}
          </span>
        ) : (
          <p className="chat-meta">
            <span className="chat-author">{who}</span>
            <time dateTime={message.createdAt} title={formatWhen(message.createdAt)}>
              {formatTime(message.createdAt)}
            </time>
          </p>
        )}
        {message.deleted ? (
          <p className="chat-deleted">This message was deleted</p>
        ) : editing ? (
          <EditMessageForm
            message={message}
            onDone={() => {
              setEditing(false);
              setRefocus(true);
            }}
          />
        ) : (
          <LinkedText className="chat-text" text={message.body} />
        )}
        {message.editedAt && !message.deleted && !editing ? (
          <span className="chat-edited" title={`Edited ${formatWhen(message.editedAt)}`}>
            (edited)
          </span>
        ) : null}
      </div>
      {!message.deleted && !editing && (mine || mayDelete) ? (
        <div className="chat-actions">
          {mine ? (
            <button ref={editButton} type="button" className="icon-button chat-action" onClick={() => setEditing(true)} aria-label="Edit message">
              <Icon name="edit" size={16} />
            </button>
          ) : null}
          <button type="button" className="icon-button chat-action danger-hover" onClick={openDelete} aria-label="Delete message">
            <Icon name="trash" size={16} />
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** Editing in place: Enter saves, Shift+Enter is a new line, Escape gives up; a refusal stays in view with the text. */
function EditMessageForm({ message, onDone }: { message: ChatMessage; onDone: () => void }) {
  const [text, setText] = useState(message.body);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const id = useId();
  // Checked with the endpoint's own body schema, as the server will (the text trimmed).
  const savable = v.is(editMessage.endpoint.body, { body: text });
  const over = text.trim().length > MAX_MESSAGE_LENGTH;

  const save = async () => {
    if (pending || !savable) return;
    if (text.trim() === message.body) return onDone();
    setPending(true);
    setError(undefined);
    try {
      await editMessage({ params: { id: message.id }, body: { body: text } });
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
      setPending(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onDone();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void save();
    }
  };

  return (
    <form className="chat-edit" onSubmit={onSubmit}>
      <label htmlFor={id} className="visually-hidden">
        Edit message
      </label>
      <textarea
        id={id}
        className="chat-input"
        value={text}
        rows={Math.min(6, Math.max(2, text.split('\n').length))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={over || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        // The reader asked to edit: the text is theirs to change at once.
        autoFocus
      />
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {over ? <p className="field-error">{text.trim().length - MAX_MESSAGE_LENGTH} characters over the limit of {MAX_MESSAGE_LENGTH}.</p> : null}
      <div className="chat-edit-actions">
        <button type="button" className="btn btn-small" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-small btn-primary" disabled={!savable || pending} aria-busy={pending}>
          {pending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
