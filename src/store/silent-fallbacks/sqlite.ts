import type { Database } from 'better-sqlite3';
import type { SilentFallback, SilentFallbacks } from '../../domain/ports/silent-fallbacks.js';
import type { FallbackReason } from '../../domain/silent.js';
import { APPEND_CHANGE_SQL } from '../changes.js';
import { sqliteMode } from '../mode.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import { FALLBACK_SQL, type FallbackRow, rowToFallback, rowToRecord } from './rows.js';

/** The fallbacks of SILENT requests on the SQLite store's connection, each write one unit of its group commit. */
export class SqliteSilentFallbacks implements SilentFallbacks {
  private readonly stmts;

  constructor(
    db: Database,
    private readonly tx: GroupCommit,
  ) {
    this.stmts = {
      insert: db.prepare(FALLBACK_SQL.insert),
      claimDue: db.prepare(
        `UPDATE silent_fallbacks SET lease_until = ? WHERE request_id IN (
           SELECT request_id FROM silent_fallbacks
           WHERE state = 'scheduled' AND due_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
           ORDER BY due_at LIMIT ?)
         RETURNING *`,
      ),
      claim: db.prepare(
        `UPDATE silent_fallbacks SET lease_until = ?
         WHERE request_id = ? AND state = 'scheduled' AND (lease_until IS NULL OR lease_until <= ?)
         RETURNING *`,
      ),
      fired: db.prepare(FALLBACK_SQL.finishFired),
      dropped: db.prepare(FALLBACK_SQL.finishDropped),
      change: db.prepare(APPEND_CHANGE_SQL),
      get: db.prepare(FALLBACK_SQL.get),
      sweep: db.prepare(
        `DELETE FROM silent_fallbacks WHERE request_id IN (
           SELECT request_id FROM silent_fallbacks WHERE state <> 'scheduled' AND finished_at < ? LIMIT ?)`,
      ),
    };
  }

  async schedule(f: SilentFallback) {
    await this.tx.write(
      () =>
        this.stmts.insert.run(
          f.requestId,
          f.accountId,
          sqliteMode(f.mode),
          f.channel,
          f.dueAt,
          f.address,
          f.destination,
          f.country,
          f.purpose,
          f.customMessage,
          f.locale,
        ),
      false,
    );
  }

  claimDue(now: number, limit: number, leaseMs: number) {
    return this.tx.write(
      () => (this.stmts.claimDue.all(now + leaseMs, now, now, limit) as FallbackRow[]).map(rowToFallback),
      false,
    );
  }

  claim(requestId: string, now: number, leaseMs: number) {
    return this.tx.write(() => {
      const row = this.stmts.claim.get(now + leaseMs, requestId, now) as FallbackRow | undefined;
      return row ? rowToFallback(row) : null;
    }, false);
  }

  async finish(
    requestId: string,
    outcome: { state: 'fired'; reason: FallbackReason; siblingId: string } | { state: 'dropped' },
    now: number,
  ) {
    await this.tx.write(() => {
      if (outcome.state === 'dropped') return void this.stmts.dropped.run(now, requestId);
      const moved = this.stmts.fired.run(outcome.reason, outcome.siblingId, now, requestId).changes;
      // The change the fold turns into verification.fallback (and counts), once.
      if (moved > 0) this.stmts.change.run('fallback', requestId, now, null);
    });
  }

  get(requestId: string) {
    return this.tx.read(() => {
      const row = this.stmts.get.get(requestId) as FallbackRow | undefined;
      return row ? rowToRecord(row) : null;
    });
  }

  sweep(before: number, batchSize: number) {
    return this.tx.write(() => this.stmts.sweep.run(before, batchSize).changes, false);
  }
}
