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
import type { Named } from '../postgres/statements.js';
import { inTransaction, queryOn, type Runner } from '../postgres/transaction.js';
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
  // Prepared once per connection (each step of every instance runs it, and planning it took more
  // of the server than running it); it names the columns it returns, so that a column a later
  // version adds leaves its result as it was (PostgreSQL refuses a prepared statement whose result
  // would change).
  claimDue: `WITH held AS (
      SELECT * FROM unnest($7::text[], $8::int[]) AS h(endpoint_id, n)),
    ep AS (
      SELECT e.id, e.consecutive_timeouts >= $6 AS slow, coalesce(held.n, 0) AS held,
        (SELECT count(*) FROM webhook_deliveries l
          WHERE l.endpoint_id = e.id AND l.status = 'pending' AND l.lease_until > $1) AS busy
      FROM webhook_endpoints e LEFT JOIN held ON held.endpoint_id = e.id
      WHERE e.enabled AND EXISTS (SELECT 1 FROM webhook_deliveries d
        WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= $1
          AND (d.lease_until IS NULL OR d.lease_until <= $1))),
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
      SELECT d.id, taken.slow FROM webhook_deliveries d JOIN taken ON taken.id = d.id
      WHERE d.status = 'pending' AND d.next_attempt_at <= $1
        AND (d.lease_until IS NULL OR d.lease_until <= $1)
      FOR UPDATE OF d SKIP LOCKED)
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

/** Webhooks on PostgreSQL: the claims use SKIP LOCKED so instances share the work. */
export class PostgresWebhookStore implements WebhookStore {
  constructor(private readonly pool: pg.Pool) {}

  private query(statement: string | Named, params: unknown[] = [], runner?: Runner) {
    return queryOn(runner ?? this.pool, statement, params);
  }

  private transaction<T>(work: (client: Runner) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
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
    return rowToEndpoint(rows[0]);
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
    return (await this.query(SQL.anyEnabled)).rows[0]?.enabled === true;
  }

  /**
   * Queues a delivery of each event for every enabled endpoint of its account that wants its type,
   * on the fold's transaction `client`, so an event is queued exactly when its change is folded.
   */
  async enqueueOn(client: Runner, events: WebhookEvent[], now: number): Promise<void> {
    const endpoints = (await this.query(SQL.enabledEndpoints, [], client)).rows.map(rowToEndpoint);
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
    if ((cols[0]?.length ?? 0) > 0) await this.query(SQL.insertDeliveries, cols, client);
  }

  async claimDue(c: ClaimRequest) {
    // The claim offers enabled endpoints' deliveries only: without one there is nothing to take,
    // and a read of the endpoints costs the server a small part of planning the claim (about a
    // millisecond, at every step of every instance).
    if (!(await this.anyEndpointEnabled())) return [];
    const held = Object.entries(c.held).filter(([, n]) => n > 0);
    const { rows } = await this.query({ name: 'webhook_claim', text: SQL.claimDue }, [
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
    // A success is one statement: the path every healthy delivery takes.
    if (a.ok) {
      await this.query(SQL.recordSuccess, [a.responseStatus, a.now, a.deliveryId, a.endpointId, a.slow]);
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

  async sweep(before: number, batchSize: number) {
    return (await this.query(SQL.sweep, [before, batchSize])).rowCount ?? 0;
  }

  async countSlowEndpoints(slowAfter: number) {
    return Number((await this.query(SQL.countSlow, [slowAfter])).rows[0]?.n ?? 0);
  }
}
