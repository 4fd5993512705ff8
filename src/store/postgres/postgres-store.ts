import pg from 'pg';
import { type Clock, systemClock } from '../../domain/clock.js';
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
import { PostgresIdempotencyStore } from '../idempotency/postgres.js';
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
  attemptOutcome,
  attemptReadFor,
  newKeyRecord,
  noRequestForOutbox,
  pickWinner,
  rowToAccount,
  rowToApiKey,
  rowToAuthenticatedKey,
  rowToOutboxEntry,
  rowToVerification,
} from '../rows.js';
import { PostgresSessionStore } from '../sessions/postgres.js';
import { PostgresWebhookStore } from '../webhooks/postgres.js';
import { PostgresFold } from './fold.js';
import { applyMigrations } from './migrate.js';
import { isRetryable, toStoreError } from './pg-errors.js';
import { type Named, SQL } from './statements.js';
import { inTransaction, type Runner } from './transaction.js';
import { settleBatch, TurnBatch } from './turn-batch.js';

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /** How long to wait for a connection before answering 503 (default 3000 ms). */
  connectionTimeoutMs?: number;
  /** How long a statement may take before the connection is dropped and 503 answered (default 10 s). */
  queryTimeoutMs?: number;
  /** Told about connection errors of idle pooled clients (which are dropped and replaced). */
  onIdleError?: (err: Error) => void;
  /** Times what the fold makes (default: the system clock). */
  clock?: Clock;
}

type Params = unknown[];
const CONTACT_SQL = contactSql('postgres');
const BREAKER_SQL = breakerSql('postgres');
/** A row of readGroup: the request, and one live row of its group (or nulls). */
type AttemptRow = Record<string, unknown>;
interface SendCall {
  rows: NewVerification[];
  resolve: () => void;
  reject: (err: unknown) => void;
}
interface SignalsCall {
  accountId: string;
  test: boolean;
  destination: string;
  country: string | null;
  now: number;
  resolve: (signals: DestinationSignals) => void;
  reject: (err: unknown) => void;
}
interface ReadCall {
  requestId: string;
  accountId: string;
  test: boolean;
  now: number;
  resolve: (rows: AttemptRow[]) => void;
  reject: (err: unknown) => void;
}
interface DecideCall {
  groupId: string;
  /** The request the guess was made on: a wrong guess is counted on it. */
  requestId: string;
  winnerId: string | null;
  now: number;
  resolve: (rows: AttemptRow[]) => void;
  reject: (err: unknown) => void;
}
/**
 * The shared store for many instances: node-postgres with a pool. Every counter is one guarded
 * statement, so concurrent requests on any number of instances count exactly. While the database
 * is unreachable every method rejects with StoreUnavailable (503); the pool opens new connections
 * on the next calls, so service resumes by itself when the database is back.
 */
export class PostgresStore implements Store {
  readonly dialect = 'postgres' as const;
  /** Migrations of a newer version this one runs on, each marked tolerated (see migrations.ts). */
  newerMigrations: AppliedMigration[] = [];
  readonly idempotency: PostgresIdempotencyStore;
  readonly webhooks: PostgresWebhookStore;
  readonly sessions: PostgresSessionStore;
  private readonly pool: pg.Pool;
  private closed = false;
  /** The sends of the current event-loop turn, written together (see createVerifications). */
  private readonly sends = new TurnBatch<SendCall>((batch) => this.writeSendBatch(batch));
  /** The first halves of the verify attempts of one event-loop turn, read together (see attempt). */
  private readonly reads = new TurnBatch<ReadCall>((batch) => this.readBatch(batch));
  /** The second halves of the verify attempts of one event-loop turn, decided together. */
  private readonly decisions = new TurnBatch<DecideCall>((batch) => this.decideBatch(batch));
  /** The risk screen's reads for the sends of one event-loop turn, read together. */
  private readonly signals = new TurnBatch<SignalsCall>((batch) => this.signalsBatch(batch));
  private readonly folder: PostgresFold;
  private readonly clock: Clock;

  constructor(connectionString: string, options: PostgresStoreOptions = {}) {
    this.pool = new pg.Pool({
      connectionString,
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 3000,
      // Without it a half-open connection (peer gone, no RST) would hang a request forever.
      query_timeout: options.queryTimeoutMs ?? 10_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
    });
    // An idle client whose server went away (restart, 57P01) emits 'error'; the pool drops it.
    // Unhandled, that event would end the process.
    this.pool.on('error', (err) => options.onIdleError?.(err));
    this.clock = options.clock ?? systemClock;
    this.idempotency = new PostgresIdempotencyStore(this.pool);
    this.webhooks = new PostgresWebhookStore(this.pool);
    this.sessions = new PostgresSessionStore(this.pool);
    this.folder = new PostgresFold(this.pool, this.webhooks);
  }

  /**
   * One statement through the pool, retried when PostgreSQL rolled it back for a deadlock. A
   * named statement is prepared once per connection and its plan reused.
   */
  private async query<R extends pg.QueryResultRow>(
    statement: string | Named,
    params: Params = [],
    runner?: Runner,
  ) {
    const config = typeof statement === 'string' ? { text: statement } : statement;
    for (let attempt = 1; ; attempt++) {
      try {
        return await (runner ?? this.pool).query<R>({ ...config, values: params });
      } catch (err) {
        if (!runner && isRetryable(err) && attempt < 3) continue;
        throw toStoreError(err);
      }
    }
  }

  /** Runs `work` in one transaction on one pooled connection. */
  private transaction<T>(work: (client: Runner) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }

  async migrate(): Promise<number[]> {
    try {
      const { applied, newer } = await applyMigrations(this.pool);
      this.newerMigrations = newer;
      return applied;
    } catch (err) {
      throw toStoreError(err);
    }
  }

  async check(): Promise<boolean> {
    if (this.closed) return false;
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Sends, attempts and consumes of the current turn are written before the pool goes.
    await this.sends.flush();
    await this.reads.flush();
    await this.decisions.flush();
    await this.signals.flush();
    await this.pool.end();
  }

  async getOrCreateSetting(name: string, value: string) {
    const inserted = await this.query<{ value: string }>(SQL.insertSetting, [name, value]);
    if (inserted.rows[0]) return { value: inserted.rows[0].value, created: true };
    // ON CONFLICT DO NOTHING waited for the other writer to commit, so its value is visible now.
    const { rows } = await this.query<{ value: string }>(SQL.getSetting, [name]);
    return { value: (rows[0] as { value: string }).value, created: false };
  }

  async createAccount(account: Account) {
    await this.query(SQL.insertAccount, [
      account.id,
      account.name,
      JSON.stringify(account.settings),
      account.createdAt,
    ]);
    return account;
  }

  async listAccounts() {
    return (await this.query<AccountRow>(SQL.listAccounts)).rows.map(rowToAccount);
  }

  async getAccount(id: string) {
    const row = (await this.query<AccountRow>(SQL.getAccount, [id])).rows[0];
    return row ? rowToAccount(row) : null;
  }

  async updateAccountSettings(id: string, settings: AccountSettings) {
    const row = (await this.query<AccountRow>(SQL.updateAccountSettings, [JSON.stringify(settings), id]))
      .rows[0];
    return row ? rowToAccount(row) : null;
  }

  async putAccountLogo(accountId: string, logo: StoredLogo) {
    await this.query(SQL.putLogo, [accountId, logo.contentType, logo.data, logo.updatedAt]);
  }

  async getAccountLogo(accountId: string) {
    const row = (
      await this.query<{ content_type: string; data: Buffer; updated_at: string }>(SQL.getLogo, [accountId])
    ).rows[0];
    return row ? { contentType: row.content_type, data: row.data, updatedAt: Number(row.updated_at) } : null;
  }

  async deleteAccountLogo(accountId: string) {
    await this.query(SQL.deleteLogo, [accountId]);
  }

  createApiKey(key: NewApiKey) {
    return this.insertKey(key);
  }

  private async insertKey(key: NewApiKey, runner?: Runner): Promise<ApiKeyRecord> {
    await this.query(
      SQL.insertKey,
      [
        key.id,
        key.accountId,
        key.name,
        key.prefix,
        key.keyHash,
        key.channels.join(','),
        key.test,
        key.createdAt,
      ],
      runner,
    );
    return newKeyRecord(key);
  }

  async listApiKeys(accountId?: string) {
    const { rows } = accountId
      ? await this.query<ApiKeyRow>(SQL.listKeysOf, [accountId])
      : await this.query<ApiKeyRow>(SQL.listKeys);
    return rows.map(rowToApiKey);
  }

  async getApiKey(id: string) {
    const row = (await this.query<ApiKeyRow>(SQL.getKey, [id])).rows[0];
    return row ? rowToApiKey(row) : null;
  }

  async findActiveApiKey(keyHash: string): Promise<AuthenticatedKey | null> {
    const row = (
      await this.query<ApiKeyRow & { account_settings: AccountSettings }>(SQL.findActiveKey, [keyHash])
    ).rows[0];
    return row ? rowToAuthenticatedKey(row) : null;
  }

  async revokeApiKey(id: string, now: number) {
    return ((await this.query(SQL.revokeKey, [now, id])).rowCount ?? 0) > 0;
  }

  async updateApiKey(id: string, patch: ApiKeyPatch) {
    const row = (
      await this.query<ApiKeyRow>(SQL.updateKey, [
        patch.name ?? null,
        patch.channels ? patch.channels.join(',') : null,
        id,
      ])
    ).rows[0];
    return row ? rowToApiKey(row) : null;
  }

  async recordApiKeyUses(uses: ReadonlyMap<string, number>) {
    if (uses.size === 0) return;
    await this.query(SQL.recordKeyUses, [[...uses.keys()], [...uses.values()]]);
  }

  rotateApiKey(oldId: string, replacement: NewApiKey, now: number) {
    return this.transaction(async (client) => {
      const revoked = await this.query(SQL.revokeKey, [now, oldId], client);
      if (!revoked.rowCount) return null;
      return this.insertKey(replacement, client);
    });
  }

  /**
   * Sends are written in batches: those that arrive in one event-loop turn go to the database as
   * one statement and one commit, as SQLite's group commit does; each resolves once that
   * statement has committed. A conflict inside the batch (two sends to one destination, a lost
   * race with another instance, a bad row) fails the whole statement; the sends of that batch
   * then run one by one, in arrival order, so each gets its own outcome and a later send still
   * supersedes an earlier one.
   */
  createVerifications(rows: NewVerification[]): Promise<void> {
    return new Promise((resolve, reject) => this.sends.add({ rows, resolve, reject }));
  }

  private async writeSendBatch(batch: SendCall[]): Promise<void> {
    await settleBatch(
      batch,
      async (sends) => {
        await this.supersedeAndInsert(sends.flatMap((send) => send.rows));
        for (const send of sends) send.resolve();
        return [];
      },
      (send) => this.insertSend(send.rows).then(send.resolve, send.reject),
    );
  }

  /** One send's rows on their own, superseding whatever is pending for their destinations. */
  private async insertSend(rows: NewVerification[]): Promise<void> {
    // A send that raced another one to the same destination lost on verifications_one_live; its
    // next try sees the winner's row and supersedes it. Each lost race means another send
    // committed, so the retries are few; the bound only guards against a livelock.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.supersedeAndInsert(rows);
        return;
      } catch (err) {
        const lostRace = (err as { constraint?: string }).constraint === 'verifications_one_live';
        if (!lostRace || attempt >= 10) throw err;
      }
    }
  }

  private async supersedeAndInsert(rows: NewVerification[]): Promise<void> {
    const col = <K extends keyof NewVerification>(k: K) => rows.map((v) => v[k]);
    await this.query(SQL.supersedeAndInsert, [
      col('id'),
      col('accountId'),
      col('groupId'),
      col('channel'),
      col('destination'),
      col('deliveryType'),
      col('country'),
      col('purpose'),
      col('codeHash'),
      col('maxAttempts'),
      col('createdAt'),
      col('expiresAt'),
      col('deliveryStatus'),
      col('outbox'),
      rows.map((v) => v.test === true),
      rows.map((v) => (v.outbox === null ? null : (v.outboxCode ?? null))),
      rows.map((v) => maskDestination(v.channel, v.destination)),
      rows.map((v) => v.risk ?? null),
      rows.map((v) => v.address ?? null),
    ]);
  }

  async getVerification(accountId: string, id: string, test = false) {
    const row = (await this.query(SQL.getVerification, [id, accountId, test])).rows[0];
    return row ? rowToVerification(row) : null;
  }

  /**
   * A verify attempt in two round trips: the first reads the request and the live rows of its
   * group, the caller compares the guess with their codes, and the second counts the attempt and,
   * for a right guess, consumes the group, in one statement (countOrConsume). The decision is
   * taken there, under the rows' locks: of parallel right guesses one verifies and the others,
   * finding the group settled, count nothing; of parallel wrong guesses no more than the attempts
   * left are counted, and one not counted has no effect, whatever its comparison said.
   */
  async attempt(
    accountId: string,
    requestId: string,
    now: number,
    pick: (rows: LiveCode[]) => string | null,
    test = false,
    channels?: readonly Channel[],
  ): Promise<AttemptOutcome> {
    const read = await new Promise<AttemptRow[]>((resolve, reject) =>
      this.reads.add({ requestId, accountId, test, now, resolve, reject }),
    );
    const { request, live } = attemptReadFor(read, channels);
    if (!request || live.length === 0) return { request, counted: null, winnerId: null, consumed: false };
    const guessed = pickWinner(live, pick);
    const rows = await new Promise<AttemptRow[]>((resolve, reject) =>
      this.decisions.add({ groupId: request.groupId, requestId, winnerId: guessed, now, resolve, reject }),
    );
    return attemptOutcome(request, guessed, rows);
  }

  /** The reads of one turn in one statement; a read changes nothing, so none waits for another. */
  private async readBatch(batch: ReadCall[]): Promise<void> {
    await settleBatch(
      batch,
      async (calls) => {
        const { rows } = await this.query<AttemptRow & { n: string }>(SQL.readGroups, [
          calls.map((c) => c.requestId),
          calls.map((c) => c.accountId),
          calls.map((c) => c.test),
          calls.map((c) => c.now),
        ]);
        const byCall = calls.map((): AttemptRow[] => []);
        for (const row of rows) byCall[Number(row.n) - 1]?.push(row);
        for (const [i, call] of calls.entries()) call.resolve(byCall[i] as AttemptRow[]);
        return [];
      },
      (call) =>
        this.query<AttemptRow>(SQL.readGroup, [call.requestId, call.accountId, call.test, call.now]).then(
          ({ rows }) => call.resolve(rows),
          call.reject,
        ),
    );
  }

  /**
   * The decisions of one turn in one statement, one guess per group; a second guess on a group
   * runs after it on its own, so that it sees the first one's effect (counted, or consumed).
   */
  private async decideBatch(batch: DecideCall[]): Promise<void> {
    await settleBatch(
      batch,
      async (calls) => {
        const seen = new Set<string>();
        const first: DecideCall[] = [];
        const later: DecideCall[] = [];
        for (const call of calls) {
          (seen.has(call.groupId) ? later : first).push(call);
          seen.add(call.groupId);
        }
        const { rows } = await this.query<AttemptRow & { n: string }>(SQL.countOrConsumeMany, [
          first.map((c) => c.groupId),
          first.map((c) => c.winnerId),
          first.map((c) => c.now),
          first.map((c) => c.requestId),
        ]);
        const byCall = first.map((): AttemptRow[] => []);
        for (const row of rows) byCall[Number(row.n) - 1]?.push(row);
        for (const [i, call] of first.entries()) call.resolve(byCall[i] as AttemptRow[]);
        return later;
      },
      (call) =>
        this.query<AttemptRow>(SQL.countOrConsume, [
          call.groupId,
          call.winnerId,
          call.now,
          call.requestId,
        ]).then(({ rows }) => call.resolve(rows), call.reject),
    );
  }

  async settleGroup(groupId: string, status: 'expired' | 'failed', now: number) {
    await this.query(status === 'expired' ? SQL.expireGroup : SQL.failGroup, [groupId, now]);
  }

  async recordDelivery(id: string, d: DeliveryRecord) {
    await this.query(SQL.recordDelivery, [
      d.deliveryStatus,
      d.provider,
      d.providerMessageId,
      d.error ?? null,
      id,
      d.cancel === true,
      d.at,
    ]);
  }

  async recordDeliveryByProviderId(
    provider: string,
    providerMessageId: string,
    deliveryStatus: DeliveryStatus,
    error: string | null,
    now: number,
  ) {
    const { rows } = await this.query(SQL.recordDeliveryByProvider, [
      deliveryStatus,
      error,
      provider,
      providerMessageId,
      now,
    ]);
    return Number(rows[0]?.n ?? 0) > 0;
  }

  async addOutboxMessage(verificationId: string, content: string, code: string) {
    const { rowCount } = await this.query(SQL.setOutbox, [content, code, verificationId]);
    if (!rowCount) throw noRequestForOutbox(verificationId);
  }

  async listOutbox(filter: OutboxFilter): Promise<OutboxEntry[]> {
    const { rows } = await this.query(filter.to ? SQL.listOutboxTo : SQL.listOutbox, [
      filter.accountId ?? null,
      filter.to ?? null,
      filter.limit,
      filter.before ?? null,
      filter.test ?? null,
    ]);
    return rows.map(rowToOutboxEntry);
  }

  /** Folds up to `batchSize` changes no other instance holds (see PostgresFold). */
  fold(batchSize: number): Promise<number> {
    return this.folder.run(batchSize, this.clock.now());
  }

  /** Counts agree with the requests at every read: changes not folded yet are folded first. */
  private foldPending(): Promise<void> {
    return this.folder.all(this.clock.now());
  }

  async analytics(query: AnalyticsQuery) {
    await this.foldPending();
    const sql = analyticsSql('postgres', query);
    const [buckets, ttv, refusals] = await Promise.all([
      this.query(sql.buckets, sql.bucketParams),
      this.query(sql.ttv, sql.params),
      this.query(sql.refusals, sql.params),
    ]);
    return rowsToAnalytics(buckets?.rows ?? [], ttv?.rows ?? [], refusals?.rows ?? []);
  }

  async recordRefusal(refusal: Refusal) {
    await this.query(refusalSql('postgres'), refusalParams(refusal, 'postgres'));
  }

  async getContact(id: string) {
    // Contacts are made and counted by the fold: what it has not reached yet is folded first.
    await this.foldPending();
    const row = (await this.query(CONTACT_SQL.get, [id])).rows[0];
    return row ? rowToContact(row) : null;
  }

  async searchContacts(accountId: string, prefix: string, limit: number, test?: boolean) {
    await this.foldPending();
    const { rows } = await this.query(
      CONTACT_SQL.search,
      searchParams(accountId, prefix, limit, test, 'postgres'),
    );
    return rows.map(rowToContact);
  }

  async listContacts(filter: ContactListFilter) {
    await this.foldPending();
    const { rows } = await this.query(CONTACT_SQL.recent, recentParams(filter, 'postgres'));
    return rows.map(rowToContact);
  }

  async contactHistory(contact: ContactRecord, limit: number) {
    const { rows } = await this.query(CONTACT_SQL.history, [
      contact.destination,
      contact.accountId,
      contact.test,
      limit,
    ]);
    return rows.map(rowToHistory);
  }

  /** Batched with the other sends of this event-loop turn (see signalsBatch). */
  destinationSignals(
    accountId: string,
    test: boolean,
    destination: string,
    country: string | null,
    now: number,
  ): Promise<DestinationSignals> {
    return new Promise((resolve, reject) =>
      this.signals.add({ accountId, test, destination, country, now, resolve, reject }),
    );
  }

  /** The risk screen's reads of one turn in one statement (SQL.destinationSignals). */
  private async signalsBatch(batch: SignalsCall[]): Promise<void> {
    await settleBatch(
      batch,
      async (calls) => {
        await this.readSignals(calls);
        return [];
      },
      (call) => this.readSignals([call]).catch(call.reject),
    );
  }

  private async readSignals(calls: SignalsCall[]): Promise<void> {
    const blocks = calls.map((c) => numberBlock(c.destination));
    const { rows } = await this.query<Record<string, unknown>>(SQL.destinationSignals, [
      calls.map((c) => c.accountId),
      calls.map((c) => c.destination),
      calls.map((c) => c.test),
      calls.map((c) => c.now - 3_600_000),
      blocks,
      blocks.map((b) => (b ? prefixEnd(b) : null)),
      calls.map((c) => c.country),
    ]);
    for (const row of rows) calls[Number(row.n) - 1]?.resolve(rowToSignals(row));
  }

  async setContactBlocked(id: string, block: { reason: string } | null, now: number) {
    await this.foldPending();
    return this.transaction(async (client) => {
      const changed = await this.query(
        CONTACT_SQL.block,
        [block ? now : null, block?.reason ?? null, id],
        client,
      );
      if (!changed.rowCount) return null;
      await this.query(
        'INSERT INTO changes (kind, contact_id, at, data) VALUES ($1, $2, $3, $4::jsonb)',
        [
          block ? 'contact.blocked' : 'contact.unblocked',
          id,
          now,
          block ? JSON.stringify({ reason: block.reason }) : null,
        ],
        client,
      );
      const row = (await this.query(CONTACT_SQL.get, [id], client)).rows[0];
      return row ? rowToContact(row) : null;
    });
  }

  async getBreaker(accountId: string, test: boolean, country: string) {
    const row = (await this.query(BREAKER_SQL.get, [accountId, test, country])).rows[0];
    return row ? rowToBreaker(row) : null;
  }

  async saveBreaker(state: BreakerState) {
    await this.query(BREAKER_SQL.save, breakerParams(state, 'postgres'));
  }

  async listBreakers(filter: { accountId?: string; trippedOnly?: boolean }) {
    const { rows } = await this.query(BREAKER_SQL.list, [
      filter.accountId ?? null,
      filter.trippedOnly === true,
    ]);
    return rows.map(rowToBreaker);
  }

  async sweep(now: number, retentionMs: number, batchSize: number): Promise<SweepResult> {
    const cutoff = now - retentionMs;
    // Plain statements, not one transaction: each batch commits on its own, and SKIP LOCKED lets
    // sweepers on other instances take other rows instead of waiting for these.
    const expired = Number((await this.query(SQL.sweepExpire, [now, batchSize])).rows[0]?.n ?? 0);
    const deleted = (await this.query(SQL.sweepDelete, [cutoff, batchSize])).rowCount ?? 0;
    return { expired, deleted };
  }
}
