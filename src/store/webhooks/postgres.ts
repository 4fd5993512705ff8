import type pg from 'pg';
import { timeOrderedUuid } from '../../domain/ids.js';
import type {
  AttemptRecord,
  ClaimRequest,
  EndpointPatch,
  NewWebhookEndpoint,
  WebhookStore,
} from '../../domain/ports/webhooks.js';
import { type WebhookEvent, webhookPayload } from '../../webhooks/events.js';
import { PostgresConnection } from '../postgres/connection.js';
import type { Named } from '../postgres/statements.js';
import type { Runner } from '../postgres/transaction.js';
import { firstPerKey, settleBatch, TurnBatch } from '../postgres/turn-batch.js';
import { deliveriesFor, rowToDelivery, rowToDue, rowToEndpoint } from './rows.js';

/** Whether any endpoint could want an event: the fold reads events only then, and claims only then. */
export const ANY_ENDPOINT_ENABLED =
  'EXISTS (SELECT 1 FROM webhook_endpoints WHERE deleted_at IS NULL AND enabled)';

const SQL = {
  insertEndpoint: `INSERT INTO webhook_endpoints (id, account_id, url, events, enabled, secret, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
  listEndpoints: 'SELECT * FROM webhook_endpoints WHERE deleted_at IS NULL ORDER BY created_at, id',
  listEndpointsOf:
    'SELECT * FROM webhook_endpoints WHERE deleted_at IS NULL AND account_id = $1 ORDER BY created_at, id',
  enabledEndpoints: 'SELECT * FROM webhook_endpoints WHERE deleted_at IS NULL AND enabled',
  getEndpoint: 'SELECT * FROM webhook_endpoints WHERE id = $1 AND deleted_at IS NULL',
  sealedSecrets: 'SELECT id, secret FROM webhook_endpoints WHERE deleted_at IS NULL ORDER BY id',
  replaceSealedSecret: 'UPDATE webhook_endpoints SET secret = $1 WHERE id = $2 AND secret = $3',
  updateEndpoint: `UPDATE webhook_endpoints SET url = coalesce($2, url), events = coalesce($3, events),
      enabled = coalesce($4, enabled),
      failing_since = CASE WHEN $4 THEN NULL ELSE failing_since END,
      disabled_reason = CASE WHEN $4 THEN NULL ELSE disabled_reason END,
      consecutive_timeouts = CASE WHEN $4 OR $2 IS NOT NULL THEN 0 ELSE consecutive_timeouts END
    WHERE id = $1 AND deleted_at IS NULL RETURNING *`,
  deleteEndpoint:
    'UPDATE webhook_endpoints SET deleted_at = $1, enabled = false WHERE id = $2 AND deleted_at IS NULL',
  abandon: `UPDATE webhook_deliveries SET status = 'failed', last_error = $1, next_attempt_at = NULL
    WHERE endpoint_id = $2 AND status = 'pending'`,
  listDeliveries:
    'SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2',
  replay: `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $1, lease_until = NULL
    WHERE id = $2 AND endpoint_id = $3 RETURNING *`,
  anyEnabled: `SELECT ${ANY_ENDPOINT_ENABLED} AS enabled`,
  insertDeliveries: `INSERT INTO webhook_deliveries
      (id, endpoint_id, event_id, event_type, payload, next_attempt_at, created_at)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])
    ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
  // One statement, the twin of claimRooms and pickForLanes (src/store/webhooks/rows.ts). Each
  // enabled endpoint with due deliveries offers its oldest, up to its room: in the main lane its
  // cap less its live leases (every instance's) and its fair share of the claiming instance's pool
  // ($3 free slots and the attempts it holds, $7/$8 by endpoint) less what it holds there; in the
  // slow lane one if nothing of it is in flight. Each lane takes the oldest offered. Then the
  // taken rows are locked, skipping those another claim holds and re-checking the rest on their
  // newest version: claims at once see the same leases and offer the oldest rows of each endpoint
  // (ties broken by id), so together they never take more than the cap; a claim whose snapshot
  // predates another's leases offers the rows that one took first, and finds them leased.
  // `consecutive_timeouts` counts slow attempts in a row, timed out or answered late (the column
  // keeps its first name).
  // Planned once per connection and that plan kept (NAMED below), so every table access is one an
  // index serves whatever the statistics said when it was planned: the EXISTS stays a lookup per
  // endpoint (OFFSET 0: not turned into a join over every pending delivery), and the taken rows
  // are locked by primary key (`|| ''`: no partial index of pending deliveries matches, which a
  // plan made on a nearly empty table walked whole). It names the columns it returns, so that a
  // column a later version adds leaves its result as it was (PostgreSQL refuses a prepared
  // statement whose result would change).
  claimDue: `WITH held AS (
      SELECT * FROM unnest($7::text[], $8::int[]) AS h(endpoint_id, n)),
    ep AS (
      SELECT e.id, e.consecutive_timeouts >= $6 AS slow, coalesce(held.n, 0) AS held,
        (SELECT count(*) FROM webhook_deliveries l
          WHERE l.endpoint_id = e.id AND l.status = 'pending' AND l.lease_until > $1) AS busy
      FROM webhook_endpoints e LEFT JOIN held ON held.endpoint_id = e.id
      WHERE e.enabled AND EXISTS (SELECT 1 FROM webhook_deliveries d
        WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= $1
          AND (d.lease_until IS NULL OR d.lease_until <= $1)
        OFFSET 0)),
    share AS (
      SELECT greatest(1, ($3 + (SELECT coalesce(sum(n), 0) FROM held)) / (count(*) + 1))::int AS n
      FROM (SELECT id FROM ep WHERE NOT slow UNION SELECT endpoint_id FROM held WHERE n > 0) active),
    room AS (
      SELECT ep.id, ep.slow,
        CASE WHEN ep.slow THEN least(1 - ep.busy, $4)
          ELSE least($5 - ep.busy, share.n - ep.held, $3) END AS n
      FROM ep, share),
    offered AS (
      SELECT due.id, due.next_attempt_at, room.slow
      FROM room CROSS JOIN LATERAL (
        SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
        WHERE d.endpoint_id = room.id AND d.status = 'pending' AND d.next_attempt_at <= $1
          AND (d.lease_until IS NULL OR d.lease_until <= $1)
        ORDER BY d.next_attempt_at, d.id
        LIMIT greatest(room.n, 0)) due
      WHERE room.n > 0),
    taken AS (
      (SELECT id, slow FROM offered WHERE NOT slow ORDER BY next_attempt_at, id LIMIT $3)
      UNION ALL
      (SELECT id, slow FROM offered WHERE slow ORDER BY next_attempt_at, id LIMIT $4)),
    locked AS (
      SELECT l.id, taken.slow FROM taken CROSS JOIN LATERAL (
        SELECT d.id FROM webhook_deliveries d
        WHERE d.id = taken.id AND d.status || '' = 'pending' AND d.next_attempt_at <= $1
          AND (d.lease_until IS NULL OR d.lease_until <= $1)
        FOR UPDATE OF d SKIP LOCKED) l)
    UPDATE webhook_deliveries d SET lease_until = $2
    FROM locked, webhook_endpoints e
    WHERE d.id = locked.id AND e.id = d.endpoint_id
    RETURNING d.id, d.endpoint_id, d.event_id, d.event_type, d.payload, d.status, d.attempts,
      d.next_attempt_at, d.response_status, d.last_error, d.last_attempt_at, d.created_at,
      e.url, e.secret, locked.slow`,
  // A success ends the failing streak; a late one ($5) counts as slow, a prompt one clears the
  // count. The endpoint's row is written only when that changes it.
  recordSuccess: `WITH endpoint AS (
      UPDATE webhook_endpoints SET failing_since = NULL,
        consecutive_timeouts = CASE WHEN $5 THEN consecutive_timeouts + 1 ELSE 0 END
      WHERE id = $4 AND (failing_since IS NOT NULL OR consecutive_timeouts > 0 OR $5))
    UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, response_status = $1,
      last_error = NULL, lease_until = NULL, next_attempt_at = NULL, last_attempt_at = $2
    WHERE id = $3`,
  // recordSuccess for the successes of one event-loop turn ($1 deliveries, $2 their endpoints, $3
  // statuses, $4 times, $5 slow), as if each ran in turn: an endpoint's streak of slow attempts is
  // its count plus the batch's slow ones, or, after a prompt one in the batch, the slow ones after
  // the last prompt one. An endpoint's row is written only when that changes it, as above. Two
  // batches that write the same two endpoints in opposite orders deadlock: PostgreSQL rolls one
  // back and the store runs it again (PostgresConnection.query). The deliveries are found by
  // primary key from the batch's ids (`= ANY`): joined plainly, a plan kept from a nearly empty
  // table merged the batch with a walk of the whole primary key.
  recordSuccesses: `WITH r AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::boolean[])
        WITH ORDINALITY AS r(id, endpoint_id, status, at, slow, n)),
    ends AS (
      SELECT r.endpoint_id, count(*) FILTER (WHERE r.slow) AS slow_count,
        max(r.n) FILTER (WHERE NOT r.slow) AS last_prompt
      FROM r GROUP BY r.endpoint_id),
    streaks AS (
      SELECT ends.*, (SELECT count(*) FROM r WHERE r.endpoint_id = ends.endpoint_id AND r.slow
          AND r.n > ends.last_prompt) AS slow_after
      FROM ends),
    endpoint AS (
      UPDATE webhook_endpoints e SET failing_since = NULL,
        consecutive_timeouts = CASE WHEN s.last_prompt IS NULL THEN e.consecutive_timeouts + s.slow_count
          ELSE s.slow_after END
      FROM streaks s
      WHERE e.id = ANY (ARRAY(SELECT endpoint_id FROM ends)) AND e.id = s.endpoint_id
        AND (e.failing_since IS NOT NULL OR e.consecutive_timeouts > 0 OR s.slow_count > 0))
    UPDATE webhook_deliveries d SET status = 'succeeded', attempts = d.attempts + 1, response_status = r.status,
      last_error = NULL, lease_until = NULL, next_attempt_at = NULL, last_attempt_at = r.at
    FROM r WHERE d.id = ANY (ARRAY(SELECT r.id FROM r)) AND d.id = r.id`,
  failed: `UPDATE webhook_deliveries SET status = CASE WHEN $2::bigint IS NULL THEN 'failed' ELSE 'pending' END,
      attempts = attempts + 1, response_status = $3, last_error = $4,
      lease_until = NULL, next_attempt_at = $2, last_attempt_at = $5
    WHERE id = $1`,
  endpointFailing: `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, $1),
      consecutive_timeouts = consecutive_timeouts + CASE WHEN $3 THEN 1 ELSE 0 END
    WHERE id = $2 AND (failing_since IS NULL OR $3)`,
  disableIfFailing: `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $1
    WHERE id = $2 AND enabled AND failing_since IS NOT NULL AND failing_since <= $3`,
  countSlow: 'SELECT count(*)::int AS n FROM webhook_endpoints WHERE enabled AND consecutive_timeouts >= $1',
  sweep: `DELETE FROM webhook_deliveries WHERE id IN (
      SELECT id FROM webhook_deliveries WHERE created_at < $1 AND status <> 'pending' LIMIT $2
      FOR UPDATE SKIP LOCKED)`,
};

/**
 * The statements every step of the worker and every fold with events run, prepared once per
 * connection. Each was planned at every run, the claim too (prepared, but on the main pool, whose
 * connections force custom plans), and planning cost the server as much as running
 * (pg_stat_statements under bench/service-hotpath --webhooks=1: the claim 0.6 ms of planning
 * against 0.4-0.6 of running, a delivery's success 0.08 against 0.08). The claim and the successes
 * run on the pool that plans once (Named.plannedOnce); every table access in both has an index to
 * take (test/store/postgres.webhook-plans.test.ts).
 */
const NAMED = {
  anyEnabled: { name: 'webhook_any_enabled', text: SQL.anyEnabled },
  enabledEndpoints: { name: 'webhook_enabled_endpoints', text: SQL.enabledEndpoints },
  insertDeliveries: { name: 'webhook_insert_deliveries', text: SQL.insertDeliveries },
  claimDue: { name: 'webhook_claim', text: SQL.claimDue, plannedOnce: true },
  recordSuccess: { name: 'webhook_succeeded', text: SQL.recordSuccess },
  recordSuccesses: { name: 'webhook_succeeded_many', text: SQL.recordSuccesses, plannedOnce: true },
} satisfies Record<string, Named>;

/** A success waiting for its turn's statement. */
interface SuccessCall {
  a: AttemptRecord;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Webhooks on PostgreSQL: the claims use SKIP LOCKED so instances share the work. */
export class PostgresWebhookStore implements WebhookStore {
  private readonly db: PostgresConnection;
  /** The successes of one event-loop turn, recorded in one statement. */
  private readonly successes = new TurnBatch<SuccessCall>((batch) => this.recordSuccesses(batch));

  /** `plannedOncePool`: the store's pool that plans a statement once per connection. */
  constructor(pool: pg.Pool, plannedOncePool: pg.Pool = pool) {
    this.db = new PostgresConnection(pool, plannedOncePool);
  }

  private query(statement: string | Named, params: unknown[] = [], runner?: Runner) {
    return this.db.query(statement, params, runner);
  }

  private transaction<T>(work: (client: Runner) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Records the successes of the current turn at once (before the pool closes). */
  flush(): Promise<void> {
    return this.successes.flush();
  }

  async createEndpoint(e: NewWebhookEndpoint) {
    const { rows } = await this.query(SQL.insertEndpoint, [
      e.id,
      e.accountId,
      e.url,
      e.events.join(','),
      e.enabled,
      e.sealedSecret,
      e.createdAt,
    ]);
    const [row] = rows;
    if (!row) throw new Error('the endpoint was not inserted');
    return rowToEndpoint(row);
  }

  async listEndpoints(accountId?: string) {
    const { rows } = accountId
      ? await this.query(SQL.listEndpointsOf, [accountId])
      : await this.query(SQL.listEndpoints);
    return rows.map(rowToEndpoint);
  }

  async sealedSecrets() {
    const { rows } = await this.query(SQL.sealedSecrets);
    return rows.map((r) => ({ id: r.id as string, sealedSecret: r.secret as string }));
  }

  async replaceSealedSecret(id: string, expected: string, next: string) {
    return ((await this.query(SQL.replaceSealedSecret, [next, id, expected])).rowCount ?? 0) === 1;
  }

  async getEndpoint(id: string) {
    const row = (await this.query(SQL.getEndpoint, [id])).rows[0];
    return row ? rowToEndpoint(row) : null;
  }

  async updateEndpoint(id: string, patch: EndpointPatch) {
    const row = (
      await this.query(SQL.updateEndpoint, [
        id,
        patch.url ?? null,
        patch.events?.join(',') ?? null,
        patch.enabled ?? null,
      ])
    ).rows[0];
    return row ? rowToEndpoint(row) : null;
  }

  deleteEndpoint(id: string, now: number) {
    return this.transaction(async (client) => {
      const { rowCount } = await this.query(SQL.deleteEndpoint, [now, id], client);
      if (!rowCount) return false;
      await this.query(SQL.abandon, ['endpoint deleted', id], client);
      return true;
    });
  }

  async listDeliveries(endpointId: string, limit: number) {
    return (await this.query(SQL.listDeliveries, [endpointId, limit])).rows.map(rowToDelivery);
  }

  async replayDelivery(endpointId: string, deliveryId: string, now: number) {
    const row = (await this.query(SQL.replay, [now, deliveryId, endpointId])).rows[0];
    return row ? rowToDelivery(row) : null;
  }

  /** Whether any endpoint could want an event (the fold reads its own in its lock's statement). */
  async anyEndpointEnabled(): Promise<boolean> {
    return (await this.query(NAMED.anyEnabled)).rows[0]?.enabled === true;
  }

  /**
   * Queues a delivery of each event for every enabled endpoint of its account that wants its type,
   * on the fold's transaction `client`, so an event is queued exactly when its change is folded.
   */
  async enqueueOn(client: Runner, events: WebhookEvent[], now: number): Promise<void> {
    const endpoints = (await this.query(NAMED.enabledEndpoints, [], client)).rows.map(rowToEndpoint);
    const cols: unknown[][] = [[], [], [], [], [], [], []];
    for (const event of events) {
      const targets = deliveriesFor(event, endpoints);
      if (targets.length === 0) continue;
      const payload = webhookPayload(event);
      for (const endpoint of targets) {
        const values = [timeOrderedUuid(now), endpoint.id, event.id, event.type, payload, now, now];
        for (const [i, v] of values.entries()) cols[i]?.push(v);
      }
    }
    if ((cols[0]?.length ?? 0) > 0) await this.query(NAMED.insertDeliveries, cols, client);
  }

  async claimDue(c: ClaimRequest) {
    // The claim offers enabled endpoints' deliveries only: without one there is nothing to take,
    // and a read of the endpoints costs the server a small part of planning the claim (about a
    // millisecond, at every step of every instance).
    if (!(await this.anyEndpointEnabled())) return [];
    const held = Object.entries(c.held).filter(([, n]) => n > 0);
    const { rows } = await this.query(NAMED.claimDue, [
      c.now,
      c.leaseUntil,
      c.main,
      c.slow,
      c.perEndpoint,
      c.slowAfter,
      held.map(([id]) => id),
      held.map(([, n]) => n),
    ]);
    return rows.map(rowToDue);
  }

  async recordAttempt(a: AttemptRecord) {
    // A success is one statement for all those of its turn: the path every healthy delivery takes.
    if (a.ok) {
      await new Promise<void>((resolve, reject) => this.successes.add({ a, resolve, reject }));
      return { endpointDisabled: false };
    }
    return this.transaction(async (client) => {
      // The endpoint's row before the delivery's: a transaction that disables the endpoint (and
      // so abandons its deliveries) holds the endpoint first too, so neither waits for the other
      // while holding what the other needs.
      await this.query(SQL.endpointFailing, [a.now, a.endpointId, a.slow], client);
      const disabled = await this.query(
        SQL.disableIfFailing,
        [a.disabledReason, a.endpointId, a.disableBefore],
        client,
      );
      await this.query(SQL.failed, [a.deliveryId, a.nextAttemptAt, a.responseStatus, a.error, a.now], client);
      if (disabled.rowCount) await this.query(SQL.abandon, ['endpoint disabled', a.endpointId], client);
      return { endpointDisabled: (disabled.rowCount ?? 0) > 0 };
    });
  }

  /** One turn's successes: together in one statement, a delivery named twice on its own after. */
  private async recordSuccesses(batch: SuccessCall[]): Promise<void> {
    const { first, later } = firstPerKey(batch, (c) => c.a.deliveryId);
    await settleBatch(
      first,
      async (calls) => {
        await this.query(NAMED.recordSuccesses, [
          calls.map((c) => c.a.deliveryId),
          calls.map((c) => c.a.endpointId),
          calls.map((c) => c.a.responseStatus),
          calls.map((c) => c.a.now),
          calls.map((c) => c.a.slow),
        ]);
        for (const c of calls) c.resolve();
        return [];
      },
      (call) => this.recordSuccess(call),
    );
    for (const call of later) await this.recordSuccess(call);
  }

  private async recordSuccess({ a, resolve, reject }: SuccessCall): Promise<void> {
    try {
      await this.query(NAMED.recordSuccess, [a.responseStatus, a.now, a.deliveryId, a.endpointId, a.slow]);
      resolve();
    } catch (err) {
      reject(err);
    }
  }

  async sweep(before: number, batchSize: number) {
    return (await this.query(SQL.sweep, [before, batchSize])).rowCount ?? 0;
  }

  async countSlowEndpoints(slowAfter: number) {
    return Number((await this.query(SQL.countSlow, [slowAfter])).rows[0]?.n ?? 0);
  }
}
