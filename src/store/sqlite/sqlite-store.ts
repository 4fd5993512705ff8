import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from 'better-sqlite3';
import BetterSqlite3 from 'better-sqlite3';
import { type Clock, systemClock } from '../../domain/clock.js';
import { SqliteIdempotencyStore } from '../idempotency/sqlite.js';
import { SqliteInstances } from '../instances/sqlite.js';
import { type DestinationFilter, type DestinationPage, destinationPageSql } from '../known-destinations.js';
import type { StoreLifecycle } from '../lifecycle.js';
import { SqliteLookupCache } from '../lookups/sqlite.js';
import type { AppliedMigration } from '../migrations.js';
import { SqliteSessionStore } from '../sessions/sqlite.js';
import { SqliteSilentFallbacks } from '../silent-fallbacks/sqlite.js';
import { SqliteWebhookStore } from '../webhooks/sqlite.js';
import { SqliteWhatsAppCalls } from '../whatsapp-calls/sqlite.js';
import { Checkpointer } from './checkpointer.js';
import { SqliteCounterPersistence } from './counter-persistence.js';
import { SqliteFold } from './fold.js';
import { GroupCommit } from './group-commit.js';
import { SqliteKeysAndAccounts } from './keys-and-accounts.js';
import { applySqliteMigrations } from './migrate.js';
import { SqliteReadModel } from './read-model.js';
import { prepare, type Statements } from './statements.js';
import { SqliteVerifications } from './verifications.js';

/**
 * The embedded default store: one better-sqlite3 connection in WAL mode with group commit, shared
 * by its aggregates (each write of any of them is one unit of the same group commit).
 */
export class SqliteStore implements StoreLifecycle {
  readonly dialect = 'sqlite' as const;
  /** Migrations of a newer version this one runs on, each marked tolerated (see migrations.ts). */
  newerMigrations: AppliedMigration[] = [];
  readonly idempotency: SqliteIdempotencyStore;
  readonly webhooks: SqliteWebhookStore;
  readonly sessions: SqliteSessionStore;
  readonly silentFallbacks: SqliteSilentFallbacks;
  readonly instances: SqliteInstances;
  readonly lookups: SqliteLookupCache;
  readonly whatsappCalls: SqliteWhatsAppCalls;
  readonly verifications: SqliteVerifications;
  readonly accounts: SqliteKeysAndAccounts;
  readonly readModel: SqliteReadModel;
  private readonly db: Database;
  private readonly tx: GroupCommit;
  private readonly stmts: Statements;
  private readonly checkpointer: Checkpointer | null;
  private readonly known: DestinationFilter | null;

  /**
   * `path` is a file path or `:memory:`. `walRestartFrames` (tests) overrides the WAL length past
   * which the checkpointer starts the log over; `clock` times what the fold makes; `known`, the
   * destinations this process may answer the risk screen for without a query (see
   * DestinationFilter), is loaded from the file and kept up to date by every send.
   */
  constructor(
    path: string,
    options: { walRestartFrames?: number; clock?: Clock; known?: DestinationFilter } = {},
  ) {
    if (path !== ':memory:') createPrivately(path);
    this.db = new BetterSqlite3(path);
    this.db.pragma('journal_mode = WAL');
    // SQLite gives the -wal and -shm files the database file's mode; set it again should they exist.
    if (path !== ':memory:')
      for (const f of [`${path}-wal`, `${path}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
    // NORMAL in WAL mode: a commit survives a crash of the process (kill -9); only a power loss
    // can take the last transactions. FULL would fsync every commit.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    // Settled codes leave no trace in the files. secure_delete zeroes what a statement frees: the
    // old version of a row an update moved (a pending row's outbox message with its code in
    // clear) and, being ON rather than FAST, whole pages a deletion hands to the freelist (FAST
    // left the code hashes of requests the retention deleted there). The WAL keeps old page
    // images until its frames are overwritten; with journal_size_limit 0, the first commit after
    // the log starts over (once a checkpoint copied it all, see Checkpointer) cuts the file to
    // what that commit wrote, so older frames do not linger at its end.
    this.db.pragma('secure_delete = ON');
    this.db.pragma('journal_size_limit = 0');
    this.checkpointer =
      path === ':memory:' ? null : new Checkpointer(this.db, path, options.walRestartFrames);
    try {
      this.applyMigrations();
    } catch (err) {
      // A database this version may not run on (NewerSchemaError) is left as it was found.
      void this.checkpointer?.stop();
      this.db.close();
      throw err;
    }
    this.stmts = prepare(this.db);
    const checkpointer = this.checkpointer;
    this.tx = new GroupCommit(this.db, checkpointer ? () => checkpointer.restartPending() : undefined);
    this.idempotency = new SqliteIdempotencyStore(this.db, this.tx);
    this.webhooks = new SqliteWebhookStore(this.db, this.tx);
    this.sessions = new SqliteSessionStore(this.db, this.tx);
    this.silentFallbacks = new SqliteSilentFallbacks(this.db, this.tx);
    this.instances = new SqliteInstances(this.db, this.tx);
    this.lookups = new SqliteLookupCache(this.db, this.tx);
    this.whatsappCalls = new SqliteWhatsAppCalls(this.db, this.tx);
    this.known = options.known ?? null;
    this.verifications = new SqliteVerifications(this.tx, this.stmts, this.known);
    this.accounts = new SqliteKeysAndAccounts(this.tx, this.stmts);
    const folder = new SqliteFold(this.db, this.webhooks);
    this.readModel = new SqliteReadModel(
      this.db,
      this.tx,
      this.stmts,
      folder,
      options.clock ?? systemClock,
      this.known,
    );
    if (this.known) void this.known.load(this.destinationPages());
  }

  /** Pages of the destinations in the file, for the DestinationFilter. */
  private destinationPages(): DestinationPage {
    const pages = {
      verifications: this.db.prepare(destinationPageSql('verifications', 'sqlite')),
      contacts: this.db.prepare(destinationPageSql('contacts', 'sqlite')),
    };
    return async (table, after, limit) =>
      this.tx.waitingIfBusy(() => pages[table].all(after, limit)) as Awaited<ReturnType<DestinationPage>>;
  }

  /** The rate-limit counters' table in this file, for the embedded default's durable limits. */
  counterPersistence(): SqliteCounterPersistence {
    return new SqliteCounterPersistence(this.tx);
  }

  private applyMigrations(): number[] {
    const { applied, newer } = applySqliteMigrations(this.db);
    this.newerMigrations = newer;
    return applied;
  }

  async migrate(): Promise<number[]> {
    return this.tx.waitingIfBusy(() => this.applyMigrations());
  }

  async check(): Promise<boolean> {
    try {
      this.tx.waitingIfBusy(() => this.stmts.ping.get());
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.known?.stop();
    this.tx.flush();
    await this.checkpointer?.stop();
    if (this.db.open) this.db.close();
  }

  getOrCreateSetting(name: string, value: string) {
    return this.tx.write(() => {
      const created = this.stmts.insertSetting.run(name, value).changes > 0;
      const row = this.stmts.getSetting.get(name) as { value: string };
      return { value: row.value, created };
    });
  }
}

/**
 * The database holds code hashes, key hashes and destinations: its directory is created 0700 and
 * its file 0600 (also when it exists already), before SQLite opens it.
 */
function createPrivately(path: string): void {
  const dir = dirname(path);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}
