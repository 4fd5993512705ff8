import type { Database, Statement } from 'better-sqlite3';
import { timeOrderedUuid } from '../../domain/ids.js';
import type {
  AttemptRecord,
  ClaimRequest,
  EndpointPatch,
  NewWebhookEndpoint,
  WebhookStore,
} from '../../domain/ports/webhooks.js';
import { type WebhookEvent, webhookPayload } from '../../webhooks/events.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import {
  type ClaimCandidate,
  claimRooms,
  deliveriesFor,
  pickForLanes,
  rowToDelivery,
  rowToDue,
  rowToEndpoint,
} from './rows.js';

type Row = Record<string, unknown>;

/**
 * Webhooks on the SQLite store's connection. Every method is one unit of its group commit; across
 * processes BEGIN IMMEDIATE serialises the units, so a claim read and leased in one unit cannot be
 * claimed by another process in between.
 */
export class SqliteWebhookStore implements WebhookStore {
  private readonly s: ReturnType<typeof statements>;

  constructor(
    db: Database,
    private readonly tx: GroupCommit,
  ) {
    this.s = statements(db);
  }

  createEndpoint(e: NewWebhookEndpoint) {
    return this.tx.write(() => {
      this.s.insertEndpoint.run(
        e.id,
        e.accountId,
        e.url,
        e.events.join(','),
        e.enabled ? 1 : 0,
        e.sealedSecret,
        e.createdAt,
      );
      return rowToEndpoint(this.s.getEndpoint.get(e.id) as Row);
    }, false);
  }

  listEndpoints(accountId?: string) {
    return this.tx.read(() =>
      ((accountId ? this.s.listEndpointsOf.all(accountId) : this.s.listEndpoints.all()) as Row[]).map(
        rowToEndpoint,
      ),
    );
  }

  getEndpoint(id: string) {
    return this.tx.read(() => {
      const row = this.s.getEndpoint.get(id) as Row | undefined;
      return row ? rowToEndpoint(row) : null;
    });
  }

  updateEndpoint(id: string, patch: EndpointPatch) {
    return this.tx.write(() => {
      this.s.updateEndpoint.run({
        id,
        url: patch.url ?? null,
        events: patch.events?.join(',') ?? null,
        enabled: patch.enabled === undefined ? null : patch.enabled ? 1 : 0,
      });
      const row = this.s.getEndpoint.get(id) as Row | undefined;
      return row ? rowToEndpoint(row) : null;
    });
  }

  deleteEndpoint(id: string, now: number) {
    return this.tx.write(() => {
      if (this.s.deleteEndpoint.run(now, id).changes === 0) return false;
      this.s.abandon.run('endpoint deleted', id);
      return true;
    });
  }

  listDeliveries(endpointId: string, limit: number) {
    return this.tx.read(() => (this.s.listDeliveries.all(endpointId, limit) as Row[]).map(rowToDelivery));
  }

  replayDelivery(endpointId: string, deliveryId: string, now: number) {
    return this.tx.write(() => {
      const row = this.s.replay.get(now, deliveryId, endpointId) as Row | undefined;
      return row ? rowToDelivery(row) : null;
    }, false);
  }

  /** Whether any endpoint could want an event (the fold reads events only then). */
  anyEndpointEnabled(): boolean {
    return this.s.anyEnabled.get() !== undefined;
  }

  /**
   * Queues a delivery of each event for every enabled endpoint of its account that wants its type,
   * with the body signed at each attempt. Runs inside the fold's write unit, so an event is queued
   * exactly when its change is folded.
   */
  enqueue(events: WebhookEvent[], now: number): void {
    const endpoints = (this.s.enabledEndpoints.all() as Row[]).map(rowToEndpoint);
    for (const event of events) {
      const targets = deliveriesFor(event, endpoints);
      if (targets.length === 0) continue;
      const payload = webhookPayload(event);
      for (const endpoint of targets)
        this.s.insertDelivery.run(timeOrderedUuid(now), endpoint.id, event.id, event.type, payload, now, now);
    }
  }

  claimDue(c: ClaimRequest) {
    // One unit of the single writer: the leases counted here are every process's, and no other
    // claim runs until these are written.
    return this.tx.write(() => {
      const endpoints = (
        this.s.claimable.all({ now: c.now, slowAfter: c.slowAfter }) as Array<{
          id: string;
          slow: number;
          busy: number;
          due: number;
        }>
      ).map((e) => ({ id: e.id, slow: e.slow === 1, busy: e.busy, due: e.due === 1 }));
      const candidates: ClaimCandidate[] = [];
      for (const e of claimRooms(endpoints, c)) {
        const due = this.s.dueOf.all(e.id, c.now, c.now, e.room) as Array<{ id: string; next: number }>;
        for (const row of due) candidates.push({ id: row.id, nextAttemptAt: row.next, slow: e.slow });
      }
      const picked = pickForLanes(candidates, c);
      if (picked.length === 0) return [];
      for (const p of picked) this.s.lease.run(c.leaseUntil, p.id);
      const slow = new Set(picked.filter((p) => p.slow).map((p) => p.id));
      return (this.s.readClaimed.all(JSON.stringify(picked.map((p) => p.id))) as Row[]).map((r) =>
        rowToDue({ ...r, slow: slow.has(String(r.id)) }),
      );
    });
  }

  recordAttempt(a: AttemptRecord) {
    return this.tx.write(() => {
      if (a.ok) {
        this.s.succeeded.run(a.responseStatus, a.now, a.deliveryId);
        this.s.endpointAnswered.run({ slow: a.slow ? 1 : 0, id: a.endpointId });
        return { endpointDisabled: false };
      }
      this.s.failed.run({
        id: a.deliveryId,
        next: a.nextAttemptAt,
        responseStatus: a.responseStatus,
        error: a.error,
        now: a.now,
      });
      this.s.endpointFailing.run({ now: a.now, slow: a.slow ? 1 : 0, id: a.endpointId });
      const disabled =
        this.s.disableIfFailing.run(a.disabledReason, a.endpointId, a.disableBefore).changes > 0;
      if (disabled) this.s.abandon.run('endpoint disabled', a.endpointId);
      return { endpointDisabled: disabled };
    });
  }

  sweep(before: number, batchSize: number) {
    return this.tx.write(() => this.s.sweep.run(before, batchSize).changes, false);
  }

  countSlowEndpoints(slowAfter: number) {
    return this.tx.read(() => (this.s.countSlow.get(slowAfter) as { n: number }).n);
  }

  sealedSecrets() {
    return this.tx.read(() =>
      (this.s.sealedSecrets.all() as Array<{ id: string; secret: string }>).map((r) => ({
        id: r.id,
        sealedSecret: r.secret,
      })),
    );
  }

  replaceSealedSecret(id: string, expected: string, next: string) {
    return this.tx.write(() => this.s.replaceSealedSecret.run(next, id, expected).changes === 1, false);
  }
}

function statements(db: Database) {
  const p = (sql: string): Statement => db.prepare(sql);
  return {
    insertEndpoint: p(
      `INSERT INTO webhook_endpoints (id, account_id, url, events, enabled, secret, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    listEndpoints: p('SELECT * FROM webhook_endpoints WHERE deleted_at IS NULL ORDER BY created_at, id'),
    listEndpointsOf: p(
      'SELECT * FROM webhook_endpoints WHERE deleted_at IS NULL AND account_id = ? ORDER BY created_at, id',
    ),
    enabledEndpoints: p('SELECT * FROM webhook_endpoints WHERE deleted_at IS NULL AND enabled = 1'),
    anyEnabled: p('SELECT 1 FROM webhook_endpoints WHERE deleted_at IS NULL AND enabled = 1 LIMIT 1').pluck(),
    getEndpoint: p('SELECT * FROM webhook_endpoints WHERE id = ? AND deleted_at IS NULL'),
    sealedSecrets: p('SELECT id, secret FROM webhook_endpoints WHERE deleted_at IS NULL ORDER BY id'),
    replaceSealedSecret: p('UPDATE webhook_endpoints SET secret = ? WHERE id = ? AND secret = ?'),
    updateEndpoint: p(
      `UPDATE webhook_endpoints SET url = coalesce(@url, url), events = coalesce(@events, events),
         enabled = coalesce(@enabled, enabled),
         failing_since = CASE WHEN @enabled = 1 THEN NULL ELSE failing_since END,
         disabled_reason = CASE WHEN @enabled = 1 THEN NULL ELSE disabled_reason END,
         consecutive_timeouts = CASE WHEN @enabled = 1 OR @url IS NOT NULL THEN 0 ELSE consecutive_timeouts END
       WHERE id = @id AND deleted_at IS NULL`,
    ),
    deleteEndpoint: p(
      'UPDATE webhook_endpoints SET deleted_at = ?, enabled = 0 WHERE id = ? AND deleted_at IS NULL',
    ),
    abandon: p(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = ?, next_attempt_at = NULL
       WHERE endpoint_id = ? AND status = 'pending'`,
    ),
    listDeliveries: p(
      'SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, id DESC LIMIT ?',
    ),
    replay: p(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, lease_until = NULL
       WHERE id = ? AND endpoint_id = ? RETURNING *`,
    ),
    insertDelivery: p(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, payload, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
    ),
    // Each enabled endpoint, its lane, its live leases (attempts in flight on any process) and
    // whether it has a due delivery no one holds. `consecutive_timeouts` counts slow attempts in a
    // row, timed out or answered late (the column keeps its first name).
    claimable: p(
      `SELECT e.id, e.consecutive_timeouts >= @slowAfter AS slow,
         (SELECT count(*) FROM webhook_deliveries l
          WHERE l.endpoint_id = e.id AND l.status = 'pending' AND l.lease_until > @now) AS busy,
         EXISTS (SELECT 1 FROM webhook_deliveries d
          WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= @now
            AND (d.lease_until IS NULL OR d.lease_until <= @now)) AS due
       FROM webhook_endpoints e WHERE e.enabled = 1`,
    ),
    dueOf: p(
      `SELECT id, next_attempt_at AS next FROM webhook_deliveries
       WHERE endpoint_id = ? AND status = 'pending' AND next_attempt_at <= ?
         AND (lease_until IS NULL OR lease_until <= ?)
       ORDER BY next_attempt_at, id LIMIT ?`,
    ),
    lease: p('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?'),
    readClaimed: p(
      `SELECT d.*, e.url, e.secret FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.id IN (SELECT value FROM json_each(?)) ORDER BY d.next_attempt_at`,
    ),
    succeeded: p(
      `UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, response_status = ?,
         last_error = NULL, lease_until = NULL, next_attempt_at = NULL, last_attempt_at = ?
       WHERE id = ?`,
    ),
    failed: p(
      `UPDATE webhook_deliveries SET status = CASE WHEN @next IS NULL THEN 'failed' ELSE 'pending' END,
         attempts = attempts + 1, response_status = @responseStatus, last_error = @error,
         lease_until = NULL, next_attempt_at = @next, last_attempt_at = @now
       WHERE id = @id`,
    ),
    // A success ends the failing streak; a late one counts as slow, a prompt one clears the count.
    endpointAnswered: p(
      `UPDATE webhook_endpoints SET failing_since = NULL,
         consecutive_timeouts = CASE WHEN @slow = 1 THEN consecutive_timeouts + 1 ELSE 0 END
       WHERE id = @id`,
    ),
    endpointFailing: p(
      `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, @now),
         consecutive_timeouts = consecutive_timeouts + @slow
       WHERE id = @id`,
    ),
    disableIfFailing: p(
      `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?
       WHERE id = ? AND enabled = 1 AND failing_since IS NOT NULL AND failing_since <= ?`,
    ),
    countSlow: p(
      'SELECT count(*) AS n FROM webhook_endpoints WHERE enabled = 1 AND consecutive_timeouts >= ?',
    ),
    sweep: p(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE created_at < ? AND status <> 'pending' LIMIT ?)`,
    ),
  };
}
