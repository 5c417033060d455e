import type { AuditChange, AuditKind, AuditValue } from '../contracts/audit.contract';
import type { Db } from './database';
import { containsText } from './engine';
import { countEvents } from './kisi-event-choices';
import { fillConversationSearch } from './migrations/032-staff-messages-trail-files.migration';

/**
 * Erasing a person (issue 50, decision 0097): when a member or an account is deleted with "erase",
 * their name and email go from every record that keeps its place in the venue's history: door events
 * and unlocks, the remote unlocks they pressed, help conversations, the messages they wrote, the files
 * they stored and the audit entries about them. The records stay, so counts (visits, conversations,
 * messages) still add up; only who it was is gone. Runs in the transaction of the delete, like the
 * audit trail.
 */

/** What an erased person's name becomes where a record keeps its place. */
export const ERASED_PERSON = 'Erased person';
/** What an erased guest's own words, and an erased email inside a text, become. */
export const ERASED_TEXT = '(erased)';
/** A door event's raw webhook body once erased: it named the person, and nothing reads it but a person. */
const ERASED_PAYLOAD = JSON.stringify({ erased: true });

export interface PersonToErase {
  /** As every table stores it: lower-cased. */
  email: string;
  name: string;
  /** Their account, when they had one: the messages it wrote and the files it stored. */
  accountId?: number;
  /** The audit trail's entries about them (their id as the subject, of these kinds), and what the trail calls them from now on ("member #12"). */
  subject: { id: number; kinds: readonly AuditKind[]; label: string };
}

/** How many rows an erasure changed, by kind: what the audit entry of the erasure records instead of the person. */
export interface ErasedCounts {
  doorEvents: number;
  conversations: number;
  guestMessages: number;
  staffMessages: number;
  files: number;
  auditEntries: number;
  /** Remote unlocks they pressed (migration 035): the door events credited to them name "Erased person". */
  remoteUnlocks: number;
}

const changed = (result: { numUpdatedRows: bigint } | undefined) => Number(result?.numUpdatedRows ?? 0);

/** Erases `person` through `db` (the transaction of the delete). */
export const erasePersonIn =
  (db: Db) =>
  async (person: PersonToErase): Promise<ErasedCounts> => {
    const { email, accountId } = person;
    const forgotten = { actor_name: ERASED_PERSON, actor_email: null, actor_id: null, payload: ERASED_PAYLOAD };

    // Door events and unlocks: theirs by email (`kisi_events_actor_idx`), and those of the same Kisi
    // users stored before their email was known. The Kisi user id goes too, or the email look-up would
    // fill the email back in.
    const kisiUsers = (await db.selectFrom('kisi_events').select('actor_id').distinct().where('actor_email', '=', email).where('actor_id', 'is not', null).execute()).map((r) => r.actor_id!);
    // Who they were goes from the inbox's people too (migration 031): their events count as the erased person's.
    const theirs = await db
      .selectFrom('kisi_events')
      .select(['actor_name', 'actor_email', (eb) => eb.fn.countAll<number>().as('n')])
      .where((eb) => eb.or([eb('actor_email', '=', email), ...(kisiUsers.length > 0 ? [eb.and([eb('actor_email', 'is', null), eb('actor_id', 'in', kisiUsers)])] : [])]))
      .groupBy(['actor_name', 'actor_email'])
      .execute();
    let doorEvents = changed(await db.updateTable('kisi_events').set(forgotten).where('actor_email', '=', email).executeTakeFirst());
    if (kisiUsers.length > 0) {
      doorEvents += changed(await db.updateTable('kisi_events').set(forgotten).where('actor_email', 'is', null).where('actor_id', 'in', kisiUsers).executeTakeFirst());
    }
    await countEvents(db, theirs.map((p) => ({ ...p, n: Number(p.n) })), -1);
    await countEvents(db, [{ actor_name: ERASED_PERSON, actor_email: null, n: doorEvents }], 1);
    // Whatever the counts say: an event of theirs committed between the read above and the updates
    // (PostgreSQL reads each statement afresh) must not leave their email findable.
    await db.deleteFrom('kisi_event_people').where('email', '=', email).execute();

    // Help conversations they started as a guest: their name and email, and their own words.
    const conversationIds = (await db.selectFrom('conversations').select('id').where('guest_email', '=', email).execute()).map((r) => r.id);
    let guestMessages = 0;
    let conversations = 0;
    if (conversationIds.length > 0) {
      guestMessages = changed(
        await db.updateTable('messages').set({ author_name: ERASED_PERSON, body: ERASED_TEXT }).where('conversation_id', 'in', conversationIds).where('author_kind', '=', 'guest').executeTakeFirst(),
      );
      conversations = changed(await db.updateTable('conversations').set({ guest_name: ERASED_PERSON, guest_email: null }).where('id', 'in', conversationIds).executeTakeFirst());
      // The search's words of those conversations, written again from what is left.
      await fillConversationSearch(db, conversationIds);
    }

    // An account's messages (chat and replies to guests) keep their words, not who wrote them; its files likewise.
    let staffMessages = 0;
    let files = 0;
    if (accountId !== undefined) {
      staffMessages = changed(await db.updateTable('messages').set({ author_name: ERASED_PERSON }).where('author_account_id', '=', accountId).executeTakeFirst());
      files = changed(await db.updateTable('uploads').set({ uploaded_by: ERASED_PERSON }).where('account_id', '=', accountId).executeTakeFirst());
      // Their invitation and reset links named the email.
      await db.deleteFrom('account_links').where((eb) => eb.or([eb('email', '=', email), eb('account_id', '=', accountId)])).execute();
    }

    // The remote unlocks they pressed (by their account, or by email once it was deleted): the events stay credited to an erased person.
    const remoteUnlocks = changed(
      await db
        .updateTable('remote_unlock_requests')
        .set({ requested_by_name: ERASED_PERSON, requested_by_email: null })
        .where((eb) => eb.or([eb('requested_by_email', '=', email), ...(accountId !== undefined ? [eb('account_id', '=', accountId)] : [])]))
        .executeTakeFirst(),
    );

    const auditEntries = await eraseFromTrail(db, person);
    return { doorEvents, conversations, guestMessages, staffMessages, files, auditEntries, remoteUnlocks };
  };

/**
 * The trail keeps what was done and who did it; of the person it keeps only `subject.label`: the
 * entries about them (by id and kind, `audit_entries_subject_idx`, or naming their email, such as an
 * access link made for them) lose their name and email, in the subject and in each change. Where
 * they were the actor of an entry about themselves (a sign-in), that goes too.
 */
async function eraseFromTrail(db: Db, { email, name, accountId, subject }: PersonToErase): Promise<number> {
  const rows = await db
    .selectFrom('audit_entries')
    .select(['id', 'changes', 'actor_id'])
    .where((eb) => eb.or([eb.and([eb('subject_id', '=', String(subject.id)), eb('kind', 'in', subject.kinds)]), eb('subject', '=', email), containsText(['subject'], `<${email}>`)]))
    .execute();
  const scrub = (value: AuditValue): AuditValue => {
    if (typeof value !== 'string') return value;
    if (value === name) return ERASED_PERSON;
    return value.split(`${name} <${email}>`).join(subject.label).split(email).join(ERASED_TEXT);
  };
  for (const row of rows) {
    const changes = (JSON.parse(row.changes) as AuditChange[]).map((c) => ({ ...c, before: scrub(c.before), after: scrub(c.after) }));
    const self = accountId !== undefined && row.actor_id === accountId ? { actor_name: ERASED_PERSON, actor_email: null } : {};
    await db
      .updateTable('audit_entries')
      .set({ subject: subject.label, changes: JSON.stringify(changes), ...self })
      .where('id', '=', row.id)
      .execute();
  }
  return rows.length;
}

/** An erasure's counts as the audit entry's changes (each count from nothing to what it erased). */
export const erasedCountsAsChanges = (counts: ErasedCounts): AuditChange[] => Object.entries(counts).map(([field, n]) => ({ field, before: null, after: n as number }));
