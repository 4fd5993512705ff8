import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import BetterSqlite3 from 'better-sqlite3';
import { type Clock, systemClock } from '../../domain/clock.js';
import { timeOrderedUuidFloor } from '../../domain/ids.js';
import { maskDestination } from '../../domain/masking.js';
import type { BreakerState } from '../../domain/pumping-breaker.js';
import type {
  Account,
  AccountSettings,
  ApiKeyRecord,
  AuthenticatedKey,
  Channel,
  DeliveryStatus,
  NewVerification,
} from '../../domain/types.js';
import { breakerParams, breakerSql, rowToBreaker } from '../breakers.js';
import { APPEND_CHANGE_SQL, type RequestChange, settledKind } from '../changes.js';
import {
  type ContactListFilter,
  type ContactRecord,
  contactSql,
  type DestinationSignals,
  numberBlock,
  prefixEnd,
  recentParams,
  rowToContact,
  rowToHistory,
  rowToSignals,
  searchParams,
} from '../contacts.js';
import { SqliteIdempotencyStore } from '../idempotency/sqlite.js';
import {
  type AnalyticsQuery,
  analyticsSql,
  type Refusal,
  refusalParams,
  refusalSql,
  rowsToAnalytics,
} from '../insights.js';
import type {
  ApiKeyPatch,
  AttemptOutcome,
  DeliveryRecord,
  LiveCode,
  NewApiKey,
  OutboxEntry,
  OutboxFilter,
  Store,
  StoredLogo,
  SweepResult,
} from '../interface.js';
import type { AppliedMigration } from '../migrations.js';
import {
  type AccountRow,
  type ApiKeyRow,
  ATTEMPT_READ_SELECT,
  attemptOutcome,
  attemptReadFor,
  newKeyRecord,
  noRequestForOutbox,
  OUTBOX_SELECT,
  pickWinner,
  rowToAccount,
  rowToApiKey,
  rowToAuthenticatedKey,
  rowToOutboxEntry,
  rowToVerification,
  VERIFICATION_SELECT,
} from '../rows.js';
import { SqliteSessionStore } from '../sessions/sqlite.js';
import { SqliteWebhookStore } from '../webhooks/sqlite.js';
import { Checkpointer } from './checkpointer.js';
import { SqliteCounterPersistence } from './counter-persistence.js';
import { SqliteFold } from './fold.js';
import { GroupCommit } from './group-commit.js';
import { applySqliteMigrations } from './migrate.js';
import { SqliteSignals } from './signals.js';

/** The embedded default store: one better-sqlite3 connection in WAL mode with group commit. */
export class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  /** Migrations of a newer version this one runs on, each marked tolerated (see migrations.ts). */
  newerMigrations: AppliedMigration[] = [];
  readonly idempotency: SqliteIdempotencyStore;
  readonly webhooks: SqliteWebhookStore;
  readonly sessions: SqliteSessionStore;
  private readonly folder: SqliteFold;
  private readonly clock: Clock;
  private readonly db: Database;
  private readonly tx: GroupCommit;
  private readonly stmts: ReturnType<typeof prepare>;
  private readonly checkpointer: Checkpointer | null;
  private readonly signals: SqliteSignals;
  private readonly contacts: Record<keyof ReturnType<typeof contactSql>, Statement>;
  private readonly refusal: Statement;
  private readonly breakers: Record<keyof ReturnType<typeof breakerSql>, Statement>;

  /**
   * `path` is a file path or `:memory:`. `walRestartFrames` (tests) overrides the WAL length past
   * which the checkpointer starts the log over; `clock` times what the fold makes.
   */
  constructor(path: string, options: { walRestartFrames?: number; clock?: Clock } = {}) {
    this.clock = options.clock ?? systemClock;
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
    this.signals = new SqliteSignals(this.db);
    const sql = contactSql('sqlite');
    this.contacts = Object.fromEntries(
      Object.entries(sql).map(([name, text]) => [name, this.db.prepare(text)]),
    ) as typeof this.contacts;
    this.refusal = this.db.prepare(refusalSql('sqlite'));
    const breakers = breakerSql('sqlite');
    this.breakers = {
      get: this.db.prepare(breakers.get),
      save: this.db.prepare(breakers.save),
      list: this.db.prepare(breakers.list),
    };
    const checkpointer = this.checkpointer;
    this.tx = new GroupCommit(this.db, checkpointer ? () => checkpointer.restartPending() : undefined);
    this.idempotency = new SqliteIdempotencyStore(this.db, this.tx);
    this.webhooks = new SqliteWebhookStore(this.db, this.tx);
    this.folder = new SqliteFold(this.db, this.webhooks);
    this.sessions = new SqliteSessionStore(this.db, this.tx);
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

  createAccount(account: Account) {
    return this.tx.write(() => {
      this.stmts.insertAccount.run(
        account.id,
        account.name,
        JSON.stringify(account.settings),
        account.createdAt,
      );
      return account;
    });
  }

  listAccounts() {
    return this.tx.read(() => (this.stmts.listAccounts.all() as AccountRow[]).map(rowToAccount));
  }

  getAccount(id: string) {
    return this.tx.read(() => {
      const row = this.stmts.getAccount.get(id) as AccountRow | undefined;
      return row ? rowToAccount(row) : null;
    });
  }

  updateAccountSettings(id: string, settings: AccountSettings) {
    return this.tx.write(() => {
      this.stmts.updateAccountSettings.run(JSON.stringify(settings), id);
      const row = this.stmts.getAccount.get(id) as AccountRow | undefined;
      return row ? rowToAccount(row) : null;
    });
  }

  putAccountLogo(accountId: string, logo: StoredLogo) {
    return this.tx.write(() => {
      this.stmts.putLogo.run(accountId, logo.contentType, logo.data, logo.updatedAt);
    });
  }

  getAccountLogo(accountId: string) {
    return this.tx.read(() => {
      const row = this.stmts.getLogo.get(accountId) as
        | { content_type: string; data: Buffer; updated_at: number }
        | undefined;
      return row
        ? { contentType: row.content_type, data: row.data, updatedAt: Number(row.updated_at) }
        : null;
    });
  }

  deleteAccountLogo(accountId: string) {
    return this.tx.write(() => {
      this.stmts.deleteLogo.run(accountId);
    });
  }

  createApiKey(key: NewApiKey) {
    return this.tx.write(() => this.insertKey(key));
  }

  private insertKey(key: NewApiKey): ApiKeyRecord {
    this.stmts.insertKey.run(
      key.id,
      key.accountId,
      key.name,
      key.prefix,
      key.keyHash,
      key.channels.join(','),
      key.test ? 1 : 0,
      key.createdAt,
    );
    return newKeyRecord(key);
  }

  listApiKeys(accountId?: string) {
    return this.tx.read(() => {
      const rows = (
        accountId ? this.stmts.listKeysOf.all(accountId) : this.stmts.listKeys.all()
      ) as ApiKeyRow[];
      return rows.map(rowToApiKey);
    });
  }

  getApiKey(id: string) {
    return this.tx.read(() => {
      const row = this.stmts.getKey.get(id) as ApiKeyRow | undefined;
      return row ? rowToApiKey(row) : null;
    });
  }

  findActiveApiKey(keyHash: string): Promise<AuthenticatedKey | null> {
    // Not routed through the batch: a key is used only after the request that created it
    // was answered, i.e. after its batch committed.
    const row = this.tx.waitingIfBusy(() => this.stmts.findActiveKey.get(keyHash)) as
      | (ApiKeyRow & { account_settings: string })
      | undefined;
    if (!row) return Promise.resolve(null);
    return Promise.resolve(rowToAuthenticatedKey(row));
  }

  revokeApiKey(id: string, now: number) {
    return this.tx.write(() => this.stmts.revokeKey.run(now, id).changes > 0);
  }

  updateApiKey(id: string, patch: ApiKeyPatch) {
    return this.tx.write(() => {
      const row = this.stmts.getKey.get(id) as ApiKeyRow | undefined;
      if (!row || row.revoked_at !== null) return null;
      this.stmts.updateKey.run(
        patch.name ?? row.name,
        patch.channels ? patch.channels.join(',') : row.channels,
        id,
      );
      return rowToApiKey(this.stmts.getKey.get(id) as ApiKeyRow);
    });
  }

  async recordApiKeyUses(uses: ReadonlyMap<string, number>) {
    if (uses.size === 0) return;
    await this.tx.write(() => {
      for (const [id, at] of uses) this.stmts.recordKeyUse.run(at, id, at);
    }, false);
  }

  rotateApiKey(oldId: string, replacement: NewApiKey, now: number) {
    return this.tx.write(() => {
      if (this.stmts.revokeKey.run(now, oldId).changes === 0) return null;
      return this.insertKey(replacement);
    });
  }

  /**
   * One send: each row cancels the pending request of its destination, channel and mode, is
   * inserted, and appends its changes (created, and canceled for what it superseded), in one
   * write unit.
   */
  createVerifications(rows: NewVerification[]) {
    return this.tx.write(() => {
      for (const v of rows) {
        const mode = v.test ? 1 : 0;
        const superseded = this.stmts.supersede.all(v.destination, v.accountId, v.channel, mode) as Array<{
          id: string;
          provider: string | null;
        }>;
        for (const old of superseded) this.appendChange('canceled', old.id, v.createdAt, old.provider);
        this.stmts.insertVerification.run(
          v.id,
          v.accountId,
          v.groupId,
          v.channel,
          v.destination,
          v.deliveryType,
          v.country,
          v.purpose,
          v.codeHash,
          v.maxAttempts,
          v.createdAt,
          v.expiresAt,
          v.deliveryStatus,
          v.outbox,
          v.outbox === null ? null : v.outboxCode,
          maskDestination(v.channel, v.destination),
          v.risk ?? null,
          mode,
          v.address ?? null,
        );
        this.appendChange('created', v.id, v.createdAt, v.deliveryStatus === 'outbox' ? 'outbox' : null);
      }
      // A savepoint keeps the rows of a dual send together. A single row needs none: should its
      // insert fail, what ran before it (a supersede, with its change) stands on its own.
    }, rows.length > 1);
  }

  private appendChange(kind: RequestChange['kind'], requestId: string, at: number, provider: string | null) {
    this.stmts.appendChange.run(kind, requestId, at, provider);
  }

  getVerification(accountId: string, id: string, test = false) {
    return this.tx.read(() => {
      const row = this.stmts.getVerification.get(id, accountId, test ? 1 : 0) as
        | Record<string, unknown>
        | undefined;
      return row ? rowToVerification(row) : null;
    });
  }

  /**
   * A verify attempt in one write unit: reads the request and the live rows of its group, asks
   * `pick` which row the guess matches, then one counting update decides (see decideAttempt).
   */
  attempt(
    accountId: string,
    requestId: string,
    now: number,
    pick: (rows: LiveCode[]) => string | null,
    test = false,
    channels?: readonly Channel[],
  ) {
    return this.tx.write((): AttemptOutcome => {
      const read = this.stmts.readGroup.all({
        id: requestId,
        account: accountId,
        mode: test ? 1 : 0,
        now,
      }) as Array<Record<string, unknown>>;
      const { request, live } = attemptReadFor(read, channels);
      if (!request || live.length === 0) return { request, counted: null, winnerId: null, consumed: false };
      const guessed = pickWinner(live, pick);
      return attemptOutcome(request, guessed, this.decideAttempt(request.groupId, guessed, now, requestId));
      // No savepoint: the unit writes one statement, and the changes it appends after it.
    }, false);
  }

  /**
   * Counts one attempt on the group's pending rows while attempts remain; a match consumes the
   * group (the winner verified, its siblings canceled), the last wrong guess fails it, and a wrong
   * guess is counted on the request it was made on. Settled rows append their changes.
   */
  private decideAttempt(groupId: string, winnerId: string | null, now: number, guessedOn: string) {
    const rows = (
      winnerId === null
        ? this.stmts.countWrong.all(guessedOn, groupId, now)
        : this.stmts.countAndConsume.all(winnerId, now, groupId, now)
    ) as Array<Record<string, unknown>>;
    for (const r of rows)
      if (r.status !== 'pending')
        this.appendChange(settledKind(String(r.status)), String(r.id), now, (r.provider as string) ?? null);
    return rows;
  }

  settleGroup(groupId: string, status: 'expired' | 'failed', now: number) {
    return this.tx.write(() => {
      const settled = (
        status === 'expired' ? this.stmts.expireGroup.all(groupId, now) : this.stmts.failGroup.all(groupId)
      ) as Array<{ id: string; provider: string | null }>;
      for (const r of settled) this.appendChange(status, r.id, now, r.provider);
    });
  }

  /**
   * What a delivery attempt found: the provider that took the message (a 'dispatched' change, so
   * the send counts under it), a delivery state (delivered or undelivered changes when it moves
   * there), and the cancel of a request nobody received.
   */
  recordDelivery(id: string, d: DeliveryRecord) {
    const now = d.at;
    return this.tx.write(() => {
      const before = this.stmts.deliveryOf.get(id) as
        | { delivery_status: string; provider: string | null; status: string }
        | undefined;
      if (!before) return;
      this.stmts.recordDelivery.run(d.deliveryStatus, d.provider, d.providerMessageId, d.error ?? null, id);
      const provider = d.provider ?? before.provider;
      if (d.provider !== null && before.provider === null) this.appendChange('dispatched', id, now, provider);
      this.appendDeliveryChange(id, before.delivery_status, d.deliveryStatus, now, provider);
      if (d.cancel && this.stmts.cancel.run(id).changes > 0) this.appendChange('canceled', id, now, provider);
    });
  }

  private appendDeliveryChange(id: string, from: string, to: string, now: number, provider: string | null) {
    if (from === to) return;
    if (to === 'delivered') this.appendChange('delivered', id, now, provider);
    else if (to === 'failed') this.appendChange('undelivered', id, now, provider);
  }

  recordDeliveryByProviderId(
    provider: string,
    providerMessageId: string,
    deliveryStatus: DeliveryStatus,
    error: string | null,
    now: number,
  ) {
    return this.tx.write(() => {
      const before = this.stmts.deliveryByProvider.all(provider, providerMessageId) as Array<{
        id: string;
        delivery_status: string;
      }>;
      if (before.length === 0) return false;
      this.stmts.recordDeliveryByProvider.run(deliveryStatus, error ?? null, provider, providerMessageId);
      for (const r of before)
        this.appendDeliveryChange(r.id, r.delivery_status, deliveryStatus, now, provider);
      return true;
    });
  }

  addOutboxMessage(verificationId: string, content: string, code: string) {
    // One statement, atomic by itself: no savepoint needed.
    return this.tx.write(() => {
      if (this.stmts.setOutbox.run(content, code, verificationId).changes === 0)
        throw noRequestForOutbox(verificationId);
    }, false);
  }

  listOutbox(filter: OutboxFilter): Promise<OutboxEntry[]> {
    return this.tx.read(() => {
      const params = {
        accountId: filter.accountId ?? null,
        to: filter.to ?? null,
        before: filter.before ?? null,
        test: filter.test === undefined ? null : filter.test ? 1 : 0,
        limit: filter.limit,
      };
      const rows = (
        filter.to ? this.stmts.listOutboxTo.all(params) : this.stmts.listOutbox.all(params)
      ) as Array<Record<string, unknown>>;
      return rows.map(rowToOutboxEntry);
    });
  }

  /** Folds up to `batchSize` changes (src/store/fold.ts) in one write unit; returns how many. */
  fold(batchSize: number): Promise<number> {
    return this.tx.write(() => this.folder.run(batchSize, this.clock.now()));
  }

  /**
   * Counts agree with the requests at every read of analytics and contacts: the changes the fold
   * has not reached yet are folded first (asking costs one lookup when none wait).
   */
  private async foldPending(): Promise<void> {
    const folder = this.folder;
    if (await this.tx.read(() => folder.pending())) await this.tx.write(() => folder.all(this.clock.now()));
  }

  async analytics(query: AnalyticsQuery) {
    await this.foldPending();
    const sql = analyticsSql('sqlite', query);
    const all = (text: string, params = sql.params) =>
      this.db.prepare(text).all(...params) as Array<Record<string, unknown>>;
    return this.tx.read(() =>
      rowsToAnalytics(all(sql.buckets, sql.bucketParams), all(sql.ttv), all(sql.refusals)),
    );
  }

  recordRefusal(refusal: Refusal) {
    return this.tx.write(() => {
      this.refusal.run(...refusalParams(refusal, 'sqlite'));
    }, false);
  }

  async getContact(id: string) {
    await this.foldPending();
    return this.tx.read(() => {
      const row = this.contacts.get.get(id) as Record<string, unknown> | undefined;
      return row ? rowToContact(row) : null;
    });
  }

  async searchContacts(accountId: string, prefix: string, limit: number, test?: boolean) {
    await this.foldPending();
    return this.tx.read(() =>
      (
        this.contacts.search.all(...searchParams(accountId, prefix, limit, test, 'sqlite')) as Array<
          Record<string, unknown>
        >
      ).map(rowToContact),
    );
  }

  async listContacts(filter: ContactListFilter) {
    await this.foldPending();
    return this.tx.read(() =>
      (this.contacts.recent.all(...recentParams(filter, 'sqlite')) as Array<Record<string, unknown>>).map(
        rowToContact,
      ),
    );
  }

  contactHistory(contact: ContactRecord, limit: number) {
    return this.tx.read(() =>
      (
        this.contacts.history.all(
          contact.destination,
          contact.accountId,
          contact.test ? 1 : 0,
          limit,
        ) as Array<Record<string, unknown>>
      ).map(rowToHistory),
    );
  }

  destinationSignals(
    accountId: string,
    test: boolean,
    destination: string,
    country: string | null,
    now: number,
  ): Promise<DestinationSignals> {
    return this.tx.read(() => {
      const block = numberBlock(destination);
      return rowToSignals(
        this.signals.read({
          account: accountId,
          mode: test ? 1 : 0,
          destination,
          block,
          blockEnd: block ? prefixEnd(block) : null,
          hourAgo: now - 3_600_000,
          country,
        }),
      );
    });
  }

  async setContactBlocked(id: string, block: { reason: string } | null, now: number) {
    await this.foldPending();
    return this.tx.write(() => {
      if (this.contacts.block.run(block ? now : null, block?.reason ?? null, id).changes === 0) return null;
      this.stmts.appendContactChange.run(
        block ? 'contact.blocked' : 'contact.unblocked',
        id,
        now,
        block ? JSON.stringify({ reason: block.reason }) : null,
      );
      return rowToContact(this.contacts.get.get(id) as Record<string, unknown>);
    });
  }

  getBreaker(accountId: string, test: boolean, country: string) {
    return this.tx.read(() => {
      const row = this.breakers.get.get(accountId, test ? 1 : 0, country) as
        | Record<string, unknown>
        | undefined;
      return row ? rowToBreaker(row) : null;
    });
  }

  saveBreaker(state: BreakerState) {
    return this.tx.write(() => {
      this.breakers.save.run(...breakerParams(state, 'sqlite'));
    }, false);
  }

  listBreakers(filter: { accountId?: string; trippedOnly?: boolean }) {
    return this.tx.read(() =>
      (
        this.breakers.list.all({
          account: filter.accountId ?? null,
          trippedOnly: filter.trippedOnly ? 1 : 0,
        }) as Array<Record<string, unknown>>
      ).map(rowToBreaker),
    );
  }

  sweep(now: number, retentionMs: number, batchSize: number): Promise<SweepResult> {
    return this.tx.write(() => {
      const expired = this.stmts.sweepExpire.all(now, batchSize) as Array<{
        id: string;
        provider: string | null;
      }>;
      for (const r of expired) this.appendChange('expired', r.id, now, r.provider);
      const cutoff = now - retentionMs;
      const deleted = this.stmts.sweepDelete.run(timeOrderedUuidFloor(cutoff), cutoff, batchSize).changes;
      return { expired: expired.length, deleted };
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

/** What a decided attempt returns of each row it counted (see rowsToCountedAttempt). */
const DECIDED = 'id, channel, country, attempts, max_attempts, status, provider';

function prepare(db: Database) {
  const s = (sql: string): Statement => db.prepare(sql);
  return {
    ping: s('SELECT 1'),
    appendChange: s(APPEND_CHANGE_SQL),
    appendContactChange: s('INSERT INTO changes (kind, contact_id, at, data) VALUES (?, ?, ?, ?)'),
    insertSetting: s('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
    getSetting: s('SELECT value FROM settings WHERE name = ?'),
    insertAccount: s('INSERT INTO accounts (id, name, settings, created_at) VALUES (?, ?, ?, ?)'),
    listAccounts: s('SELECT * FROM accounts ORDER BY created_at, id'),
    getAccount: s('SELECT * FROM accounts WHERE id = ?'),
    updateAccountSettings: s('UPDATE accounts SET settings = ? WHERE id = ?'),
    putLogo: s(
      `INSERT INTO account_logos (account_id, content_type, data, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET content_type = excluded.content_type, data = excluded.data,
         updated_at = excluded.updated_at`,
    ),
    getLogo: s('SELECT content_type, data, updated_at FROM account_logos WHERE account_id = ?'),
    deleteLogo: s('DELETE FROM account_logos WHERE account_id = ?'),
    insertKey: s(
      `INSERT INTO api_keys (id, account_id, name, prefix, key_hash, channels, test, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    listKeys: s('SELECT * FROM api_keys ORDER BY created_at, id'),
    listKeysOf: s('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id'),
    getKey: s('SELECT * FROM api_keys WHERE id = ?'),
    findActiveKey: s(
      `SELECT k.*, a.settings AS account_settings FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    ),
    revokeKey: s('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    updateKey: s('UPDATE api_keys SET name = ?, channels = ? WHERE id = ? AND revoked_at IS NULL'),
    // Never backwards: another process may have written a later use.
    recordKeyUse: s(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
    ),
    // One live code per destination, channel and mode: a send cancels the pending one first.
    supersede: s(
      `UPDATE verifications SET status = 'canceled', outbox_code = NULL
       WHERE destination = ? AND account_id = ? AND channel = ? AND test = ? AND status = 'pending'
       RETURNING id, provider`,
    ),
    insertVerification: s(
      `INSERT INTO verifications (id, account_id, group_id, channel, destination, delivery_type, country, purpose,
         code_hash, max_attempts, created_at, expires_at, delivery_status, outbox, outbox_code, masked, risk, test,
         address)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    getVerification: s(
      `SELECT ${VERIFICATION_SELECT} FROM verifications WHERE id = ? AND account_id = ? AND test = ?`,
    ),
    // The first half of an attempt: the request, and when it is pending and unexpired, the live
    // rows of its group, whose codes the caller compares with the guess.
    readGroup: s(
      `SELECT ${ATTEMPT_READ_SELECT('r')}, g.id AS counted_id, g.channel AS counted_channel,
         g.code_hash AS counted_code_hash
       FROM verifications r LEFT JOIN verifications g ON g.group_id = r.group_id
         AND r.status = 'pending' AND r.expires_at > @now AND g.status = 'pending' AND g.expires_at > @now
       WHERE r.id = @id AND r.account_id = @account AND r.test = @mode
       ORDER BY g.id`,
    ),
    // The second half, one statement: counts the attempt on the group's pending rows while
    // attempts remain: N parallel guesses never decide more than max_attempts. A wrong guess is
    // counted on the request it was made on, and the last one fails the group; a match consumes
    // it (the winner verified, its siblings canceled). A settled row's outbox code is erased.
    countWrong: s(
      `UPDATE verifications
       SET attempts = attempts + 1, wrong_codes = wrong_codes + (id = ?),
         status = CASE WHEN attempts + 1 >= max_attempts THEN 'failed' ELSE status END,
         outbox_code = CASE WHEN attempts + 1 >= max_attempts THEN NULL ELSE outbox_code END
       WHERE group_id = ? AND status = 'pending' AND attempts < max_attempts AND expires_at > ?
       RETURNING ${DECIDED}`,
    ),
    countAndConsume: s(
      `UPDATE verifications
       SET attempts = attempts + 1, status = CASE WHEN id = ? THEN 'verified' ELSE 'canceled' END,
         verified_at = ?, outbox_code = NULL
       WHERE group_id = ? AND status = 'pending' AND attempts < max_attempts AND expires_at > ?
       RETURNING ${DECIDED}`,
    ),
    expireGroup: s(
      `UPDATE verifications SET status = 'expired', outbox_code = NULL
       WHERE group_id = ? AND status = 'pending' AND expires_at <= ? RETURNING id, provider`,
    ),
    failGroup: s(
      `UPDATE verifications SET status = 'failed', outbox_code = NULL
       WHERE group_id = ? AND status = 'pending' AND attempts >= max_attempts RETURNING id, provider`,
    ),
    deliveryOf: s('SELECT delivery_status, provider, status FROM verifications WHERE id = ?'),
    // A provider the request already names is kept: a later record of the same attempt has none.
    recordDelivery: s(
      `UPDATE verifications SET delivery_status = ?, provider = coalesce(?, provider),
         provider_message_id = coalesce(?, provider_message_id), delivery_error = ?
       WHERE id = ?`,
    ),
    cancel: s(
      `UPDATE verifications SET status = 'canceled', outbox_code = NULL WHERE id = ? AND status = 'pending'`,
    ),
    deliveryByProvider: s(
      'SELECT id, delivery_status FROM verifications WHERE provider = ? AND provider_message_id = ?',
    ),
    recordDeliveryByProvider: s(
      `UPDATE verifications SET delivery_status = ?, delivery_error = ?
       WHERE provider = ? AND provider_message_id = ?`,
    ),
    setOutbox: s(
      `UPDATE verifications SET outbox = ?, outbox_code = CASE WHEN status = 'pending' THEN ? END WHERE id = ?`,
    ),
    // Newest first by id: ids are time-ordered (UUIDv7), and monotonic within a process.
    listOutbox: s(
      `SELECT ${OUTBOX_SELECT} FROM verifications
       WHERE outbox IS NOT NULL AND (@accountId IS NULL OR account_id = @accountId)
         AND (@before IS NULL OR id < @before) AND (@test IS NULL OR test = @test)
       ORDER BY id DESC LIMIT @limit`,
    ),
    listOutboxTo: s(
      `SELECT ${OUTBOX_SELECT} FROM verifications
       WHERE destination = @to AND outbox IS NOT NULL AND (@accountId IS NULL OR account_id = @accountId)
         AND (@before IS NULL OR id < @before) AND (@test IS NULL OR test = @test)
       ORDER BY id DESC LIMIT @limit`,
    ),
    sweepExpire: s(
      `UPDATE verifications SET status = 'expired', outbox_code = NULL
       WHERE id IN (SELECT id FROM verifications WHERE status = 'pending' AND expires_at <= ? LIMIT ?)
       RETURNING id, provider`,
    ),
    // Oldest first along the primary key (ids are UUIDv7): no index of its own on created_at.
    sweepDelete: s(
      `DELETE FROM verifications
       WHERE id IN (SELECT id FROM verifications WHERE id < ? AND created_at < ? LIMIT ?)`,
    ),
  };
}
