import type { Database, Statement } from 'better-sqlite3';
import { foldSql } from '../fold.js';

/**
 * The batch fold of the journal into the analytics buckets on SQLite (migration 060). One writer
 * and rows committed in seq order make a cursor on seq safe: the fold adds the rows past it and
 * moves it, rewriting no journal row. Every method runs inside the caller's write unit.
 */
export class SqliteFold {
  private readonly s: {
    cursor: Statement;
    last: Statement;
    upto: Statement;
    move: Statement;
    markUnplaced: Statement;
    upserts: Statement[];
  };

  constructor(db: Database) {
    const sql = foldSql('sqlite', 'e.seq > @from AND e.seq <= @to');
    this.s = {
      cursor: db.prepare('SELECT last_seq FROM analytics_fold WHERE id = 1').pluck(),
      last: db.prepare('SELECT max(seq) FROM events').pluck(),
      upto: db
        .prepare('SELECT max(seq) FROM (SELECT seq FROM events WHERE seq > ? ORDER BY seq LIMIT ?)')
        .pluck(),
      move: db.prepare('UPDATE analytics_fold SET last_seq = ? WHERE id = 1'),
      markUnplaced: db.prepare(sql.markUnplaced),
      upserts: sql.upserts.map((text) => db.prepare(text)),
    };
  }

  /** Whether journal rows wait to be folded (a read: no write lock needed to ask). */
  pending(): boolean {
    return Number(this.s.last.get() ?? 0) > Number(this.s.cursor.get());
  }

  /** Folds up to `limit` rows past the cursor; returns how many seq values it covered. */
  run(limit: number): number {
    const from = Number(this.s.cursor.get());
    const to = this.s.upto.get(from, limit) as number | null;
    if (to === null) return 0;
    const range = { from, to };
    this.s.markUnplaced.run(range);
    for (const upsert of this.s.upserts) upsert.run(range);
    this.s.move.run(to);
    return to - from;
  }

  /** Folds every row committed so far. */
  all(batchSize = 10_000): void {
    while (this.run(batchSize) >= batchSize) {
      // a full batch: more may wait
    }
  }
}
