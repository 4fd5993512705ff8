import type { Database, Statement } from 'better-sqlite3';
import { timeOrderedUuid } from '../../domain/ids.js';
import type { WebhookEvent } from '../../webhooks/events.js';
import { foldSql, rowToWebhookEvent } from '../fold.js';
import type { SqliteWebhookStore } from '../webhooks/sqlite.js';

/**
 * The fold of the change log on SQLite. One writer commits changes in seq order, so a batch is
 * the first rows of the table: the fold adds them up (src/store/fold.ts), hands their events to
 * the webhook queue when an endpoint is enabled, and deletes them. Every method runs inside the
 * caller's write unit.
 */
export class SqliteFold {
  private readonly s: {
    any: Statement;
    upto: Statement;
    upserts: Statement[];
    events: Statement;
    done: Statement;
  };

  constructor(
    db: Database,
    private readonly webhooks: SqliteWebhookStore,
  ) {
    const sql = foldSql('sqlite', '(SELECT * FROM changes WHERE seq <= @to) c');
    this.s = {
      any: db.prepare('SELECT 1 FROM changes LIMIT 1').pluck(),
      upto: db.prepare('SELECT max(seq) FROM (SELECT seq FROM changes ORDER BY seq LIMIT ?)').pluck(),
      upserts: sql.upserts.map((text) => db.prepare(text)),
      events: db.prepare(sql.events),
      done: db.prepare('DELETE FROM changes WHERE seq <= ?'),
    };
  }

  /** Whether changes wait to be folded (a read: no write lock needed to ask). */
  pending(): boolean {
    return this.s.any.get() !== undefined;
  }

  /** Folds up to `limit` changes; returns how many it folded. */
  run(limit: number, now: number): number {
    const to = this.s.upto.get(limit) as number | null;
    if (to === null) return 0;
    const range = { to };
    for (const upsert of this.s.upserts) upsert.run(range);
    if (this.webhooks.anyEndpointEnabled()) {
      const events: WebhookEvent[] = [];
      for (const row of this.s.events.all(range) as Array<Record<string, unknown>>) {
        const event = rowToWebhookEvent(row, timeOrderedUuid(Number(row.at)));
        if (event) events.push(event);
      }
      this.webhooks.enqueue(events, now);
    }
    return this.s.done.run(to).changes;
  }

  /** Folds every change committed so far. */
  all(now: number, batchSize = 10_000): void {
    while (this.run(batchSize, now) >= batchSize) {
      // a full batch: more may wait
    }
  }
}
