import type { Statement } from 'better-sqlite3';
import type { CounterPersistence, SavedCounter } from '../../limits/interface.js';
import type { GroupCommit } from './group-commit.js';

/** The rate-limit counters' table (migration 012), written through the store's group commit. */
export class SqliteCounterPersistence implements CounterPersistence {
  private readonly upsert: Statement;
  private readonly live: Statement;
  private readonly purgeEnded: Statement;

  constructor(private readonly tx: GroupCommit) {
    const db = tx.db;
    this.upsert = db.prepare(
      `INSERT INTO rate_limit_counters (family, key, used, ends_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (family, key) DO UPDATE SET used = excluded.used, ends_at = excluded.ends_at`,
    );
    this.live = db.prepare('SELECT family, key, used, ends_at FROM rate_limit_counters WHERE ends_at > ?');
    this.purgeEnded = db.prepare('DELETE FROM rate_limit_counters WHERE ends_at <= ?');
  }

  load(now: number): SavedCounter[] {
    return (
      this.tx.waitingIfBusy(() => this.live.all(now)) as Array<{
        family: string;
        key: string;
        used: number;
        ends_at: number;
      }>
    ).map((r) => ({ family: r.family, key: r.key, used: r.used, endsAt: r.ends_at }));
  }

  save(c: SavedCounter): Promise<void> {
    // One statement in the batch of the request that changed the counter: no savepoint needed.
    return this.tx.write(() => void this.upsert.run(c.family, c.key, c.used, c.endsAt), false);
  }

  purge(now: number): Promise<void> {
    return this.tx.write(() => void this.purgeEnded.run(now), false);
  }
}
