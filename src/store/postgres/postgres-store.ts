import pg from 'pg';
import { type Clock, systemClock } from '../../domain/clock.js';
import { PostgresIdempotencyStore } from '../idempotency/postgres.js';
import { PostgresInstances } from '../instances/postgres.js';
import { type DestinationFilter, type DestinationPage, destinationPageSql } from '../known-destinations.js';
import type { StoreLifecycle } from '../lifecycle.js';
import { PostgresLookupCache } from '../lookups/postgres.js';
import type { AppliedMigration } from '../migrations.js';
import { PostgresSessionStore } from '../sessions/postgres.js';
import { PostgresSilentFallbacks } from '../silent-fallbacks/postgres.js';
import { PostgresWebhookStore } from '../webhooks/postgres.js';
import { PostgresWhatsAppCalls } from '../whatsapp-calls/postgres.js';
import { PostgresConnection } from './connection.js';
import { PostgresFold } from './fold.js';
import { PostgresKeysAndAccounts } from './keys-and-accounts.js';
import { applyMigrations } from './migrate.js';
import { toStoreError } from './pg-errors.js';
import { PLANNED_ONCE_SETTINGS } from './planned-once.js';
import { PostgresReadModel } from './read-model.js';
import { SQL } from './statements.js';
import { PostgresVerifications } from './verifications.js';

/**
 * Set on every pooled connection before its first use:
 * - every run of a prepared statement is planned for its parameters and the tables as they are;
 * - no statement is compiled by JIT, whose cost (tens of milliseconds) only pays off on long
 *   analytical queries, never on a statement that serves one event-loop turn.
 */
export const CONNECTION_SETTINGS = 'SET plan_cache_mode = force_custom_plan; SET jit = off';

/**
 * Connections of the planned-once pool by default (DATABASE_SEND_POOL_SIZE), beside the main
 * pool's: its statements (the send's write, the verify's, the webhook worker's claim and
 * successes) are one per event-loop turn each and take a millisecond or two, so a few carry every
 * send and verify.
 */
export const PLANNED_ONCE_CONNECTIONS = 4;

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /**
   * Connections of the pool that plans the send's and the verify's statements once (default
   * PLANNED_ONCE_CONNECTIONS, at most `max`); 0: no such pool, they run on the main pool and are
   * planned every run.
   */
  plannedOnceMax?: number;
  /** How long to wait for a connection before answering 503 (default 3000 ms). */
  connectionTimeoutMs?: number;
  /** How long a statement may take before the connection is dropped and 503 answered (default 10 s). */
  queryTimeoutMs?: number;
  /** Told about connection errors of idle pooled clients (which are dropped and replaced). */
  onIdleError?: (err: Error) => void;
  /** Times what the fold makes (default: the system clock). */
  clock?: Clock;
  /** Destinations the risk screen may answer for without a query, loaded once migrated (DestinationFilter). */
  known?: DestinationFilter;
}

/**
 * The shared store for many instances: node-postgres with a pool. Every counter is one guarded
 * statement, so concurrent requests on any number of instances count exactly. While the database
 * is unreachable every method rejects with StoreUnavailable (503); the pool opens new connections
 * on the next calls, so service resumes by itself when the database is back.
 */
export class PostgresStore implements StoreLifecycle {
  readonly dialect = 'postgres' as const;
  /** Migrations of a newer version this one runs on, each marked tolerated (see migrations.ts). */
  newerMigrations: AppliedMigration[] = [];
  readonly idempotency: PostgresIdempotencyStore;
  readonly webhooks: PostgresWebhookStore;
  readonly sessions: PostgresSessionStore;
  readonly silentFallbacks: PostgresSilentFallbacks;
  readonly instances: PostgresInstances;
  readonly lookups: PostgresLookupCache;
  readonly whatsappCalls: PostgresWhatsAppCalls;
  readonly verifications: PostgresVerifications;
  readonly accounts: PostgresKeysAndAccounts;
  readonly readModel: PostgresReadModel;
  private readonly pool: pg.Pool;
  private readonly plannedOncePool: pg.Pool | null;
  private readonly db: PostgresConnection;
  private closed = false;
  private readonly known: DestinationFilter | null;
  private loadingKnown = false;

  /** What a migration's own pool connects with (migrate). */
  private readonly migrationConnection: pg.PoolConfig;

  constructor(connectionString: string, options: PostgresStoreOptions = {}) {
    const connection = {
      connectionString,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 3000,
      keepAlive: true,
    };
    this.migrationConnection = {
      ...connection,
      // A long statement sends nothing for minutes: probes after 10 s of silence (answered by a
      // live server's kernel) find a server that went away, where the system's default waits 2 h.
      keepAliveInitialDelayMillis: 10_000,
    };
    const common = {
      ...connection,
      // Without it a half-open connection (peer gone, no RST) would hang a request forever.
      query_timeout: options.queryTimeoutMs ?? 10_000,
      idleTimeoutMillis: 30_000,
    };
    this.pool = new pg.Pool({
      ...common,
      max: options.max ?? 10,
      // The request path's statements are prepared once per connection. After five runs
      // PostgreSQL may keep one generic plan for good, made while the tables were nearly empty: a
      // sequential scan, or a walk of every pending request per new one, whose cost then grows
      // with the table (a send batch went from 2 to 35 ms within 6,000 requests). A plan per run,
      // made for the table as it is, costs a fraction of a millisecond per statement, and a
      // statement here serves a whole event-loop turn.
      // JIT: the planner compiles a statement whose estimated cost passes jit_above_cost, and the
      // estimates grow with the table. On a 1M-row table the risk screen's read of a send batch
      // (estimated at 120,000 for a branch that never runs for an email) spent 115 ms of its
      // 117 ms compiling, in 85 of the 91 slow runs sampled.
      onConnect: (client) => client.query(CONNECTION_SETTINGS),
    });
    // An idle client whose server went away (restart, 57P01) emits 'error'; the pool drops it.
    // Unhandled, that event would end the process.
    this.pool.on('error', (err) => options.onIdleError?.(err));
    const plannedOnce = Math.min(options.max ?? 10, options.plannedOnceMax ?? PLANNED_ONCE_CONNECTIONS);
    // The second pool runs the statements marked `plannedOnce` (statements.ts, webhooks/postgres.ts)
    // under PLANNED_ONCE_SETTINGS (planned-once.ts), the danger of a plan kept from nearly empty
    // tables being why the main pool plans every run. Session settings: behind PgBouncer in
    // transaction mode they would reach other clients' statements, so such a deployment runs
    // without this pool (DATABASE_SEND_POOL_SIZE=0).
    this.plannedOncePool =
      plannedOnce > 0
        ? new pg.Pool({
            ...common,
            max: plannedOnce,
            onConnect: (client) => client.query(PLANNED_ONCE_SETTINGS),
          })
        : null;
    this.plannedOncePool?.on('error', (err) => options.onIdleError?.(err));
    this.db = new PostgresConnection(this.pool, this.plannedOncePool ?? this.pool);
    this.idempotency = new PostgresIdempotencyStore(this.pool);
    this.webhooks = new PostgresWebhookStore(this.pool, this.plannedOncePool ?? this.pool);
    this.sessions = new PostgresSessionStore(this.pool);
    this.silentFallbacks = new PostgresSilentFallbacks(this.pool);
    this.instances = new PostgresInstances(this.pool);
    this.lookups = new PostgresLookupCache(this.pool);
    this.whatsappCalls = new PostgresWhatsAppCalls(this.pool);
    this.known = options.known ?? null;
    this.verifications = new PostgresVerifications(this.db, this.known);
    this.accounts = new PostgresKeysAndAccounts(this.db);
    const folder = new PostgresFold(this.pool, this.webhooks);
    this.readModel = new PostgresReadModel(this.db, folder, options.clock ?? systemClock, this.known);
  }

  /** Starts loading the destinations the database holds into `known` (once its schema is current). */
  private loadKnown(): void {
    if (!this.known || this.loadingKnown) return;
    this.loadingKnown = true;
    void this.known.load(async (table, after, limit) => {
      const { rows } = await this.db.query<Awaited<ReturnType<DestinationPage>>[number]>(
        destinationPageSql(table, 'postgres'),
        [after, limit],
      );
      return rows;
    });
  }

  /**
   * Applies the pending migrations on a pool of their own, without the request path's read timeout
   * (queryTimeoutMs): an index build or a rewrite of a table of millions of rows, or the wait for
   * the instance migrating before this one, takes minutes where a request's statement takes
   * milliseconds; cut off at 10 s, the migration would roll back and the instance would fail to
   * start, every time. The connections' keepalive still finds a server that went away (within
   * minutes: TCP's probes after 10 s of silence).
   */
  async migrate(): Promise<number[]> {
    const pool = new pg.Pool({ ...this.migrationConnection, max: 3 });
    pool.on('error', () => {}); // an idle client's lost server: the query in flight fails instead
    try {
      const { applied, newer } = await applyMigrations(pool);
      this.newerMigrations = newer;
      this.loadKnown();
      return applied;
    } catch (err) {
      throw toStoreError(err);
    } finally {
      await pool.end().catch(() => {});
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
    this.known?.stop();
    // Sends, attempts and consumes of the current turn are written before the pool goes.
    await this.verifications.flush();
    await this.readModel.flush();
    await this.webhooks.flush();
    await Promise.all([this.pool.end(), this.plannedOncePool?.end()]);
  }

  async getOrCreateSetting(name: string, value: string) {
    const inserted = await this.db.query<{ value: string }>(SQL.insertSetting, [name, value]);
    if (inserted.rows[0]) return { value: inserted.rows[0].value, created: true };
    // ON CONFLICT DO NOTHING waited for the other writer to commit, so its value is visible now.
    const { rows } = await this.db.query<{ value: string }>(SQL.getSetting, [name]);
    return { value: (rows[0] as { value: string }).value, created: false };
  }
}
