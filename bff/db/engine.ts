import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { LRUCache } from 'lru-cache';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  sql,
  SqliteDialect,
  SqliteDriver,
  SqliteQueryCompiler,
  ValueNode,
  type ColumnDefinitionBuilder,
  type DatabaseConnection,
  type Dialect,
  type Expression,
  type LimitNode,
  type OffsetNode,
  type OperationNode,
  type RawBuilder,
  type SqlBool,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * The only engine-specific code: how to connect, the few DDL and SQL spellings that differ, and
 * what only PostgreSQL offers several instances (locks across processes, LISTEN/NOTIFY). Features
 * and migrations call what is here and run unchanged on both engines.
 */
export type Engine = 'sqlite' | 'postgres';

export interface EngineDdl {
  /** An auto-incrementing integer primary key. */
  id: (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /**
   * A full-text index over one text column of a table with an integer `id` (SQLite: an FTS5 table
   * `<table>_text` kept by {@link Connection.refreshTextIndex}; PostgreSQL: a GIN index, kept by the database),
   * over the rows already in the table.
   */
  textIndex: (db: AnyDb, table: string, column: string) => Promise<void>;
  /**
   * Replaces {@link textIndex}'s index with one whose matches come out in the order of `rank`, a
   * unique integer column (1 = first): a search then reads its matches best first and stops at its
   * page. SQLite: the FTS5 table is keyed by the rank, with prefix indexes up to 8 characters (a
   * typed word's start is read as one list, not merged from every word it starts with); PostgreSQL: the
   * words kept as a generated tsvector column ({@link textVector}) under a GIN index, and the rank's own
   * index (the caller's) gives the order.
   */
  rankedTextIndex: (db: AnyDb, table: string, column: string, rank: string) => Promise<void>;
  /**
   * An index that finds the rows of `table` (with an integer `id`) whose `columns` contain a text
   * anywhere in them, any case ({@link Connection.containsMatch}), over the rows already there and
   * kept by the database from then on. SQLite: an FTS5 table `<table>_contains` of trigrams,
   * external content kept by triggers; PostgreSQL: `pg_trgm` GIN indexes on each `lower(column)`.
   */
  containsIndex: (db: AnyDb, table: string, columns: readonly string[]) => Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the helpers below work on any schema, inside or outside a transaction
type AnyDb = Kysely<any>;

/** A row found by {@link Connection.textHits}: its rank in its table. */
export interface TextHit {
  rank: number;
}

export interface ChannelHandlers {
  /** A notification's payload, in commit order. */
  onNotify: (payload: string) => void;
  /** The listening connection is (re-)established: anything sent while it was down was missed. */
  onConnect: () => void;
}

export interface Connection {
  engine: Engine;
  dialect: Dialect;
  ddl: EngineDdl;
  /**
   * Runs `work` while no other instance runs its own `exclusively` work on this database (start-up:
   * migrate, first admin, seed). One process with SQLite: nothing to wait for.
   */
  exclusively: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * Inside a transaction: waits until no other transaction holds the lock `name`, and holds it until
   * this one ends (a rate window, the stalls of an order); true then. SQLite has one writer: nothing to
   * wait for, and false.
   */
  transactionLock: (trx: AnyDb, name: string) => Promise<boolean>;
  /**
   * Appends one row to an append-only log so that ids commit in order and tells `channel` the new id
   * on commit; one round trip. Answers the id. The log's lock is taken before the id is drawn and
   * held until the transaction `db` is in ends, so run it as the last statement of a write that
   * carries its own log row (alone, it is a transaction of its own).
   */
  appendToLog: (db: AnyDb, log: { table: string; channel: string }, values: Record<string, string | number | null>) => Promise<number>;
  /** Inside a transaction: tells every listener of `channel` about `payload` when it commits. */
  notify: (trx: AnyDb, channel: string, payload: string) => Promise<void>;
  /**
   * Hears every instance's notifications on `channel`, reconnecting after a lost connection.
   * Absent on SQLite: one process, so there is no one else to hear from.
   */
  listen?: (channel: string, handlers: ChannelHandlers) => () => Promise<void>;
  /** The database server's clock in epoch milliseconds: one clock for every instance. */
  serverNowMs: RawBuilder<number>;
  /**
   * The rows of `table` whose text (under {@link EngineDdl.rankedTextIndex}) holds every one of
   * `words`, each as a word or the start of one: a derived table of their `rank` (the index's `rank`
   * column), to join to `table` on that column and read in that order. Answered from the index, never
   * a scan of the table.
   */
  textHits: (table: string, rank: string, words: readonly string[]) => RawBuilder<TextHit>;
  /**
   * The rows of `table` (its `id`, written `idColumn` where the query names it otherwise) whose
   * `columns` contain `text`, any case, through {@link EngineDdl.containsIndex}: a condition for a
   * `where`. A text of fewer than 3 characters has no trigram to look up: it is the plain
   * {@link containsText}, which a list then stops early by its page and its capped count.
   */
  containsMatch: (table: string, columns: readonly string[], text: string, idColumn?: string) => Expression<SqlBool>;
  /** After bulk writes to `table`, inside their transaction: brings its text index up to date (PostgreSQL's keeps itself). */
  refreshTextIndex: (trx: AnyDb, table: string) => Promise<void>;
  /**
   * Brings the query planner's statistics up to date where tables grew or shrank a lot since they
   * were last read (SQLite's `PRAGMA optimize`, as its documentation advises for a long-lived
   * connection, run periodically; PostgreSQL's autovacuum does this by itself). Without them SQLite
   * read 10,000 open orders and sorted them for every runner board, the partial index beside it unused.
   */
  optimize: () => Promise<void>;
  /** Closes what `listen` and `exclusively` opened (Kysely's destroy closes the rest). */
  close: () => Promise<void>;
  /**
   * Whether every `listen` connection is up now (true when there are none). While one is down this
   * instance hears other instances' live events only when it is back (it then reads what it missed).
   */
  listenersConnected: () => boolean;
  /** PostgreSQL: the pool's connections now (for the metrics). SQLite has one connection, no pool. */
  poolUse?: () => PoolUse;
}

export interface PoolUse {
  /** Connections open, busy or idle. */
  open: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

export interface ConnectOptions {
  /** PostgreSQL: connections in this instance's pool. */
  poolSize?: number;
  /**
   * PostgreSQL: how long opening a connection (or waiting for a free one of the pool) may take before
   * it fails. Without it, a server that drops packets holds every request until the kernel gives up (minutes).
   */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL: the pool's connections cancel a statement (or a wait for a lock) running longer than
   * this (`statement_timeout`, SQLSTATE 57014); 0 or unset: no limit. The start-up lock's and the listen
   * connections are not the pool's and never time out. SQLite has no such setting: its `busy_timeout`
   * (5 s) bounds the only wait a statement has, the one for the write lock.
   */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL: a store of its own inside the database (the Kisi emulator's), in this schema: its
   * tables are created and found there only, it is created on the first `exclusively` turn, and
   * that turn is its own (not the product's start-up turn, which may be held while it is opened).
   * SQLite has no schemas worth the name: a store of its own is a file of its own.
   */
  schema?: string;
}

export function connect(url: string, options: ConnectOptions = {}): Connection {
  return isPostgresUrl(url) ? connectPostgres(url, { poolSize: options.poolSize ?? 10, connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, statementTimeoutMs: options.statementTimeoutMs ?? 0, schema: options.schema }) : connectSqlite(url);
}

/** Builds an external-content FTS5 index (`<table>_text`) again from its table's rows. */
const rebuildTextIndex = async (db: AnyDb, table: string): Promise<void> =>
  void (await sql`insert into ${sql.table(`${table}_text`)} (${sql.ref(`${table}_text`)}) values ('rebuild')`.execute(db));

/** The SQLite file a DATABASE_URL names (`file:<path>`), or `:memory:`. */
export const sqliteFileOf = (url: string): string => (url === ':memory:' ? ':memory:' : url.replace(/^file:/, ''));

// Every paged read's LIMIT and OFFSET as integers in the text: SQLite plans a bound one again at each run (the open orders' page 18 → 10 µs); PostgreSQL plans each statement with its values anyway.
class LiteralPageBoundsCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    this.append('limit ');
    this.visitPageBound(node.limit);
  }

  protected override visitOffset(node: OffsetNode): void {
    this.append('offset ');
    this.visitPageBound(node.offset);
  }

  private visitPageBound(node: OperationNode): void {
    if (ValueNode.is(node) && Number.isSafeInteger(node.value)) this.append(String(node.value));
    else this.visitNode(node);
  }
}

/**
 * Transactions begin IMMEDIATE: the write lock is taken, waiting up to the busy timeout, before the
 * first read. In the process the one connection takes turns anyway; but another process writing the
 * file (`npm run backup`'s lease and record, `npm run account`) between a deferred transaction's first
 * read and its first write left that transaction's snapshot stale, and its write failed at once with
 * SQLITE_BUSY (no wait helps a stale snapshot): a 503 for a request that had done nothing wrong.
 */
class ImmediateTransactionsDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class SqliteDialectLiteralPageBounds extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver() {
    return new ImmediateTransactionsDriver(this.settings);
  }

  override createQueryCompiler() {
    return new LiteralPageBoundsCompiler();
  }
}

function connectSqlite(url: string): Connection {
  const file = sqliteFileOf(url);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('synchronous = NORMAL');
  // ANALYZE samples at most this many index rows a table: statistics in milliseconds, not a full scan.
  sqlite.pragma('analysis_limit = 1000');
  optimizeIfFree(sqlite, 'optimize = 0x10002');
  // Kysely prepares every query anew; reusing prepared statements by SQL text saves that work per
  // request (46 µs for the members page). Least recently used ones give way: a list of ids makes a
  // new text for each length, and a full map that kept the first 500 would never take a new one.
  const statements = new LRUCache<string, SQLite.Statement>({ max: 500 });
  const database = {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
  return {
    engine: 'sqlite',
    dialect: new SqliteDialectLiteralPageBounds({ database }),
    ddl: {
      id: (col) => col.primaryKey().autoIncrement(),
      textIndex: async (db, table, column) => {
        // Prefix indexes for 1–3 characters: a short word's `"1"*` (the `-1` of every set number) would otherwise walk every token that starts with it.
        await sql`create virtual table ${sql.table(`${table}_text`)} using fts5(${sql.ref(column)}, content=${sql.lit(table)}, content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='1 2 3')`.execute(db);
        // An external-content index starts empty: it is built from the rows already there.
        await rebuildTextIndex(db, table);
      },
      rankedTextIndex: async (db, table, column, rank) => {
        await sql`drop table if exists ${sql.table(`${table}_text`)}`.execute(db);
        await sql`create virtual table ${sql.table(`${table}_text`)} using fts5(${sql.ref(column)}, content=${sql.lit(table)}, content_rowid=${sql.lit(rank)}, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4 5 6 7 8')`.execute(db);
        await rebuildTextIndex(db, table);
      },
      containsIndex: async (db, table, columns) => {
        const index = sql.table(containsTable(table));
        const names = sql.join(columns.map((column) => sql.ref(column)));
        const of = (row: 'new' | 'old') => sql.join(columns.map((column) => sql.ref(`${row}.${column}`)));
        await sql`create virtual table ${index} using fts5(${names}, content=${sql.lit(table)}, content_rowid='id', tokenize='trigram')`.execute(db);
        // External content: the index holds only trigrams, kept in step with the table by its triggers.
        const forget = sql`insert into ${index} (${index}, rowid, ${names}) values ('delete', old.id, ${of('old')})`;
        const remember = sql`insert into ${index} (rowid, ${names}) values (new.id, ${of('new')})`;
        const trigger = (name: string) => sql.ref(`${containsTable(table)}_${name}`);
        await sql`create trigger ${trigger('insert')} after insert on ${sql.table(table)} begin ${remember}; end`.execute(db);
        await sql`create trigger ${trigger('delete')} after delete on ${sql.table(table)} begin ${forget}; end`.execute(db);
        await sql`create trigger ${trigger('update')} after update of ${names} on ${sql.table(table)} begin ${forget}; ${remember}; end`.execute(db);
        await sql`insert into ${index} (${index}) values ('rebuild')`.execute(db);
      },
    },
    exclusively: (work) => work(),
    // Write transactions already take turns on the one connection: there is nothing to wait for.
    transactionLock: async () => false,
    // One writer at a time: ids are handed out and committed in order anyway.
    appendToLog: async (db, log, values) => Number((await db.insertInto(log.table).values(values).returning('id').executeTakeFirstOrThrow()).id),
    notify: async () => {},
    serverNowMs: sql<number>`cast(round((julianday('now') - 2440587.5) * 86400000) as integer)`,
    textHits: (table, _rank, words) => {
      // FTS5 query syntax: each word quoted (nothing in it is an operator), `*` for "starts with", spaces for AND.
      const query = words.map((word) => `"${word.replace(/"/g, '""')}"*`).join(' ');
      // The index's rowid is the rank: it hands its matches back in rank order, so a page read from it stops early.
      return sql<TextHit>`(select rowid as rank from ${sql.table(`${table}_text`)} where ${sql.table(`${table}_text`)} match ${query})`;
    },
    containsMatch: (table, columns, text, idColumn = 'id') => {
      if ([...text].length < 3) return containsText(columns, text);
      const index = sql.table(containsTable(table));
      // An FTS5 phrase of the text's trigrams: the rows holding it, in any one of the columns.
      const phrase = `"${text.replace(/"/g, '""')}"`;
      return sql<SqlBool>`${sql.ref(idColumn)} in (select rowid from ${index} where ${index} match ${phrase})`;
    },
    refreshTextIndex: rebuildTextIndex,
    optimize: async () => optimizeIfFree(sqlite, 'optimize'),
    close: async () => {},
    // No listen connections: one process hears its own events.
    listenersConnected: () => true,
  };
}

/**
 * The planner's statistics brought up to date, unless another connection holds the database this
 * moment (a starting server's work while `npm run account` or a test opens the file: ANALYZE then
 * waited out the 5 s and failed the open). They are an optimisation: without waiting (the call blocks
 * its thread), and the next periodic optimize makes them. Other failures are failures.
 */
function optimizeIfFree(sqlite: SQLite.Database, pragma: string): void {
  sqlite.pragma('busy_timeout = 0');
  try {
    sqlite.pragma(pragma);
  } catch (err) {
    if (!(err instanceof SQLite.SqliteError && err.code.startsWith('SQLITE_BUSY'))) throw err;
  } finally {
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/** How long a SQLite statement waits for another connection's write to end. */
const BUSY_TIMEOUT_MS = 5_000;

/** SQLite's trigram index of a table's {@link EngineDdl.containsIndex} (engine storage, not declared in schema.ts). */
const containsTable = (table: string) => `${table}_contains`;

/**
 * PostgreSQL's words of a ranked text index: a generated column of the table (`parts_words`), engine
 * storage like SQLite's FTS5 tables, so neither is declared in schema.ts.
 */
export const textVector = (table: string) => `${table}_words`;

/** Keys of PostgreSQL advisory locks (one 64-bit number per purpose, the same in every instance). */
const STARTUP_LOCK = 0x46_44_00_01;
const lockKey = (name: string) => sql`hashtext(${`frontdesk-log:${name}`})`;

/** `count(*)` and other bigints arrive as numbers, as they do from SQLite (ids and counts stay far below 2^53). */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

const RECONNECT_MS = { first: 100, max: 5_000 };
const PROBE_MS = { every: 15_000, timeout: 5_000 };

function connectPostgres(url: string, { poolSize, connectTimeoutMs, statementTimeoutMs, schema }: { poolSize: number; connectTimeoutMs: number; statementTimeoutMs: number; schema?: string }): Connection {
  // The search path is the store's schema alone: an unqualified name never reaches another store's table.
  const searchPath = schema ? { options: `-c search_path=${pg.escapeIdentifier(schema)}` } : {};
  const connectionTimeoutMillis = connectTimeoutMs;
  // statement_timeout is sent with each connection's start-up: it holds for every statement the pool runs.
  const statementTimeout = statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {};
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types, application_name: 'frontdesk', connectionTimeoutMillis, ...statementTimeout, ...searchPath });
  // A client losing its server (a restart, a failover) must not crash the process. An idle one the
  // pool reports here and replaces; one checked out (between the queries of a request) reports on
  // itself, and the pool drops it when it comes back unqueryable. Its query in flight fails either way.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const listeners = new Set<() => Promise<void>>();
  /** The listen connections down now (each `listen` is in it from its start until it connects). */
  const listenersDown = new Set<() => Promise<void>>();

  const listen = (channel: string, handlers: ChannelHandlers) => {
    let client: pg.Client | undefined;
    let stopped = false;
    let delay = RECONNECT_MS.first;
    let retry: NodeJS.Timeout | undefined;
    const reconnectLater = () => {
      client = undefined;
      if (!stopped) listenersDown.add(stop);
      if (stopped || retry) return;
      retry = setTimeout(() => {
        retry = undefined;
        void open();
      }, delay);
      delay = Math.min(delay * 2, RECONNECT_MS.max);
    };
    const open = async () => {
      const c = new pg.Client({ connectionString: url, types, application_name: 'frontdesk-listen', keepAlive: true, connectionTimeoutMillis });
      c.on('error', () => {}); // 'end' follows and reconnects
      c.on('end', () => client === c && reconnectLater());
      c.on('notification', (message) => message.channel === channel && handlers.onNotify(message.payload ?? ''));
      try {
        await c.connect();
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        if (stopped) return void (await c.end());
        client = c;
        listenersDown.delete(stop);
        delay = RECONNECT_MS.first;
        handlers.onConnect();
        probe(c);
      } catch {
        await c.end().catch(() => {});
        reconnectLater();
      }
    };
    // A connection a firewall dropped without a word sends no 'end': ask now and then, and start over when it does not answer.
    let probeTimer: NodeJS.Timeout | undefined;
    const probe = (c: pg.Client) => {
      probeTimer = setTimeout(async () => {
        if (client !== c) return;
        const answered = await Promise.race([c.query('select 1').then(() => true, () => false), new Promise<boolean>((r) => setTimeout(() => r(false), PROBE_MS.timeout))]);
        if (client !== c) return;
        if (answered) probe(c);
        // A polite end would wait on the dead socket; cut it, and 'end' reconnects (the gap is read then).
        else (c as unknown as { connection: { stream: { destroy: () => void } } }).connection.stream.destroy();
      }, PROBE_MS.every);
      probeTimer.unref();
    };
    const stop = async () => {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(probeTimer);
      listeners.delete(stop);
      listenersDown.delete(stop);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    };
    listeners.add(stop);
    listenersDown.add(stop);
    void open();
    return stop;
  };

  return {
    engine: 'postgres',
    dialect: new PostgresDialect({ pool }),
    ddl: {
      id: (col) => col.primaryKey().generatedByDefaultAsIdentity(),
      textIndex: async (db, table, column) =>
        // fastupdate off: rows written in bulk go into the index itself, not a pending list every search would scan until a vacuum.
        void (await sql`create index ${sql.ref(`${table}_${column}_text_idx`)} on ${sql.table(table)} using gin (to_tsvector('simple', ${sql.ref(column)})) with (fastupdate = off)`.execute(db)),
      // The words are kept as a tsvector column beside the text: a prefix match (`'brick':*`) is rechecked
      // on every row the GIN index hands back, and reading a page in rank order tests row after row; computing
      // to_tsvector for each cost 5–20 ms a search. The rank column's own index (the migration's) gives the order.
      rankedTextIndex: async (db, table, column) => {
        await sql`alter table ${sql.table(table)} add column ${sql.ref(textVector(table))} tsvector generated always as (to_tsvector('simple', ${sql.ref(column)})) stored`.execute(db);
        await sql`drop index if exists ${sql.ref(`${table}_${column}_text_idx`)}`.execute(db);
        await sql`create index ${sql.ref(`${table}_words_idx`)} on ${sql.table(table)} using gin (${sql.ref(textVector(table))}) with (fastupdate = off)`.execute(db);
      },
      containsIndex: async (db, table, columns) => {
        // Trusted since PostgreSQL 13: the database's owner may create it (docs/deploy.md).
        await sql`create extension if not exists pg_trgm`.execute(db);
        for (const column of columns) {
          await sql`create index ${sql.ref(`${table}_${column}_contains_idx`)} on ${sql.table(table)} using gin (lower(${sql.ref(column)}) gin_trgm_ops) with (fastupdate = off)`.execute(db);
        }
      },
    },
    async exclusively(work) {
      // A session lock on a connection of its own, so the work may use the pool freely meanwhile.
      const client = new pg.Client({ connectionString: url, application_name: 'frontdesk-startup', connectionTimeoutMillis });
      await client.connect();
      try {
        if (!schema) await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
        else {
          // Two keys are a lock apart from the one-key STARTUP_LOCK: a store opened during the product's turn does not wait on it.
          await client.query('select pg_advisory_lock($1, hashtext($2))', [STARTUP_LOCK, schema]);
          await client.query(`create schema if not exists ${pg.escapeIdentifier(schema)}`);
        }
        return await work();
      } finally {
        await client.end().catch(() => {});
      }
    },
    transactionLock: async (trx, name) => {
      await sql`select pg_advisory_xact_lock(${lockKey(name)})`.execute(trx);
      return true;
    },
    async appendToLog(db, log, values) {
      // The insert reads its row from the lock's CTE, so the lock is taken before the id is drawn, and
      // held (with the notification queued) until the transaction commits.
      const columns = Object.keys(values);
      const { rows } = await sql<{ id: number }>`
        with locked as (select pg_advisory_xact_lock(${lockKey(log.table)}))
        , appended as (
          insert into ${sql.table(log.table)} (${sql.join(columns.map((c) => sql.ref(c)))})
          select ${sql.join(columns.map((c) => values[c]))} from locked
          returning id
        )
        select id, pg_notify(${log.channel}, id::text) from appended`.execute(db);
      return Number(rows[0]!.id);
    },
    notify: async (trx, channel, payload) => void (await sql`select pg_notify(${channel}, ${payload})`.execute(trx)),
    listen,
    serverNowMs: sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`,
    textHits: (table, rank, words) => {
      // tsquery syntax: each word quoted as a lexeme, `:*` for "starts with", `&` for AND.
      const query = words.map((word) => `'${word.replace(/'/g, "''")}':*`).join(' & ');
      return sql<TextHit>`(select ${sql.ref(rank)} as rank from ${sql.table(table)} where ${sql.ref(textVector(table))} @@ to_tsquery('simple', ${query}))`;
    },
    // `lower(column) like '%text%'` is what pg_trgm's GIN index answers (from 3 characters; shorter texts scan).
    containsMatch: (_table, columns, text) => containsText(columns, text),
    refreshTextIndex: async () => {},
    optimize: async () => {},
    close: async () => {
      await Promise.all([...listeners].map((stop) => stop()));
    },
    listenersConnected: () => listenersDown.size === 0,
    poolUse: () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
  };
}

export const createKysely = <T>(connection: Connection) => new Kysely<T>({ dialect: connection.dialect });

/** True when a write failed on a UNIQUE constraint (a race the caller reports as 409). */
export const isUniqueViolation = (err: unknown): boolean => {
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : undefined;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
};

/** True when a write failed on a FOREIGN KEY constraint (the row it names went meanwhile: a race the caller reports as 409). */
export const isForeignKeyViolation = (err: unknown): boolean => {
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : undefined;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
};

/**
 * The database cannot be reached or is going away, as each engine says it: a try a little later may
 * well succeed, so the request is answered 503 with Retry-After rather than 500 (a fault of ours).
 *
 * - PostgreSQL's SQLSTATE classes 08 (connection exception) and 57P (operator intervention: an
 *   administrator's shutdown 57P01, a crash 57P02, "cannot connect now" 57P03 while it starts or
 *   stops), 53300 (too many connections), and 57014 (a statement cancelled: past the pool's
 *   `statement_timeout`, stuck behind a lock or a server that stopped answering, or by an operator);
 * - the socket's own errors reaching it (refused, reset, no answer, name not resolved);
 * - node-postgres' connect timeout and lost connection, which carry no code, only these words;
 * - SQLite's busy (another process held the write lock past `busy_timeout`) and I/O errors (the disk went away).
 */
const POSTGRES_UNAVAILABLE = /^(08...|57P0[1-3]|53300|57014)$/;
const SOCKET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
const NODE_POSTGRES_UNAVAILABLE = /^(timeout exceeded when trying to connect|Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable)$/;
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|IOERR)(_|$)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : undefined;
  if (code !== undefined && (POSTGRES_UNAVAILABLE.test(code) || SOCKET_UNAVAILABLE.has(code) || SQLITE_UNAVAILABLE.test(code))) return true;
  if (err instanceof Error && code === undefined && NODE_POSTGRES_UNAVAILABLE.test(err.message)) return true;
  // Every address of a host refused: Node's AggregateError, with the code of the first.
  return err instanceof AggregateError && err.errors.some(isDatabaseUnavailable);
}

/**
 * Case-insensitive "contains" over text columns, the same on both engines: SQLite's LIKE ignores
 * ASCII case and PostgreSQL's does not, so both sides are lower-cased. `%`, `_` and `\` in the
 * search text match themselves.
 */
export function containsText(columns: readonly string[], text: string): Expression<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const tests: RawBuilder<SqlBool>[] = columns.map((column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`);
  return tests.length === 1 ? tests[0]! : sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

