import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import BetterSqlite3 from 'better-sqlite3';
import { timeOrderedUuid, timeOrderedUuidFloor } from '../../domain/ids.js';
import { maskDestination } from '../../domain/masking.js';
import type { BreakerState } from '../../domain/pumping-breaker.js';
import type {
  Account,
  AccountSettings,
  ApiKeyRecord,
  AuthenticatedKey,
  DeliveryStatus,
  NewVerification,
} from '../../domain/types.js';
import { breakerParams, breakerSql, rowToBreaker } from '../breakers.js';
import {
  type ContactRecord,
  contactSql,
  type DestinationSignals,
  keptContactId,
  numberBlock,
  prefixEnd,
  rowToContact,
  rowToHistory,
  rowToSignals,
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
  AttemptTarget,
  CountedAttempt,
  DeliveryRecord,
  NewApiKey,
  OutboxEntry,
  Store,
  StoredLogo,
  SweepResult,
} from '../interface.js';
import {
  type EventFilter,
  listEventsParams,
  listEventsSql,
  type RecordedEvent,
  rowToRecordedEvent,
} from '../journal.js';
import type { AppliedMigration } from '../migrations.js';
import {
  type AccountRow,
  type ApiKeyRow,
  countedTarget,
  newKeyRecord,
  noRequestForOutbox,
  OUTBOX_SELECT,
  rowsToCountedAttempt,
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
  private readonly fold: SqliteFold;
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
   * which the checkpointer starts the log over.
   */
  constructor(path: string, options: { walRestartFrames?: number } = {}) {
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
    this.fold = new SqliteFold(this.db);
    this.webhooks = new SqliteWebhookStore(this.db, this.tx, this.fold);
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

  createVerifications(rows: NewVerification[]) {
    // The INSERT cancels the destination's pending code itself (trigger verifications_supersede),
    // and the journal's triggers record it (migrations 020 and 070); its contact is made by the
    // batch fold. One row is one statement: no savepoint needed.
    return this.tx.write(() => {
      for (const v of rows) {
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
          // keptContactId: its contact's, then its earlier requests', then the proposed one.
          v.accountId,
          v.destination,
          v.test ? 1 : 0,
          v.destination,
          v.accountId,
          v.test ? 1 : 0,
          v.contactId ?? null,
          maskDestination(v.channel, v.destination),
          v.risk ?? null,
          v.test ? 1 : 0,
        );
      }
    }, rows.length > 1);
  }

  getVerification(accountId: string, id: string, test = false) {
    return this.tx.read(() => {
      const row = this.stmts.getVerification.get(id, accountId, test ? 1 : 0) as
        | Record<string, unknown>
        | undefined;
      return row ? rowToVerification(row) : null;
    });
  }

  registerAttempt(groupId: string, now: number) {
    return this.tx.write(() => this.countAttempt(groupId, now), false);
  }

  private countAttempt(groupId: string, now: number): CountedAttempt | null {
    return rowsToCountedAttempt(this.stmts.countAttempt.all(groupId, now) as Array<Record<string, unknown>>);
  }

  attempt(
    accountId: string,
    requestId: string,
    now: number,
    pick: (rows: CountedAttempt['rows']) => string | null,
    test = false,
  ) {
    const mode = test ? 1 : 0;
    return this.tx.write((): AttemptOutcome => {
      // One statement finds the request and counts the attempt on its group, in the common case
      // where the request is live; as in the stepwise path, only a pending, unexpired request
      // counts one (a superseded request of a dual pair must not spend its sibling's attempts).
      const rows = this.stmts.readAndCountAttempt.all(requestId, accountId, mode, now, now) as Array<
        Record<string, unknown>
      >;
      const own = rows.find((r) => r.id === requestId);
      let counted = rowsToCountedAttempt(rows);
      let request: AttemptTarget | null = own ? countedTarget(own) : null;
      if (!request) {
        // Nothing counted, or (a row changed under a sibling) not on this request: read it as it
        // stands, so that the caller can tell not found, settled, expired and used up apart.
        const row = this.stmts.getVerification.get(requestId, accountId, mode) as
          | Record<string, unknown>
          | undefined;
        request = row ? rowToVerification(row) : null;
        if (!request) counted = null;
      }
      const winnerId = counted ? pick(counted.rows) : null;
      const consumed =
        request !== null &&
        winnerId !== null &&
        this.stmts.consume.run(winnerId, now, request.groupId, winnerId).changes > 0;
      if (counted && request && winnerId === null) this.stmts.countWrongCode.run(request.id);
      return { request, counted, winnerId, consumed };
      // No savepoint: the unit's writes are single statements (the count, then the consume or the
      // wrong code's count), and should a later one fail, keeping the first (the attempt counted)
      // errs on the side of the attempts limit.
    }, false);
  }

  consume(groupId: string, winnerId: string, now: number) {
    return this.tx.write(() => this.stmts.consume.run(winnerId, now, groupId, winnerId).changes > 0, false);
  }

  settleGroup(groupId: string, status: 'expired' | 'failed', now: number) {
    return this.tx.write(() => {
      if (status === 'expired') this.stmts.expireGroup.run(groupId, now);
      else this.stmts.failGroup.run(groupId);
    });
  }

  recordDelivery(id: string, d: DeliveryRecord) {
    return this.tx.write(() => {
      this.stmts.recordDelivery.run(d.deliveryStatus, d.provider, d.providerMessageId, d.error ?? null, id);
      if (d.cancel) this.stmts.cancel.run(id);
    });
  }

  recordDeliveryByProviderId(
    provider: string,
    providerMessageId: string,
    deliveryStatus: DeliveryStatus,
    error?: string | null,
  ) {
    return this.tx.write(
      () =>
        this.stmts.recordDeliveryByProvider.run(deliveryStatus, error ?? null, provider, providerMessageId)
          .changes > 0,
    );
  }

  addOutboxMessage(verificationId: string, content: string) {
    // One statement, atomic by itself: no savepoint needed.
    return this.tx.write(() => {
      if (this.stmts.setOutbox.run(content, verificationId).changes === 0)
        throw noRequestForOutbox(verificationId);
    }, false);
  }

  listOutbox(filter: { accountId?: string; to?: string; limit: number }): Promise<OutboxEntry[]> {
    return this.tx.read(() => {
      const params = { accountId: filter.accountId ?? null, to: filter.to ?? null, limit: filter.limit };
      const rows = (
        filter.to ? this.stmts.listOutboxTo.all(params) : this.stmts.listOutbox.all(params)
      ) as Array<Record<string, unknown>>;
      return rows.map(rowToOutboxEntry);
    });
  }

  listEvents(filter: EventFilter): Promise<RecordedEvent[]> {
    return this.tx.read(() =>
      (this.stmts.listEvents.all(listEventsParams(filter)) as Array<Record<string, unknown>>).map(
        rowToRecordedEvent,
      ),
    );
  }

  /**
   * Counts agree with the requests at every read of analytics and contacts: the rows the fold has
   * not reached yet are folded first (asking costs two index lookups when none wait).
   */
  private async foldPending(): Promise<void> {
    const fold = this.fold;
    if (await this.tx.read(() => fold.pending())) await this.tx.write(() => fold.all());
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

  async searchContacts(accountId: string, prefix: string, limit: number) {
    await this.foldPending();
    return this.tx.read(() =>
      (
        this.contacts.search.all(accountId, prefix, prefixEnd(prefix), limit) as Array<
          Record<string, unknown>
        >
      ).map(rowToContact),
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
          windowStart: now - (now % 3_600_000) - 3_600_000,
          country,
        }),
      );
    });
  }

  async setContactBlocked(id: string, block: { reason: string } | null, now: number) {
    await this.foldPending();
    return this.tx.write(() => {
      if (this.contacts.block.run(block ? now : null, block?.reason ?? null, id).changes === 0) return null;
      this.contacts.blockEvent.run(
        timeOrderedUuid(now),
        block ? 'contact.blocked' : 'contact.unblocked',
        now,
        block ? JSON.stringify({ reason: block.reason }) : null,
        id,
      );
      return rowToContact(this.contacts.get.get(id) as Record<string, unknown>);
    });
  }

  countryWindow(accountId: string, test: boolean, country: string, now: number) {
    return this.tx.read(() => {
      const row = this.contacts.countryHour.get(
        accountId,
        test ? 1 : 0,
        now - (now % 3_600_000) - 3_600_000,
        country,
      ) as {
        sent: number;
        verified: number;
      };
      return { sent: Number(row.sent), verified: Number(row.verified) };
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
      const expired = this.stmts.sweepExpire.run(now, batchSize).changes;
      const cutoff = now - retentionMs;
      const deleted = this.stmts.sweepDelete.run(timeOrderedUuidFloor(cutoff), cutoff, batchSize).changes;
      // Raw events go with the retention too; the analytics buckets folded from them stay.
      this.stmts.sweepEvents.run(cutoff, batchSize);
      // The breaker's window is the current and the previous hour: older counts are never read.
      this.stmts.sweepCountryWindow.run(now - (now % 3_600_000) - 2 * 3_600_000);
      return { expired, deleted };
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

/**
 * Counts an attempt on every pending row of the group `group` (an SQL expression). The attempt is
 * counted before the code is compared, and only while attempts remain: N parallel guesses can
 * never evaluate more than max_attempts codes. Returns what rowsToCountedAttempt and
 * countedTarget read.
 */
const countAttemptSql = (group: string) =>
  `UPDATE verifications SET attempts = attempts + 1
   WHERE group_id = ${group} AND status = 'pending' AND attempts < max_attempts AND expires_at > ?
   RETURNING id, group_id, channel, destination, code_hash, attempts, max_attempts, expires_at`;

function prepare(db: Database) {
  const s = (sql: string): Statement => db.prepare(sql);
  return {
    ping: s('SELECT 1'),
    listEvents: s(listEventsSql('sqlite')),
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
    insertVerification: s(
      `INSERT INTO verifications (id, account_id, group_id, channel, destination, delivery_type, country, purpose,
         code_hash, max_attempts, created_at, expires_at, delivery_status, outbox, contact_id, masked, risk, test)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${keptContactId('?', '?', '?', '?')}, ?, ?, ?)`,
    ),
    getVerification: s(
      `SELECT ${VERIFICATION_SELECT} FROM verifications WHERE id = ? AND account_id = ? AND test = ?`,
    ),
    countAttempt: s(countAttemptSql('?')),
    // countAttempt for the group of a live request, found by its id: one statement per verify.
    readAndCountAttempt: s(
      countAttemptSql(`(SELECT group_id FROM verifications
                        WHERE id = ? AND account_id = ? AND test = ? AND status = 'pending' AND expires_at > ?)`),
    ),
    // A wrong code, on the request it was made on (migration 080): the fold counts it when the
    // request settles, so a settled request's count never changes.
    countWrongCode: s(
      `UPDATE verifications SET wrong_codes = wrong_codes + 1 WHERE id = ? AND status = 'pending'`,
    ),
    consume: s(
      `UPDATE verifications
       SET status = CASE WHEN id = ? THEN 'verified' ELSE 'canceled' END, verified_at = ?
       WHERE group_id = ? AND status = 'pending'
         AND EXISTS (SELECT 1 FROM verifications w WHERE w.id = ? AND w.status = 'pending')`,
    ),
    expireGroup: s(
      `UPDATE verifications SET status = 'expired' WHERE group_id = ? AND status = 'pending' AND expires_at <= ?`,
    ),
    failGroup: s(
      `UPDATE verifications SET status = 'failed'
       WHERE group_id = ? AND status = 'pending' AND attempts >= max_attempts`,
    ),
    recordDelivery: s(
      `UPDATE verifications SET delivery_status = ?, provider = ?, provider_message_id = ?, delivery_error = ?
       WHERE id = ?`,
    ),
    cancel: s(`UPDATE verifications SET status = 'canceled' WHERE id = ? AND status = 'pending'`),
    recordDeliveryByProvider: s(
      `UPDATE verifications SET delivery_status = ?, delivery_error = ?
       WHERE provider = ? AND provider_message_id = ?`,
    ),
    setOutbox: s('UPDATE verifications SET outbox = ? WHERE id = ?'),
    // Newest first by id: ids are time-ordered (UUIDv7), and monotonic within a process.
    listOutbox: s(
      `SELECT ${OUTBOX_SELECT} FROM verifications
       WHERE outbox IS NOT NULL AND (@accountId IS NULL OR account_id = @accountId)
       ORDER BY id DESC LIMIT @limit`,
    ),
    listOutboxTo: s(
      `SELECT ${OUTBOX_SELECT} FROM verifications
       WHERE destination = @to AND outbox IS NOT NULL AND (@accountId IS NULL OR account_id = @accountId)
       ORDER BY id DESC LIMIT @limit`,
    ),
    sweepExpire: s(
      `UPDATE verifications SET status = 'expired'
       WHERE id IN (SELECT id FROM verifications WHERE status = 'pending' AND expires_at <= ? LIMIT ?)`,
    ),
    // Oldest first along the primary key (ids are UUIDv7): no index of its own on created_at.
    // Oldest first along seq, which follows time: the scan stops at the first row to keep.
    sweepCountryWindow: s('DELETE FROM country_window WHERE hour < ?'),
    sweepEvents: s(
      // Never a row the analytics fold has not counted yet.
      `DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE created_at < ?
         AND seq <= (SELECT last_seq FROM analytics_fold) ORDER BY seq LIMIT ?)`,
    ),
    sweepDelete: s(
      `DELETE FROM verifications
       WHERE id IN (SELECT id FROM verifications WHERE id < ? AND created_at < ? LIMIT ?)`,
    ),
  };
}
