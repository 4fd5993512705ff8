import type pg from 'pg';
import type { SilentFallback, SilentFallbacks } from '../../domain/ports/silent-fallbacks.js';
import type { FallbackReason } from '../../domain/silent.js';
import { postgresMode } from '../mode.js';
import { queryOn } from '../postgres/transaction.js';
import { FALLBACK_SQL, type FallbackRow, numbered, rowToFallback, rowToRecord } from './rows.js';

const SQL = {
  insert: numbered(FALLBACK_SQL.insert),
  // SKIP LOCKED: instances claiming at once take different rows instead of waiting on each other.
  claimDue: `UPDATE silent_fallbacks SET lease_until = $1 WHERE request_id IN (
               SELECT request_id FROM silent_fallbacks
               WHERE state = 'scheduled' AND due_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
               ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
             RETURNING *`,
  claim: `UPDATE silent_fallbacks SET lease_until = $1
          WHERE request_id = $2 AND state = 'scheduled' AND (lease_until IS NULL OR lease_until <= $3)
          RETURNING *`,
  // One statement: the row moves and its change is appended, or neither.
  fired: `WITH moved AS (
            UPDATE silent_fallbacks SET state = 'fired', reason = $1, sibling_id = $2, finished_at = $3,
              lease_until = NULL, address = NULL, destination = NULL, purpose = NULL, custom_message = NULL
            WHERE request_id = $4 AND state = 'scheduled' RETURNING request_id)
          INSERT INTO changes (kind, request_id, at, provider) SELECT 'fallback', request_id, $3, NULL FROM moved`,
  dropped: numbered(FALLBACK_SQL.finishDropped),
  get: numbered(FALLBACK_SQL.get),
  sweep: `DELETE FROM silent_fallbacks WHERE request_id IN (
            SELECT request_id FROM silent_fallbacks WHERE state <> 'scheduled' AND finished_at < $1
            LIMIT $2 FOR UPDATE SKIP LOCKED)`,
};

/** The fallbacks of SILENT requests on PostgreSQL: one statement per call. */
export class PostgresSilentFallbacks implements SilentFallbacks {
  constructor(private readonly pool: pg.Pool) {}

  private query(text: string, params: unknown[]) {
    return queryOn(this.pool, text, params);
  }

  async schedule(f: SilentFallback) {
    await this.query(SQL.insert, [
      f.requestId,
      f.accountId,
      postgresMode(f.mode),
      f.channel,
      f.dueAt,
      f.address,
      f.destination,
      f.country,
      f.purpose,
      f.customMessage,
      f.locale,
    ]);
  }

  async claimDue(now: number, limit: number, leaseMs: number) {
    const rows = (await this.query(SQL.claimDue, [now + leaseMs, now, limit])).rows as FallbackRow[];
    return rows.map(rowToFallback);
  }

  async claim(requestId: string, now: number, leaseMs: number) {
    const row = (await this.query(SQL.claim, [now + leaseMs, requestId, now])).rows[0] as
      | FallbackRow
      | undefined;
    return row ? rowToFallback(row) : null;
  }

  async finish(
    requestId: string,
    outcome: { state: 'fired'; reason: FallbackReason; siblingId: string } | { state: 'dropped' },
    now: number,
  ) {
    if (outcome.state === 'dropped') await this.query(SQL.dropped, [now, requestId]);
    else await this.query(SQL.fired, [outcome.reason, outcome.siblingId, now, requestId]);
  }

  async get(requestId: string) {
    const row = (await this.query(SQL.get, [requestId])).rows[0] as FallbackRow | undefined;
    return row ? rowToRecord(row) : null;
  }

  async sweep(before: number, batchSize: number) {
    return (await this.query(SQL.sweep, [before, batchSize])).rowCount ?? 0;
  }
}
