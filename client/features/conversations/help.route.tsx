import './conversations.css';
import { useEffect, useRef, useState } from 'react';
import { useLoaderData } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import type { Conversation } from '@contracts/conversations.contract';
import { MAX_MESSAGE_LENGTH } from '@contracts/message.contract';
import { parseHelpSearch } from '@pages/conversations.reads';
import { TextAreaField, TextField } from '@/components/form-fields';
import { Icon } from '@/components/icon';
import { LiveStatusBadge } from '@/components/live-status';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Spinner } from '@/components/spinner';
import { errorMessage, isApiError } from '@/lib/api-client';
import { load, preloadRead, useRead } from '@/lib/reads';
import { formatWhen } from '@/lib/format';
import { useDraft } from '@/lib/drafts';
import { useForm } from '@/lib/form-state';
import { MessageThread } from './components/message-thread';
import { ReplyComposer } from './components/reply-composer';
import { STATUS_LABELS, guestWhere } from './conversation-format';
import { useConversationStream } from './conversation-stream';
import { conversationQuery, sendMessage, startConversation } from './conversations.api';
import { forgetConversation, rememberConversation, rememberGuest, rememberedConversations, rememberedGuest, useRememberedConversations } from './guest-store';

type Data = { table: number; latest: Conversation | null; latestError?: string; forgotten: boolean };

/**
 * `/help?table=4` (public): a guest asks the front desk for help, then follows the answers here.
 * The newest conversation started on this device is shown again after a reload; one this device
 * can no longer open (its cookie is gone) is forgotten and the form shows instead.
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const { table } = parseHelpSearch(new URL(request.url).searchParams);
  let forgotten = false;
  for (const { id } of rememberedConversations()) {
    try {
      return { table, latest: await load(conversationQuery(id)), forgotten };
    } catch (error) {
      if (!isApiError(error, 404)) return { table, latest: null, latestError: errorMessage(error), forgotten };
      forgetConversation(id);
      forgotten = true;
    }
  }
  return { table, latest: null, forgotten };
}

export const handle = {
  title: 'Need help?',
  preload: () => {
    const latest = rememberedConversations()[0];
    if (latest) preloadRead(conversationQuery(latest.id));
  },
};

const FORGOTTEN_NOTICE = 'We could not open your earlier request on this device any more. If you still need help, ask again below.';

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const remembered = useRememberedConversations();
  // null: the newest remembered conversation; 'new': the form; a number: that conversation.
  const [choice, setChoice] = useState<number | 'new' | null>(null);
  const [startedNow, setStartedNow] = useState<number>();
  const [notice, setNotice] = useState(loaded.forgotten ? FORGOTTEN_NOTICE : '');
  const shownId = choice === 'new' ? null : (remembered.find((c) => c.id === choice)?.id ?? remembered[0]?.id ?? null);
  // With the form up, "Back to your request" already leads to the newest one: the list names the rest.
  const others = remembered.filter((c) => c.id !== (shownId ?? remembered[0]?.id));

  return (
    <div className="stack-lg help narrow">
      <PageHeader eyebrow={loaded.table ? `Table ${loaded.table}` : 'Guest help'} title="Need help?">
        {shownId ? (
          <p>Answers from the front desk appear here as they are written; keep this page open. You can write more at any time.</p>
        ) : (
          <p>Tell us what you need and where to find you. Someone from the front desk answers right here, usually within a few minutes.</p>
        )}
      </PageHeader>

      {shownId ? (
        <GuestConversation
          key={shownId}
          id={shownId}
          initial={loaded.latest?.id === shownId ? loaded.latest : undefined}
          startedNow={startedNow === shownId}
          onNew={() => setChoice('new')}
          onGone={() => {
            forgetConversation(shownId);
            setNotice(FORGOTTEN_NOTICE);
            setChoice('new');
          }}
        />
      ) : (
        <HelpForm
          takeFocus={choice === 'new'}
          table={loaded.table}
          notice={notice}
          loadError={loaded.latestError}
          onBack={remembered.length ? () => setChoice(null) : undefined}
          onStarted={(id) => {
            setNotice('');
            setStartedNow(id);
            setChoice(id);
          }}
        />
      )}

      {others.length ? (
        <nav className="help-others" aria-label="Your other requests">
          <h2 className="subheading">Your other requests</h2>
          <ul>
            {others.map((c) => (
              <li key={c.id}>
                <button type="button" className="btn btn-small" onClick={() => setChoice(c.id)}>
                  Request of {formatWhen(c.startedAt)}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}

// ---- the request form -----------------------------------------------------------------------------

/** The table's text as the body's number: blank is none (an email may do instead); anything else is for the contract to judge. */
const tableOf = (text: string) => (text.trim() ? Number(text.trim()) : null);

function HelpForm({
  takeFocus = false,
  table,
  notice,
  loadError,
  onBack,
  onStarted,
}: {
  /** The form replaced the conversation at the guest's request: the focus follows to it (the button pressed is gone). */
  takeFocus?: boolean;
  table: number;
  notice: string;
  loadError?: string;
  onBack?: () => void;
  onStarted: (id: number) => void;
}) {
  const [guest] = useState(rememberedGuest);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) headingRef.current?.focus();
  }, [takeFocus]);
  // The message is kept while it is not sent: a look at the menu for the table number, or a reload, finds it.
  const draft = useDraft({ owner: 'guest', place: 'help.new' });
  const form = useForm({
    schema: startConversation.endpoint.body,
    initial: {
      name: guest?.name ?? '',
      // The table the link (or the QR code) names wins over the one remembered from an earlier visit.
      table: table ? String(table) : guest?.table ? String(guest.table) : '',
      email: guest?.email ?? '',
      body: draft.text,
    },
    toInput: (values) => ({ name: values.name, table: tableOf(values.table), email: values.email.trim() || null, body: values.body }),
    send: async (body) => {
      const started = await startConversation({ body });
      rememberConversation(started.id);
      rememberGuest({ name: body.name, table: body.table ?? null, email: body.email ?? null });
      draft.setText('');
      onStarted(started.id);
    },
  });

  const message = form.field('body');
  return (
    <form ref={form.ref} className="card help-form" noValidate onSubmit={form.onSubmit} aria-labelledby="help-form-title">
      <h2 id="help-form-title" className="card-heading" tabIndex={-1} ref={headingRef}>
        <Icon name="info" /> Ask the front desk
      </h2>
      {notice ? <p className="banner banner-info">{notice}</p> : null}
      {loadError ? <p className="banner banner-warning">Could not load your earlier request ({loadError}). You can still ask again.</p> : null}
      {form.errors.form ? (
        <div className="banner banner-danger" role="alert" tabIndex={-1}>
          {form.errors.form}
        </div>
      ) : null}
      <TextField label="Your name" autoComplete="name" {...form.field('name')} />
      <fieldset className="help-where">
        <legend>Where can we find you?</legend>
        <p className="field-hint">Your table number, or an email address if you are not at a table (or both).</p>
        <div className="help-where-fields">
          <TextField label="Table number" inputMode="numeric" autoComplete="off" hint="It is on the sign on your table." {...form.field('table')} />
          <TextField label="Email" type="email" autoComplete="email" {...form.field('email')} />
        </div>
      </fieldset>
      <TextAreaField label="How can we help?" rows={4} maxLength={MAX_MESSAGE_LENGTH} {...message} onChange={(event) => (message.onChange(event), draft.setText(event.target.value))} />
      <div className="form-actions">
        {onBack ? (
          <button type="button" className="btn" onClick={onBack}>
            Back to your request
          </button>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={form.pending} aria-busy={form.pending}>
          {form.pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
          {form.pending ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  );
}

// ---- the guest's conversation -------------------------------------------------------------------

function GuestConversation({
  id,
  initial,
  startedNow,
  onNew,
  onGone,
}: {
  id: number;
  initial?: Conversation;
  startedNow: boolean;
  onNew: () => void;
  onGone: () => void;
}) {
  const query = useRead(conversationQuery(id), initial);
  const live = useConversationStream(id);
  const conversation = query.data;
  const gone = live.gone || isApiError(query.error, 404);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const onGoneRef = useRef(onGone);
  useEffect(() => {
    onGoneRef.current = onGone;
  });

  useEffect(() => {
    if (gone) onGoneRef.current();
  }, [gone]);

  // Just sent: the confirmation takes the focus, so a screen reader hears that it went through.
  const loaded = conversation !== undefined;
  useEffect(() => {
    if (startedNow && loaded) headingRef.current?.focus();
  }, [startedNow, loaded]);

  if (!conversation) {
    return query.error ? (
      <LoadError onRetry={() => void query.mutate()} retrying={query.isValidating}>
        Could not load your request: {errorMessage(query.error)}
      </LoadError>
    ) : (
      <Spinner label="Loading your request…" />
    );
  }

  const { status, assignee } = conversation;
  const where = guestWhere(conversation);
  return (
    <section className="card stack guest-conversation" aria-labelledby="guest-conversation-title">
      <div className="card-head">
        <h2 id="guest-conversation-title" className="card-heading" tabIndex={-1} ref={headingRef}>
          <Icon name={status === 'resolved' ? 'check' : 'inbox'} /> {startedNow ? 'We have your request' : 'Your request'}
        </h2>
        <LiveStatusBadge state={live.state} label="Replies" />
      </div>
      {/* Announced when it changes: whether someone is on it, or it was resolved. */}
      <p className="guest-status" aria-live="polite">
        <span className={`badge ${status === 'open' ? 'badge-accent' : 'badge-ok'}`}>{STATUS_LABELS[status]}</span>{' '}
        {status === 'resolved'
          ? 'The front desk marked this resolved. If you still need help, write below: it reopens your request.'
          : assignee
            ? `${assignee.name} from the front desk is on it.`
            : 'The front desk has your message and will answer here.'}
      </p>
      <p className="muted small">
        {conversation.guestName}
        {where ? ` · ${where}` : ''} · sent {formatWhen(conversation.createdAt)}
      </p>
      {query.error ? (
        <LoadError onRetry={() => void query.mutate()} retrying={query.isValidating}>
          Could not refresh your request: {errorMessage(query.error)}
        </LoadError>
      ) : null}
      <MessageThread messages={conversation.messages} outgoing="guest" isMine={(m) => m.author.kind === 'guest'} label="Messages with the front desk" />
      <ReplyComposer
        key={id}
        label="Write to the front desk"
        placeholder="Write a message"
        draft={{ owner: 'guest', place: `help.${id}` }}
        send={(body) => sendMessage({ params: { id }, body: { body, as: 'guest' } })}
      />
      <div className="guest-actions">
        <button type="button" className="btn btn-small" onClick={onNew}>
          <Icon name="plus" size={16} /> Start a new request
        </button>
      </div>
    </section>
  );
}
