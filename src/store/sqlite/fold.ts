import type { Database, Statement } from 'better-sqlite3';
import { timeOrderedUuid } from '../../domain/ids.js';
import type { WebhookEvent } from '../../webhooks/events.js';
import { foldSql, HOURLY_SUMS_COLUMNS, HOURLY_TTV_COLUMNS, rowToWebhookEvent } from '../fold.js';
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
    steps: Array<{ statement: Statement; ofBatch: boolean }>;
    events: Statement;
    done: Statement;
  };

  constructor(
    db: Database,
    private readonly webhooks: SqliteWebhookStore,
  ) {
    // The batch's hourly counts, grouped once and read by the hourly and the daily upsert: a
    // connection's own tables, emptied before each batch (foldSql).
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS fold_sums (${HOURLY_SUMS_COLUMNS});
      CREATE TEMP TABLE IF NOT EXISTS fold_ttv (${HOURLY_TTV_COLUMNS})`);
    const sql = foldSql('sqlite', '(SELECT * FROM changes WHERE seq <= @to) c', {
      sums: 'temp.fold_sums',
      ttv: 'temp.fold_ttv',
    });
    const [hourly, daily, ttv, ttvDaily, contacts] = sql.upserts as [string, string, string, string, string];
    this.s = {
      any: db.prepare('SELECT 1 FROM changes LIMIT 1').pluck(),
      upto: db.prepare('SELECT max(seq) FROM (SELECT seq FROM changes ORDER BY seq LIMIT ?)').pluck(),
      // In order; `ofBatch`: the statement reads the batch's range.
      steps: [
        'DELETE FROM temp.fold_sums',
        `INSERT INTO temp.fold_sums ${sql.sumsByHour}`,
        hourly,
        daily,
        'DELETE FROM temp.fold_ttv',
        `INSERT INTO temp.fold_ttv ${sql.ttvByHour}`,
        ttv,
        ttvDaily,
        contacts,
      ].map((text) => ({ statement: db.prepare(text), ofBatch: text.includes('@to') })),
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
    for (const { statement, ofBatch } of this.s.steps) {
      if (ofBatch) statement.run(range);
      else statement.run();
    }
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
