import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accountApi } from './contracts/account.contract';
import type { SessionUser } from './contracts/auth.contract';
import { loginApi } from './contracts/login.contract';
import { chatApi, type ChannelList, type ChatMessage } from './contracts/chat.contract';
import { conversationsApi } from './contracts/conversations.contract';
import { urlOf } from './contracts/endpoint.contract';
import { gymApi, type GymMember } from './contracts/gym.contract';
import { ptApi, type Menu, type PlacedOrder } from './contracts/pt.contract';
import { accountLinksApi, teamApi } from './contracts/team.contract';
import { openDatabase } from './db/database';
import { emulatorStoreBeside, openEmulatorDatabase } from './kisi/emulator/emulator.database';
import { spawnBff, type SpawnedBff } from './test-support/spawn-bff';
import { createTestDatabase, testEngine, type TestDatabase } from './test-support/test-database';

/**
 * The BFF killed with SIGKILL while every kind of write is in flight at once: diners' orders, staff
 * chat, gym members added and paused (their door access goes to the Kisi emulator), guests' help
 * requests, invitations made and answered (the link used and the account created in one), and
 * the team's own accounts: people changing their password (which ends their other session), the
 * admin renaming themself, changing roles, deactivating and reactivating (which ends the account's
 * sessions), making reset links that their holders use (a new password, the old sessions ended),
 * with writes among them that must be refused. After a restart the database holds every
 * write that was answered 2xx exactly once and whole, none that was answered with an error, and of
 * those never answered either the whole write or nothing of it. Each stored order, chat message and
 * help request has exactly one live event in the log (written in the same transaction: no event
 * without its data, no data without its event), and a stream that resumes with Last-Event-ID after
 * the restart is sent every one of them. A diner who retries an unanswered order with its
 * Idempotency-Key then gets one order, never two.
 */
jest.setTimeout(90_000);

const ADMIN = { email: 'admin@crash.test', password: 'crash-test-admin-password' };
/** Acknowledged writes of each kind before the kill, so the kill lands among all of them. */
const BEFORE_KILL = { order: 120, chat: 60, member: 6, membership: 3, conversation: 40, invitation: 20, joining: 6, password: 4, name: 5, role: 5, status: 6, resetLink: 4, reset: 4 };
/**
 * How long a write of each kind must have been waiting for its answer when the kill comes. A gym
 * write spends most of its time on the door (Kisi's 5 requests/s), after the member is stored: the
 * kill then lands between the member's row and the door's outcome.
 */
/** How long the writers have to reach their counts before the kill (see where it is used). */
const WRITES_READY_WITHIN_MS = 45_000;
const IN_FLIGHT_MS = { order: 0, chat: 0, member: 100, membership: 100, conversation: 0, invitation: 0, joining: 0, password: 0, name: 0, role: 0, status: 0, resetLink: 0, reset: 0 };
const JOINER_PASSWORD = 'crash-test-joiner-password';
/**
 * While the other kinds catch up, how long the admin waits between renaming themself, changing a role,
 * deactivating and making a reset link, and a person changing their password, deactivated or using reset
 * links waits between rounds. These writes reach their counts sooner, and at full speed they would slow
 * the others down: the admin's team writes each wait for the team's lock holding a database connection,
 * a change to a session (a name, a role, a deactivation, a password) is told to every instance, and each
 * person's round hashes a password or two (scrypt, about 50 ms of a core each).
 */
const PAUSE_MS = { admin: 200, person: 1000 };

let dir: string;
let target: TestDatabase;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-crash-'));
  target = await createTestDatabase(dir, 'crash');
  // A production start wants a client build to serve; this test needs only the API.
  fs.mkdirSync(path.join(dir, 'static'));
  fs.writeFileSync(path.join(dir, 'static', 'index.html'), '<!doctype html><title>Frontdesk</title>');
});
afterAll(async () => {
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const startBff = () =>
  spawnBff({
    DATABASE_URL: target.url,
    STATIC_DIR: path.join(dir, 'static'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ORDERS_PER_MINUTE: '100000',
    MESSAGES_PER_MINUTE: '100000',
    HELP_REQUESTS_PER_HOUR: '100000',
    // Each invitee answers from an address of their own (X-Forwarded-For): the links' limit counts per address.
    TRUST_PROXY: '1',
  });

interface ReplayedFrame {
  id: number;
  event: string;
  data: unknown;
}

/**
 * Every frame `GET /api/events` sends after `after`, reconnecting as a browser does (from the last
 * id it was sent) whenever a replay ends early, until it has had `newest`.
 */
async function replayFrom(base: string, cookie: string, after: number, newest: number): Promise<ReplayedFrame[]> {
  const frames: ReplayedFrame[] = [];
  let last = after;
  const deadline = Date.now() + 20_000;
  while (last < newest) {
    if (Date.now() > deadline) throw new Error(`The resumed event stream reached id ${last} of ${newest} within 20 s`);
    const stop = new AbortController();
    const res = await fetch(`${base}/api/events?lastEventId=${last}`, { headers: { cookie }, signal: stop.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    try {
      while (last < newest) {
        const { done, value } = await reader.read();
        if (done) break;
        text += value;
        for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
          const lines = text.slice(0, end).split('\n');
          text = text.slice(end + 2);
          const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
          const [id, event, data] = [field('id'), field('event'), field('data')];
          if (id !== undefined) last = Number(id);
          if (id !== undefined && event && data !== undefined) frames.push({ id: Number(id), event, data: JSON.parse(data) as unknown });
        }
      }
    } finally {
      stop.abort();
    }
  }
  return frames;
}

interface Input {
  params?: Record<string, number>;
  query?: Record<string, string>;
  body?: unknown;
}

interface Answer {
  status: number;
  body: unknown;
  /** The session cookie it set (a sign-in's), as a `Cookie` header. */
  cookie?: string;
}

/**
 * One request to an endpoint object; undefined when no whole answer came (the server died first).
 * A client that did not get the whole answer was not answered.
 */
async function send(
  base: string,
  endpoint: { method: string; path: string },
  input: Input,
  headers: Record<string, string> = {},
): Promise<Answer | undefined> {
  try {
    const res = await fetch(`${base}${urlOf(endpoint, input)}`, {
      method: endpoint.method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, cookie: cookie || undefined };
  } catch {
    return undefined;
  }
}

/**
 * `member`: a gym member added; `membership`: a member paused (and renamed, so the change can be found);
 * `invitation`: an admin's invitation; `joining`: an invitee's answer to one acknowledged before it;
 * `password`: a person's change of their own password; `name`: the admin's change of their own name;
 * `role`, `status`: an admin's change of an account's role, its deactivation or reactivation;
 * `resetLink`: an admin's reset link for an account; `reset`: its holder's use of it.
 */
type Kind = 'order' | 'chat' | 'member' | 'membership' | 'conversation' | 'invitation' | 'joining' | 'password' | 'name' | 'role' | 'status' | 'resetLink' | 'reset';

/** One write sent during the run, findable in the database by its marker. */
interface Write {
  kind: Kind;
  marker: string;
  /** The status a deliberately refused write must get; undefined for a write that should be accepted. */
  refuse?: number;
  params?: Record<string, number>;
  body: Record<string, unknown>;
  /** The account the write changes, for the writes to one account in the order they were sent. */
  account?: number;
  /** The cookie of a session the write ends when it is stored (a password change's other session, a deactivated account's). */
  ends?: string;
  sentAt: number;
  answer?: Answer;
}

const acknowledged = (write: Write) => !!write.answer && write.answer.status >= 200 && write.answer.status < 300;
const refused = (write: Write) => !!write.answer && !acknowledged(write);
/** Built to be refused, or answered with an error: nothing of it may be stored. */
const mustBeAbsent = (write: Write) => write.refuse !== undefined || refused(write);

it('keeps every acknowledged write of every kind exactly once and whole across a SIGKILL, each with its one live event for resuming streams, and no refused one', async () => {
  const first = await startBff();
  let second: SpawnedBff | undefined;
  try {
    // ---- what the writers need: a session, the menu, a channel, owners, members with a Kisi account
    const login = await fetch(`${first.url}${loginApi.login.path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN) });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const { user: admin } = (await login.json()) as { user: SessionUser };
    const staff = { cookie };
    const setup = async (endpoint: { method: string; path: string }, input: Input) => {
      const answer = await send(first.url, endpoint, input, staff);
      expect(answer?.status).toBeLessThan(300);
      return answer!.body;
    };

    const menu = (await setup(ptApi.menu, {})) as Menu;
    const items = menu.stalls.filter((stall) => stall.availability.state === 'open').flatMap((stall) => stall.items.filter((item) => !item.soldOut));
    expect(items.length).toBeGreaterThan(2);
    const soldOut = items.pop()!;
    await setup(ptApi.updateItem, { params: { id: soldOut.id }, body: { soldOut: true } });

    const channels = (await setup(chatApi.listChannels, {})) as ChannelList;
    const channel = channels.channels.find((c) => !c.archivedAt)!;
    const { id: archived } = (await setup(chatApi.createChannel, { body: { name: 'Crash archive' } })) as { id: number };
    await setup(chatApi.updateChannel, { params: { id: archived }, body: { archived: true } });

    const owners = (await setup(gymApi.listOwners, {})) as { items: Array<{ id: number }> };
    const ownerId = owners.items[0]!.id;
    const taken = (await setup(gymApi.createMember, { body: { email: 'crash-taken@members.example', name: 'Taken Before', ownerId } })) as GymMember;
    // Members who have a Kisi account (and door access), so pausing them really switches a door in the
    // emulator: some removed to be added again paused, some to be paused.
    const withKisi = (await setup(gymApi.listMembers, { query: { query: '@mail.example', pageSize: '100' } })) as { items: GymMember[] };
    const active = withKisi.items.filter((member) => member.membership === 'active');
    const [rejoining, pausing] = [active.slice(0, 12), active.slice(12, 24)];
    expect(pausing.length).toBe(12);
    for (const member of rejoining) await setup(gymApi.deleteMember, { params: { id: member.id } });
    const before = new Map(pausing.map((member) => [member.id, member]));

    // ---- the writers: each sends one write after another until the server is gone
    const writes: Write[] = [];
    let seq = 0;
    let killed = false;
    /**
     * The team's own writers pause between writes until every kind has its writes acknowledged; then they
     * are woken and go back to back, so the kill lands among them.
     */
    let gently = true;
    const sleepers = new Set<() => void>();
    const pause = (ms: number) =>
      gently
        ? new Promise<void>((resolve) => {
            const wake = () => {
              clearTimeout(timer);
              sleepers.delete(wake);
              resolve();
            };
            const timer = setTimeout(wake, ms);
            sleepers.add(wake);
          })
        : undefined;
    const hurry = () => {
      gently = false;
      for (const wake of [...sleepers]) wake();
    };
    const markerOf = (kind: Kind, n: number) => `crash-${kind}-${n.toString().padStart(6, '0')}`;
    type Made = Pick<Write, 'params' | 'body' | 'refuse' | 'account' | 'ends'> & { endpoint: { method: string; path: string }; headers?: Record<string, string> };
    /** Sends one write and keeps it, with its answer when one comes. */
    const record = async (kind: Kind, marker: string, made: Made) => {
      const write: Write = { kind, marker, refuse: made.refuse, params: made.params, body: made.body, account: made.account, ends: made.ends, sentAt: Date.now() };
      writes.push(write);
      write.answer = await send(first.url, made.endpoint, { params: made.params, body: made.body }, made.headers);
      return write;
    };
    const writer =
      (
        // A writer of refusals may send one kind and another by turns: `kind` of the write's number.
        kind: Kind | ((n: number) => Kind),
        // undefined: this writer is done; 'later': nothing to send yet (an invitee waits for an invitation).
        make: (marker: string, n: number) => Made | undefined | 'later',
        // How long it pauses between writes while `gently`.
        pauseMs = 0,
      ) =>
      async () => {
        while (!killed) {
          const n = seq++;
          const kindOf = typeof kind === 'function' ? kind(n) : kind;
          const marker = markerOf(kindOf, n);
          const made = make(marker, n);
          if (!made) return;
          if (made === 'later') {
            await new Promise((r) => setTimeout(r, 5));
            continue;
          }
          await record(kindOf, marker, made);
          if (pauseMs) await pause(pauseMs);
        }
      };
    const byTurns = (kinds: Kind[]) => (n: number) => kinds[n % kinds.length]!;

    const orderItem = (n: number) => items[n % items.length]!;
    const diner = writer('order', (marker, n) => ({
      endpoint: ptApi.placeOrder,
      headers: { 'Idempotency-Key': marker },
      body: { table: (n % menu.tables) + 1, cart: [{ itemId: orderItem(n).id, quantity: 1 + (n % 3), note: marker }, { itemId: orderItem(n + 1).id, quantity: 1 }] },
    }));
    const refusedDiner = writer('order', (marker, n) => {
      const cases = [
        { refuse: 409, body: { table: 1, cart: [{ itemId: soldOut.id, quantity: 1, note: marker }] } },
        { refuse: 400, body: { table: menu.tables + 1, cart: [{ itemId: orderItem(n).id, quantity: 1, note: marker }] } },
        { refuse: 400, body: { table: 1, cart: [{ itemId: orderItem(n).id, quantity: 0, note: marker }] } },
      ];
      return { endpoint: ptApi.placeOrder, headers: { 'Idempotency-Key': marker }, ...cases[n % cases.length]! };
    });

    const chatter = writer('chat', (marker) => ({ endpoint: chatApi.postMessage, params: { id: channel.id }, headers: staff, body: { body: `${marker} table 4 needs a high chair` } }));
    const refusedChatter = writer('chat', (marker, n) => {
      const cases = [
        { refuse: 409, params: { id: archived }, body: { body: `${marker} into the archive` } },
        { refuse: 404, params: { id: 999_999 }, body: { body: `${marker} into no channel` } },
        { refuse: 400, params: { id: channel.id }, body: { body: `${marker} ${'x'.repeat(2000)}` } },
      ];
      return { endpoint: chatApi.postMessage, headers: staff, ...cases[n % cases.length]! };
    });

    const desk = writer('member', (marker, n) => ({
      endpoint: gymApi.createMember,
      headers: staff,
      body: { email: `${marker}@members.example`, name: `Member ${marker}`, ownerId, membership: n % 2 ? 'paused' : 'active' },
    }));
    let rejoined = 0;
    const rejoiningDesk = writer('member', (marker) => {
      const member = rejoining[rejoined++];
      return member && { endpoint: gymApi.createMember, headers: staff, body: { email: member.email, name: `Member ${marker}`, ownerId, membership: 'paused' } };
    });
    const refusedDesk = writer('member', (marker, n) => {
      const cases = [
        { refuse: 409, body: { email: taken.email, name: `Member ${marker}`, ownerId } },
        { refuse: 400, body: { email: `${marker}@members.example`, name: `Member ${marker}`, ownerId: 999_999 } },
        { refuse: 400, body: { email: `${marker} at members`, name: `Member ${marker}`, ownerId } },
      ];
      return { endpoint: gymApi.createMember, headers: staff, ...cases[n % cases.length]! };
    });

    let paused = 0;
    const pauser = writer('membership', (marker) => {
      const member = pausing[paused++];
      return member && { endpoint: gymApi.updateMember, headers: staff, params: { id: member.id }, body: { name: `Member ${marker}`, membership: 'paused' } };
    });
    const refusedPauser = writer('membership', (marker, n) => {
      const cases = [
        { refuse: 400, params: { id: taken.id }, body: { name: `Member ${marker}`, ownerId: 999_999 } },
        { refuse: 400, params: { id: taken.id }, body: { name: `Member ${marker}`, membership: 'frozen' } },
        { refuse: 404, params: { id: 999_999 }, body: { name: `Member ${marker}`, membership: 'paused' } },
      ];
      return { endpoint: gymApi.updateMember, headers: staff, ...cases[n % cases.length]! };
    });

    const guest = writer('conversation', (marker, n) => ({
      endpoint: conversationsApi.start,
      body: { name: `Guest ${marker}`, table: (n % menu.tables) + 1, body: `${marker} could we have more napkins?` },
    }));
    const refusedGuest = writer('conversation', (marker, n) => {
      const cases = [
        { refuse: 400, body: { name: `Guest ${marker}`, table: menu.tables + 1, body: `${marker} at a table that is not there` } },
        { refuse: 400, body: { name: `Guest ${marker}`, body: `${marker} with no table or email` } },
      ];
      return { endpoint: conversationsApi.start, ...cases[n % cases.length]! };
    });

    // Invitations, and invitees answering those acknowledged, each from an address of their own.
    const inviter = writer('invitation', (marker) => ({ endpoint: teamApi.invite, headers: staff, body: { email: `${marker}@team.example`, role: 'runner', expiresInHours: 24 } }));
    const refusedInviter = writer('invitation', (marker, n) => {
      const cases = [
        { refuse: 409, body: { email: ADMIN.email, role: 'staff' } },
        { refuse: 400, body: { email: `${marker}@team.example`, role: 'owner' } },
      ];
      return { endpoint: teamApi.invite, headers: staff, ...cases[n % cases.length]! };
    });
    const fromAddress = (n: number) => ({ 'X-Forwarded-For': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` });
    const tokenOf = (invitation: Write) => (invitation.answer!.body as { link: { token: string } }).link.token;
    const answered = new Set<string>();
    const joiner = writer('joining', (marker, n) => {
      const invitation = writes.find((w) => w.kind === 'invitation' && w.refuse === undefined && acknowledged(w) && !answered.has(w.marker));
      if (!invitation) return 'later';
      answered.add(invitation.marker);
      return { endpoint: accountLinksApi.acceptInvitation, headers: fromAddress(n), body: { token: tokenOf(invitation), name: `Joiner ${marker}`, password: JOINER_PASSWORD } };
    });
    const refusedJoiner = writer('joining', (marker, n) => {
      // A link already answered, one that never was, and a password too short.
      const used = writes.find((w) => w.kind === 'joining' && w.refuse === undefined && acknowledged(w));
      const token = used ? String(used.body.token) : 'x'.repeat(43);
      const cases = [
        { refuse: 404, body: { token, name: `Joiner ${marker}`, password: JOINER_PASSWORD } },
        { refuse: 404, body: { token: crypto.randomBytes(32).toString('base64url'), name: `Joiner ${marker}`, password: JOINER_PASSWORD } },
        { refuse: 400, body: { token, name: `Joiner ${marker}`, password: 'short' } },
      ];
      return { endpoint: accountLinksApi.acceptInvitation, headers: fromAddress(n), ...cases[n % cases.length]! };
    });

    // The team's own accounts: people who joined before the writers start, each signed in (by their invitation).
    interface Person {
      id: number;
      email: string;
      password: string;
      /** The session their invitation opened. */
      cookie: string;
    }
    const joinTeam = async (label: string): Promise<Person> => {
      const email = `crash-${label}@own.example`;
      const { link } = (await setup(teamApi.invite, { body: { email, role: 'runner' } })) as { link: { token: string } };
      const joined = await send(first.url, accountLinksApi.acceptInvitation, { body: { token: link.token, name: `Person ${label}`, password: JOINER_PASSWORD } }, fromAddress(seq++));
      expect(joined?.status).toBe(201);
      return { id: (joined!.body as { user: { id: number } }).user.id, email, password: JOINER_PASSWORD, cookie: joined!.cookie! };
    };
    const people = (label: string, many: number) => Promise.all(Array.from({ length: many }, (_, i) => joinTeam(`${label}-${i}`)));
    const [changers, roleHolders, switched, toggled, resetting, relinked, refusers] = await Promise.all([
      people('changer', 3),
      people('role', 2),
      people('switched', 2),
      people('toggled', 1),
      people('reset', 2),
      people('relinked', 1),
      people('refuser', 1),
    ]);
    const refuser = refusers[0]!;
    /** What went wrong on the way that is no write of its own (a sign-in refused while the server was up). */
    const mishaps: string[] = [];
    /** `person` signs in with `password` from an address of their own: the session's cookie, undefined when the server is gone. */
    const signIn = async (person: Person, password: string) => {
      const answer = await send(first.url, loginApi.login, { body: { email: person.email, password } }, fromAddress(seq++));
      if (answer && answer.status !== 200) mishaps.push(`${person.email} signing in: ${JSON.stringify(answer)}`);
      return answer?.status === 200 ? answer.cookie : undefined;
    };

    // Each changer changes their password again and again, each time signed in a second time first: the
    // change keeps the session it is made in and ends that other one.
    const changer = (person: Person) => async () => {
      let password = person.password;
      while (!killed) {
        const other = await signIn(person, password);
        if (!other) return;
        const n = seq++;
        const marker = markerOf('password', n);
        const body = { currentPassword: password, newPassword: `${marker} new password` };
        const write = await record('password', marker, { endpoint: accountApi.changePassword, headers: { cookie: person.cookie, ...fromAddress(n) }, body, account: person.id, ends: other });
        if (!acknowledged(write)) return;
        password = body.newPassword;
        await pause(PAUSE_MS.person);
      }
    };

    const renamer = writer('name', (marker) => ({ endpoint: accountApi.changeName, headers: staff, body: { name: `Admin ${marker}` }, account: admin.id }), PAUSE_MS.admin);

    // Role changes go round the role holders, each switched between runner and staff.
    const roleOf = new Map(roleHolders.map((person) => [person.id, 'runner']));
    let roleTurn = 0;
    const promoter = writer('role', () => {
      const person = roleHolders[roleTurn++ % roleHolders.length]!;
      const role = roleOf.get(person.id) === 'runner' ? 'staff' : 'runner';
      roleOf.set(person.id, role);
      return { endpoint: teamApi.changeRole, headers: staff, params: { id: person.id }, body: { role }, account: person.id };
    }, PAUSE_MS.admin);

    // Each switched person signs in, is deactivated (the session ends) and reactivated, again and again.
    const switcher = (person: Person) => async () => {
      while (!killed) {
        const session = await signIn(person, person.password);
        if (!session) return;
        for (const status of ['deactivated', 'active']) {
          const made = { endpoint: teamApi.changeStatus, headers: staff, params: { id: person.id }, body: { status }, account: person.id, ends: status === 'deactivated' ? session : undefined };
          if (!acknowledged(await record('status', markerOf('status', seq++), made))) return;
        }
        await pause(PAUSE_MS.person);
      }
    };

    // And one person deactivated and reactivated back to back, no longer signed in after the first.
    let toggles = 0;
    const toggler = writer('status', () => {
      const person = toggled[0]!;
      const ends = toggles === 0 ? person.cookie : undefined;
      const status = toggles++ % 2 === 0 ? 'deactivated' : 'active';
      return { endpoint: teamApi.changeStatus, headers: staff, params: { id: person.id }, body: { status }, account: person.id, ends };
    }, PAUSE_MS.admin);

    // The admin makes a reset link, its holder uses it (from an address of their own) and is signed in, again and again:
    // each use ends the session the one before opened.
    const resetter = (person: Person) => async () => {
      let session = person.cookie;
      while (!killed) {
        const link = await record('resetLink', markerOf('resetLink', seq++), { endpoint: teamApi.resetLink, headers: staff, params: { id: person.id }, body: { expiresInHours: 1 }, account: person.id });
        if (!acknowledged(link)) return;
        const n = seq++;
        const marker = markerOf('reset', n);
        const body = { token: (link.answer!.body as { token: string }).token, password: `${marker} chosen password` };
        const used = await record('reset', marker, { endpoint: accountLinksApi.useReset, headers: fromAddress(n), body, account: person.id, ends: session });
        if (!acknowledged(used)) return;
        session = used.answer!.cookie!;
        await pause(PAUSE_MS.person);
      }
    };

    // And makes one for someone who never uses it, again and again: each new one withdraws the one before.
    const relinker = writer('resetLink', () => ({ endpoint: teamApi.resetLink, headers: staff, params: { id: relinked[0]!.id }, body: { expiresInHours: 1 }, account: relinked[0]!.id }), PAUSE_MS.admin);

    // Refused by turns: a wrong current password (counted as a failed sign-in: each try from an address of its
    // own), a new password too short, a name too long, a role that is none, deactivating oneself, a link's
    // hours that are none, a reset link used already and one that never was.
    const refusedOwnAndTeam = writer(byTurns(['password', 'password', 'name', 'role', 'status', 'resetLink', 'reset', 'reset']), (marker, n) => {
      const asRefuser = { endpoint: accountApi.changePassword, headers: { cookie: refuser.cookie, ...fromAddress(n) }, account: refuser.id };
      const used = writes.find((w) => w.kind === 'reset' && w.refuse === undefined && acknowledged(w));
      const cases = [
        { refuse: 400, ...asRefuser, body: { currentPassword: `${marker} not the password`, newPassword: `${marker} new password` } },
        { refuse: 400, ...asRefuser, body: { currentPassword: refuser.password, newPassword: 'too short' } },
        { refuse: 400, endpoint: accountApi.changeName, headers: staff, body: { name: `Admin ${marker} ${'x'.repeat(120)}` } },
        { refuse: 400, endpoint: teamApi.changeRole, headers: staff, params: { id: roleHolders[0]!.id }, body: { role: 'owner' } },
        { refuse: 409, endpoint: teamApi.changeStatus, headers: staff, params: { id: admin.id }, body: { status: 'deactivated' } },
        { refuse: 400, endpoint: teamApi.resetLink, headers: staff, params: { id: resetting[0]!.id }, body: { expiresInHours: 5 } },
        { refuse: 404, endpoint: accountLinksApi.useReset, headers: fromAddress(n), body: { token: used ? String(used.body.token) : crypto.randomBytes(32).toString('base64url'), password: `${marker} chosen password` } },
        { refuse: 404, endpoint: accountLinksApi.useReset, headers: fromAddress(n), body: { token: crypto.randomBytes(32).toString('base64url'), password: `${marker} chosen password` } },
      ];
      return cases[n % cases.length]!;
    }, PAUSE_MS.admin);

    const running = [
      ...[diner, diner, diner, refusedDiner],
      ...[chatter, chatter, refusedChatter],
      ...[desk, desk, rejoiningDesk, refusedDesk, pauser, refusedPauser],
      ...[guest, guest, refusedGuest],
      ...[inviter, refusedInviter, joiner, refusedJoiner],
      ...[...changers.map(changer), renamer, promoter, ...switched.map(switcher), toggler, ...resetting.map(resetter), relinker, refusedOwnAndTeam],
    ].map((run) => run());

    const kinds = Object.keys(BEFORE_KILL) as Kind[];
    const count = (kind: Kind, which: (write: Write) => boolean) => writes.filter((w) => w.kind === kind && which(w)).length;
    const counted = (kind: Kind) => count(kind, (w) => w.refuse === undefined && acknowledged(w)) >= BEFORE_KILL[kind];
    const ready = (kind: Kind) => counted(kind) && count(kind, (w) => w.refuse === undefined && !w.answer && Date.now() - w.sentAt >= IN_FLIGHT_MS[kind]) > 0;
    // Generous: on a loaded 2-core machine (CI runs tiers side by side) the writers reach their counts
    // in 8-15 s, and under a heavy neighbour twice that; the deadline is for a server that stopped answering.
    const deadline = Date.now() + WRITES_READY_WITHIN_MS;
    while (!kinds.every(ready)) {
      if (gently && kinds.every(counted)) hurry();
      if (Date.now() > deadline) {
        // The writers stop, or they would go on writing to a server that is gone.
        killed = true;
        throw new Error(`Not every kind of write was acknowledged and in flight within ${WRITES_READY_WITHIN_MS / 1000} s: ${JSON.stringify(Object.fromEntries(kinds.map((k) => [k, count(k, acknowledged)])))}, not ready: ${kinds.filter((k) => !ready(k)).join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    first.child.kill('SIGKILL');
    killed = true;
    await Promise.all(running);
    expect(mishaps).toEqual([]);

    // Deliberate refusals got the refusal they were built for; the writes that should go through did,
    // or were not answered. (Otherwise the checks below would prove less than they say.)
    expect(writes.filter((w) => w.refuse !== undefined && w.answer && w.answer.status !== w.refuse).map((w) => `${w.marker}: ${w.answer!.status}`)).toEqual([]);
    expect(writes.filter((w) => w.refuse === undefined && refused(w)).map((w) => `${w.marker}: ${JSON.stringify(w.answer)}`)).toEqual([]);

    // ---- after the restart, from the database
    second = await startBff();
    const database = await openDatabase(target.url);
    const emulator = await openEmulatorDatabase(emulatorStoreBeside(target.url));
    // The members (and the switches they owe) before Kisi's users: the restarted server's sender may be
    // switching meanwhile, and a member it confirmed is then already switched in Kisi when Kisi is read.
    const members = await database.db.selectFrom('gym_users').select(['id', 'email', 'name', 'owner_id', 'membership', 'access_sync_state']).execute();
    const owed = new Set((await database.db.selectFrom('door_access_outbox').select('member_id').execute()).map((r) => r.member_id));
    const [orders, lines, messages, kisiUsers, conversations, events, audited] = await Promise.all([
      database.db.selectFrom('orders').select(['id', 'idempotency_key', 'table_number', 'total_cents']).execute(),
      database.db.selectFrom('order_lines').select(['order_id', 'item_id', 'unit_price_cents', 'quantity', 'note']).orderBy('id').execute(),
      database.db.selectFrom('messages').select(['id', 'channel_id', 'conversation_id', 'author_account_id', 'body']).execute(),
      emulator.db.selectFrom('kisi_emu_users').select(['email', 'access_enabled']).execute(),
      database.db.selectFrom('conversations').select(['id', 'guest_name', 'guest_table']).execute(),
      database.db.selectFrom('live_events').select(['id', 'type', 'data']).orderBy('id').execute(),
      database.db.selectFrom('audit_entries').select(['kind', 'action', 'subject_id', 'subject', 'changes']).where('kind', '=', 'member').execute(),
    ]);
    const [teamAccounts, invitationLinks, accountEntries, ownAccounts, resetLinks] = await Promise.all([
      database.db.selectFrom('accounts').select(['id', 'email', 'name', 'role']).where('email', 'like', '%@team.example').execute(),
      database.db.selectFrom('account_links').select(['id', 'email', 'role', 'token_hash', 'used_at']).where('kind', '=', 'invitation').execute(),
      database.db.selectFrom('audit_entries').select(['action', 'subject_id', 'subject', 'changes']).where('kind', '=', 'account').orderBy('id').execute(),
      database.db.selectFrom('accounts').select(['id', 'name', 'role', 'status']).where((eb) => eb.or([eb('email', 'like', '%@own.example'), eb('id', '=', admin.id)])).execute(),
      database.db.selectFrom('account_links').select(['account_id', 'token_hash', 'used_at', 'withdrawn_at']).where('kind', '=', 'reset').orderBy('id').execute(),
    ]);
    await Promise.all([database.close(), emulator.close()]);

    const byKind = (kind: Kind) => writes.filter((w) => w.kind === kind);
    const answerOf = <T>(write: Write) => write.answer!.body as T;
    const stored = { order: 0, chat: 0, member: 0, membership: 0, conversation: 0, invitation: 0, joining: 0, password: 0, name: 0, role: 0, status: 0, resetLink: 0, reset: 0 };
    /** What each kind's stored rows were announced by: its live events in the log, and after a restart the frames of a resumed stream. */
    const announcing = {
      order: { type: 'order', about: (data: { id?: number }) => data.id },
      chat: { type: 'chat', about: (data: { kind?: string; message?: { id: number } }) => (data.kind === 'posted' ? data.message?.id : undefined) },
      conversation: { type: 'conversation', about: (data: { kind?: string; conversation?: { id: number } }) => (data.kind === 'message' ? data.conversation?.id : undefined) },
    } as const;
    type Announced = keyof typeof announcing;
    const countBy = (kind: Announced, list: Array<{ type: string; data: unknown }>) => {
      const counts = new Map<number, number>();
      for (const { type, data } of list) {
        const about = type === announcing[kind].type ? announcing[kind].about(data as never) : undefined;
        if (about !== undefined) counts.set(about, (counts.get(about) ?? 0) + 1);
      }
      return counts;
    };
    const logged = events.map((e) => ({ type: e.type, data: JSON.parse(e.data) as unknown }));
    const inLog = { order: countBy('order', logged), chat: countBy('chat', logged), conversation: countBy('conversation', logged) };
    /** The ids of each kind's rows stored by this run: each must have exactly one live event. */
    const storedIds = { order: [] as number[], chat: [] as number[], conversation: [] as number[] };

    // Orders: an order is whole with its two lines (the first carrying the marker) and the total of their prices.
    for (const write of byKind('order')) {
      const rows = orders.filter((row) => row.idempotency_key === write.marker);
      const marked = lines.filter((line) => line.note === write.marker);
      if (mustBeAbsent(write)) {
        expect({ marker: write.marker, rows, marked }).toEqual({ marker: write.marker, rows: [], marked: [] });
        continue;
      }
      expect(rows.length).toBeLessThanOrEqual(1);
      const row = rows[0];
      if (acknowledged(write)) {
        const placed = answerOf<PlacedOrder>(write);
        expect(row && { id: row.id, total: row.total_cents, table: row.table_number }).toEqual({ id: placed.id, total: placed.totalCents, table: write.body.table });
      }
      if (!row) continue;
      stored.order++;
      storedIds.order.push(row.id);
      const own = lines.filter((line) => line.order_id === row.id);
      const cart = write.body.cart as Array<{ itemId: number; quantity: number; note?: string }>;
      expect(own.map((line) => ({ itemId: line.item_id, quantity: line.quantity, note: line.note }))).toEqual(cart.map((line) => ({ itemId: line.itemId, quantity: line.quantity, note: line.note ?? null })));
      expect(own.reduce((sum, line) => sum + line.unit_price_cents * line.quantity, 0)).toBe(row.total_cents);
    }
    // No order of this run is stored but not sent: every crash order is one of the writes.
    const markers = new Set(writes.map((w) => w.marker));
    expect(orders.filter((row) => row.idempotency_key?.startsWith('crash-') && !markers.has(row.idempotency_key))).toEqual([]);

    // Chat: a message is in its channel, by the admin, with its whole text.
    const adminId = (answerOf<ChatMessage>(byKind('chat').find(acknowledged)!)).author.accountId;
    for (const write of byKind('chat')) {
      const rows = messages.filter((m) => m.body.includes(write.marker));
      if (mustBeAbsent(write)) {
        expect({ marker: write.marker, rows }).toEqual({ marker: write.marker, rows: [] });
        continue;
      }
      expect(rows.length).toBeLessThanOrEqual(1);
      const row = rows[0];
      if (acknowledged(write)) {
        expect(row?.id).toBe(answerOf<ChatMessage>(write).id);
      }
      if (!row) continue;
      stored.chat++;
      storedIds.chat.push(row.id);
      expect({ channel: row.channel_id, author: row.author_account_id, body: row.body }).toEqual({ channel: channel.id, author: adminId, body: write.body.body });
    }

    // Gym members: a member is whole when what the record says about their door access is true. Kisi
    // has the people who rejoined (paused: their access switched off), no one with a crash email.
    const kisiAccess = new Map(kisiUsers.map((u) => [u.email.toLowerCase(), !!u.access_enabled]));
    for (const write of byKind('member')) {
      const rows = members.filter((m) => m.name === write.body.name || m.email === write.body.email);
      if (mustBeAbsent(write)) {
        // A refused duplicate leaves the member who had the email as they were.
        const expected = write.body.email === taken.email ? [expect.objectContaining({ id: taken.id, name: taken.name })] : [];
        expect({ marker: write.marker, rows }).toEqual({ marker: write.marker, rows: expected });
        continue;
      }
      expect(rows.length).toBeLessThanOrEqual(1);
      const row = rows[0];
      const want = write.body.membership === 'active';
      if (acknowledged(write)) {
        const created = answerOf<GymMember>(write);
        // Answered pending (Kisi did not answer in time, or the sender job had the switch in hand), the
        // owed switch may have been sent since: then the record has its outcome (checked below).
        const outcome = kisiAccess.has(created.email) ? 'synced' : 'no_kisi_user';
        const answered = created.accessSync.state === 'pending' ? expect.stringMatching(`^(pending|${outcome})$`) : outcome;
        expect(row && { id: row.id, state: row.access_sync_state }).toEqual({ id: created.id, state: answered });
      }
      // A member and the audit entry of their creation are stored together or not at all.
      const createdEntries = audited.filter((e) => e.action === 'created' && e.subject.includes(`<${write.body.email}>`) && (!row || e.subject_id === String(row.id)));
      expect({ marker: write.marker, entries: createdEntries.length }).toEqual({ marker: write.marker, entries: row ? 1 : 0 });
      if (!row) continue;
      stored.member++;
      expect({ email: row.email, name: row.name, owner: row.owner_id, membership: row.membership }).toEqual({
        email: write.body.email,
        name: write.body.name,
        owner: ownerId,
        membership: write.body.membership,
      });
      // "Not needed" is what a seeded member says; a member added here either has the switch's outcome or says it is still owed.
      const truth = kisiAccess.has(row.email) ? (kisiAccess.get(row.email) === want ? ['synced', 'pending'] : ['pending']) : ['no_kisi_user', 'pending'];
      expect(`${write.marker}: ${row.access_sync_state}`).toMatch(new RegExp(`: (${truth.join('|')})$`));
      // A switch said to be owed is queued for the sender (issue 53), so it is sent after the restart.
      if (row.access_sync_state === 'pending') expect({ marker: write.marker, queued: owed.has(row.id) }).toEqual({ marker: write.marker, queued: true });
    }

    // Membership changes: the member is changed whole (name and membership in one) or not at all, and
    // the record of their door access is true either way.
    for (const write of byKind('membership')) {
      const rows = members.filter((m) => m.name === write.body.name);
      if (mustBeAbsent(write)) {
        expect({ marker: write.marker, rows }).toEqual({ marker: write.marker, rows: [] });
        continue;
      }
      const original = before.get(write.params!.id!)!;
      const row = members.find((m) => m.id === original.id)!;
      const applied = row.name === write.body.name;
      // The change and its audit entry (the pause with its before and after) are stored together or not at all.
      const pauses = audited.filter((e) => e.subject_id === String(row.id) && e.action === 'paused' && e.changes.includes(`"after":"${write.body.name}"`));
      expect({ marker: write.marker, entries: pauses.length }).toEqual({ marker: write.marker, entries: applied ? 1 : 0 });
      if (acknowledged(write)) {
        expect(applied).toBe(true);
        // Answered pending (Kisi did not answer in time), the owed switch may have been sent since, by the
        // sender before the kill or after the restart: then the record has its outcome (checked below).
        const answered = answerOf<GymMember>(write).accessSync.state;
        expect(`${write.marker}: ${row.access_sync_state}`).toMatch(new RegExp(`: (${answered === 'pending' ? 'pending|synced' : answered})$`));
      }
      if (!applied) {
        expect({ name: row.name, membership: row.membership, state: row.access_sync_state }).toEqual({ name: original.name, membership: original.membership, state: original.accessSync.state });
        continue;
      }
      stored.membership++;
      expect(row.membership).toBe('paused');
      const truth = kisiAccess.get(row.email) === false ? ['synced', 'pending'] : ['pending'];
      expect(`${write.marker}: ${row.access_sync_state}`).toMatch(new RegExp(`: (${truth.join('|')})$`));
      if (row.access_sync_state === 'pending') expect({ marker: write.marker, queued: owed.has(row.id) }).toEqual({ marker: write.marker, queued: true });
    }

    // Guest conversations: a conversation is whole with its first message, the guest's words.
    for (const write of byKind('conversation')) {
      const rows = conversations.filter((c) => c.guest_name === write.body.name);
      const marked = messages.filter((m) => m.body.includes(write.marker));
      if (mustBeAbsent(write)) {
        expect({ marker: write.marker, rows, marked }).toEqual({ marker: write.marker, rows: [], marked: [] });
        continue;
      }
      expect(rows.length).toBeLessThanOrEqual(1);
      const row = rows[0];
      if (acknowledged(write)) {
        expect(row?.id).toBe(answerOf<{ id: number }>(write).id);
      }
      if (!row) {
        expect(marked).toEqual([]);
        continue;
      }
      stored.conversation++;
      storedIds.conversation.push(row.id);
      expect({ table: row.guest_table, messages: messages.filter((m) => m.conversation_id === row.id).map((m) => m.body) }).toEqual({ table: write.body.table, messages: [write.body.body] });
    }

    // Invitations: an invitation is stored with the audit entry that says it was made, or neither is;
    // an acknowledged one is the link whose secret the admin was shown (its hash, never the secret).
    const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
    for (const write of byKind('invitation')) {
      const email = String(write.body.email);
      const links = invitationLinks.filter((link) => link.email === email);
      const entries = accountEntries.filter((e) => e.action === 'invited' && e.subject === email).length;
      if (mustBeAbsent(write)) {
        expect({ marker: write.marker, links, entries }).toEqual({ marker: write.marker, links: [], entries: 0 });
        continue;
      }
      const made = links.length > 0;
      expect({ marker: write.marker, links: links.length, entries }).toEqual({ marker: write.marker, links: made ? 1 : 0, entries: made ? 1 : 0 });
      if (acknowledged(write)) {
        const { invitation, link } = answerOf<{ invitation: { id: number }; link: { token: string } }>(write);
        expect(links[0] && { id: links[0].id, hash: links[0].token_hash, role: links[0].role }).toEqual({ id: invitation.id, hash: sha256(link.token), role: 'runner' });
      }
      if (made) stored.invitation++;
    }

    // Answers to invitations: the link used, the account (its name, the invitation's role) and the audit
    // entry of the joining are stored together or not at all; a refused answer created no account.
    for (const write of byKind('joining')) {
      const joined = teamAccounts.filter((account) => account.name === write.body.name);
      if (mustBeAbsent(write)) {
        expect({ marker: write.marker, joined }).toEqual({ marker: write.marker, joined: [] });
        continue;
      }
      const invitation = byKind('invitation').find((w) => acknowledged(w) && tokenOf(w) === write.body.token)!;
      const email = String(invitation.body.email);
      const account = teamAccounts.find((a) => a.email === email);
      const whole = {
        used: invitationLinks.find((link) => link.email === email)!.used_at !== null,
        account: account && { name: account.name, role: account.role },
        entries: accountEntries.filter((e) => e.action === 'joined (invitation)' && e.subject === `${write.body.name} <${email}>`).length,
      };
      expect({ marker: write.marker, ...whole }).toEqual({ marker: write.marker, ...(account ? { used: true, account: { name: write.body.name, role: 'runner' }, entries: 1 } : { used: false, account: undefined, entries: 0 }) });
      if (acknowledged(write)) expect(account?.id).toBe(answerOf<{ user: { id: number } }>(write).user.id);
      if (account) stored.joining++;
    }
    // No invitation of this run is used without its account, and no account of this run is without its used link.
    const runLinks = invitationLinks.filter((link) => link.email.endsWith('@team.example'));
    expect(runLinks.filter((link) => (link.used_at !== null) !== teamAccounts.some((a) => a.email === link.email)).map((link) => link.email)).toEqual([]);
    expect(teamAccounts.filter((a) => !runLinks.some((link) => link.email === a.email && link.used_at !== null)).map((a) => a.email)).toEqual([]);

    // ---- the team's own accounts. The writes to one account were sent one after another, so what is stored
    // of them is a run from the first: every acknowledged one, and then the last (unanswered) whole or not at all.
    const entriesAbout = (account: number, ...actions: string[]) => accountEntries.filter((e) => e.subject_id === String(account) && actions.includes(e.action));
    const storedRun = (kind: Kind, account: number, entries: number) => {
      const sent = byKind(kind).filter((w) => w.refuse === undefined && w.account === account);
      const ok = sent.filter(acknowledged).length;
      // Each write waited for the answer to the one before: only the last can be unanswered.
      expect({ kind, account, unansweredBeforeTheLast: sent.slice(0, -1).filter((w) => !w.answer).map((w) => w.marker) }).toEqual({ kind, account, unansweredBeforeTheLast: [] });
      expect({ kind, account, acknowledged: ok, sent: sent.length, stored: entries, fits: entries >= ok && entries <= sent.length }).toMatchObject({ fits: true });
      stored[kind] += entries;
      return { sent, applied: sent.slice(0, entries), pending: sent.slice(entries) };
    };
    const accountNow = (id: number) => ownAccounts.find((a) => a.id === id)!;
    const restarted = second.url;
    /** What the restarted server answers a session's cookie (200, or 401 for an ended one) and a sign-in (200 or 401). */
    const sessionStatus = async (sessionCookie: string) => (await send(restarted, accountApi.get, {}, { cookie: sessionCookie }))?.status;
    const signInStatus = async (email: string, password: unknown) => (await send(restarted, loginApi.login, { body: { email, password } }, fromAddress(seq++)))?.status;

    // Password changes: a change stored is whole (the new password signs in, the one before does not, the
    // other session is ended, its audit entry is there); one not stored left the old password and the other
    // session as they were. Never the new password with the other session alive.
    // (Each person's checked at once with the others': a sign-in hashes, as slowly as it should.)
    const eachOf = async (people: Person[], check: (person: Person) => Promise<void>) => void (await Promise.all(people.map(check)));
    await eachOf(changers, async (person) => {
      const { applied, pending } = storedRun('password', person.id, entriesAbout(person.id, 'password changed').length);
      const last = applied.at(-1);
      const seen = {
        email: person.email,
        password: await signInStatus(person.email, last?.body.newPassword ?? person.password),
        before: last && (await signInStatus(person.email, last.body.currentPassword)),
        otherSessions: await Promise.all(applied.map((w) => sessionStatus(w.ends!))),
        // The change sent but not stored: its new password does not sign in, its other session is still open.
        notStored: pending[0] && { password: await signInStatus(person.email, pending[0].body.newPassword), otherSession: await sessionStatus(pending[0].ends!) },
        // The session the changes were made in stays.
        ownSession: await sessionStatus(person.cookie),
      };
      expect(seen).toEqual({ email: person.email, password: 200, before: last && 401, otherSessions: applied.map(() => 401), notStored: pending[0] && { password: 401, otherSession: 200 }, ownSession: 200 });
    });
    // Refused changes left the password and the session as they were.
    expect({ entries: entriesAbout(refuser.id, 'password changed'), password: await signInStatus(refuser.email, refuser.password), session: await sessionStatus(refuser.cookie) }).toEqual({ entries: [], password: 200, session: 200 });

    // The admin's names: each stored with its audit entry (its name after), the last stored one is the account's.
    const renames = entriesAbout(admin.id, 'changed');
    const { applied: renamed } = storedRun('name', admin.id, renames.length);
    for (const write of byKind('name')) {
      const entries = renames.filter((e) => e.changes.includes(`"after":"${String(write.body.name)}"`)).length;
      expect({ marker: write.marker, entries }).toEqual({ marker: write.marker, entries: renamed.includes(write) ? 1 : 0 });
    }
    expect(accountNow(admin.id).name).toBe(renamed.at(-1)?.body.name ?? admin.name);

    // Roles: each change stored with its audit entry, in the order sent; the last stored one is the account's role.
    for (const person of roleHolders) {
      const entries = entriesAbout(person.id, 'role changed');
      const { applied } = storedRun('role', person.id, entries.length);
      expect({ email: person.email, roles: entries.map((e) => (JSON.parse(e.changes) as Array<{ after: string }>)[0]!.after), now: accountNow(person.id).role }).toEqual({
        email: person.email,
        roles: applied.map((w) => w.body.role),
        now: applied.at(-1)?.body.role ?? 'runner',
      });
    }

    // Deactivations and reactivations: each stored with its audit entry; a stored deactivation ended the
    // session open then (401), one not stored left it open; a deactivated account cannot sign in (403: its right password is told why).
    await eachOf([...switched, ...toggled], async (person) => {
      const entries = entriesAbout(person.id, 'deactivated', 'reactivated');
      const { applied, pending } = storedRun('status', person.id, entries.length);
      const status = applied.at(-1)?.body.status ?? 'active';
      const seen = {
        email: person.email,
        actions: entries.map((e) => e.action),
        status: accountNow(person.id).status,
        endedSessions: await Promise.all(applied.filter((w) => w.ends).map((w) => sessionStatus(w.ends!))),
        notEnded: pending[0]?.ends && (await sessionStatus(pending[0].ends)),
        signIn: await signInStatus(person.email, person.password),
      };
      expect(seen).toEqual({
        email: person.email,
        actions: applied.map((w) => (w.body.status === 'deactivated' ? 'deactivated' : 'reactivated')),
        status,
        endedSessions: applied.filter((w) => w.ends).map(() => 401),
        notEnded: pending[0]?.ends && 200,
        signIn: status === 'deactivated' ? 403 : 200,
      });
    });
    expect(entriesAbout(admin.id, 'deactivated')).toEqual([]);

    // Reset links: each stored (the hash of the secret the admin was shown) with its audit entry. A use stored
    // is whole: its link used, the password it chose signs in and the one before does not, the session open
    // before it ended; one not stored left the link open, the password and the session as they were.
    await eachOf(resetting, async (person) => {
      const links = resetLinks.filter((link) => link.account_id === person.id);
      expect({ email: person.email, entries: entriesAbout(person.id, 'reset link made').length }).toEqual({ email: person.email, entries: links.length });
      const made = storedRun('resetLink', person.id, links.length);
      expect(made.applied.map((w, i) => (acknowledged(w) ? sha256((w.answer!.body as { token: string }).token) : links[i]!.token_hash))).toEqual(links.map((link) => link.token_hash));
      const { sent, applied, pending } = storedRun('reset', person.id, entriesAbout(person.id, 'password reset (link)').length);
      const last = applied.at(-1);
      const holding = sent.length === 0 ? person.cookie : pending[0] ? pending[0].ends : acknowledged(sent.at(-1)!) ? sent.at(-1)!.answer!.cookie : undefined;
      const seen = {
        email: person.email,
        links: links.map((link) => ({ used: link.used_at !== null, withdrawn: link.withdrawn_at !== null })),
        password: await signInStatus(person.email, last?.body.password ?? person.password),
        before: last && (await signInStatus(person.email, applied.at(-2)?.body.password ?? person.password)),
        endedSessions: await Promise.all(applied.map((w) => sessionStatus(w.ends!))),
        notStored: pending[0] && (await signInStatus(person.email, pending[0].body.password)),
        holding: holding && (await sessionStatus(holding)),
      };
      expect(seen).toEqual({
        email: person.email,
        links: links.map((_, i) => ({ used: i < applied.length, withdrawn: false })),
        password: 200,
        before: last && 401,
        endedSessions: applied.map(() => 401),
        notStored: pending[0] && 401,
        holding: holding && 200,
      });
    });
    // Links replaced: each stored with its audit entry (the hash of its secret); all but the last withdrawn, none used.
    await eachOf(relinked, async (person) => {
      const links = resetLinks.filter((link) => link.account_id === person.id);
      expect({ email: person.email, entries: entriesAbout(person.id, 'reset link made').length }).toEqual({ email: person.email, entries: links.length });
      const { applied } = storedRun('resetLink', person.id, links.length);
      expect(applied.map((w, i) => (acknowledged(w) ? sha256((w.answer!.body as { token: string }).token) : links[i]!.token_hash))).toEqual(links.map((link) => link.token_hash));
      expect(links.map((link) => ({ used: link.used_at !== null, withdrawn: link.withdrawn_at !== null }))).toEqual(links.map((_, i) => ({ used: false, withdrawn: i < links.length - 1 })));
      // The last link, when the admin was shown it, is the one that opens.
      const last = applied.at(-1);
      if (last && acknowledged(last)) expect((await send(restarted, accountLinksApi.previewReset, { body: { token: (last.answer!.body as { token: string }).token } }, fromAddress(seq++)))?.status).toBe(200);
    });

    // ---- live events: each stored order, chat message and help request has exactly one in the log, and none
    // announces a row that is not stored; a stream resuming after the restart is sent each of them once.
    const announcedKinds = Object.keys(announcing) as Announced[];
    const existing = { order: new Set(orders.map((o) => o.id)), chat: new Set(messages.map((m) => m.id)), conversation: new Set(conversations.map((c) => c.id)) };
    for (const kind of announcedKinds) {
      expect({ kind, notOnce: storedIds[kind].filter((id) => inLog[kind].get(id) !== 1) }).toEqual({ kind, notOnce: [] });
      expect({ kind, withoutData: [...inLog[kind].keys()].filter((id) => !existing[kind].has(id)) }).toEqual({ kind, withoutData: [] });
    }
    const newest = events.at(-1)?.id ?? 0;
    // Events the restarted server writes itself (a Kisi catch-up) may follow: only the log as read is compared.
    const replayed = (await replayFrom(second.url, cookie, 0, newest)).filter((frame) => frame.id <= newest);
    expect(replayed.map((frame) => frame.id)).toEqual(events.map((e) => e.id));
    const resent = replayed.map((frame) => ({ type: frame.event, data: frame.data }));
    const resumed = { order: countBy('order', resent), chat: countBy('chat', resent), conversation: countBy('conversation', resent) };
    for (const kind of announcedKinds) expect({ kind, notOnce: storedIds[kind].filter((id) => resumed[kind].get(id) !== 1) }).toEqual({ kind, notOnce: [] });

    // ---- every diner whose order went unanswered tries again with the same key: one order each, never two
    const goodOrders = byKind('order').filter((w) => w.refuse === undefined);
    const unansweredOrders = goodOrders.filter((w) => !w.answer);
    for (const write of unansweredOrders) expect((await send(second.url, ptApi.placeOrder, { body: write.body }, { 'Idempotency-Key': write.marker }))?.status).toBe(201);
    for (const write of goodOrders.filter(acknowledged).slice(0, 5)) {
      const again = await send(second.url, ptApi.placeOrder, { body: write.body }, { 'Idempotency-Key': write.marker });
      expect((again?.body as PlacedOrder).id).toBe(answerOf<PlacedOrder>(write).id);
    }
    const after = await openDatabase(target.url);
    const keys = await after.db.selectFrom('orders').select('idempotency_key').where('idempotency_key', 'is not', null).execute();
    await after.close();
    expect(keys.filter((row) => row.idempotency_key!.startsWith('crash-order-')).length).toBe(goodOrders.length);

    // Someone who joined before the kill signs in with the password they chose.
    const joinedBefore = byKind('joining').find((w) => w.refuse === undefined && acknowledged(w))!;
    const joinedEmail = answerOf<{ user: { email: string } }>(joinedBefore).user.email;
    expect((await send(second.url, loginApi.login, { body: { email: joinedEmail, password: JOINER_PASSWORD } }))?.status).toBe(200);

    const label: Record<Kind, string> = {
      order: 'orders',
      chat: 'chat messages',
      member: 'new members',
      membership: 'membership changes',
      conversation: 'help requests',
      invitation: 'invitations',
      joining: 'invitations answered',
      password: 'own password changes',
      name: 'own name changes',
      role: 'role changes',
      status: 'deactivations and reactivations',
      resetLink: 'reset links',
      reset: 'reset links used',
    };
    const summary = kinds
      .map((kind) => {
        const all = byKind(kind);
        const ok = all.filter(acknowledged).length;
        const events = kind in announcing ? `; ${storedIds[kind as Announced].length} stored, each with exactly 1 live event in the log and 1 resumed after the restart` : '';
        return `${label[kind]} ${ok} acknowledged / ${all.filter(refused).length} refused / ${all.filter((w) => !w.answer).length} unanswered (${stored[kind] - ok} of them stored)${events}`;
      })
      .join('; ');
    console.log(`crash durability (${testEngine()}): ${summary}; ${events.length} live events in the log, all ${replayed.length} resent in order to a stream resuming after the restart`);
  } finally {
    first.child.kill('SIGKILL');
    await second?.stop();
  }
});
