import type { Database } from 'better-sqlite3';
import type { InstanceRecord, Instances } from '../../domain/ports/instances.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import { type InstanceRow, rowToInstance } from './rows.js';

/** The instance registry on the SQLite store's connection: each write is one unit of its group commit. */
export class SqliteInstances implements Instances {
  private readonly stmts;

  constructor(
    db: Database,
    private readonly tx: GroupCommit,
  ) {
    this.stmts = {
      heartbeat: db.prepare(
        `INSERT INTO instances (id, host, pid, version, redis, started_at, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`,
      ),
      seenSince: db.prepare('SELECT * FROM instances WHERE seen_at >= ? ORDER BY started_at, id'),
      leave: db.prepare('DELETE FROM instances WHERE id = ?'),
      sweep: db.prepare(
        'DELETE FROM instances WHERE id IN (SELECT id FROM instances WHERE seen_at < ? LIMIT ?)',
      ),
    };
  }

  async heartbeat(i: InstanceRecord) {
    await this.tx.write(
      () => this.stmts.heartbeat.run(i.id, i.host, i.pid, i.version, i.redis ? 1 : 0, i.startedAt, i.seenAt),
      false,
    );
  }

  seenSince(since: number) {
    return this.tx.read(() => (this.stmts.seenSince.all(since) as InstanceRow[]).map(rowToInstance));
  }

  async leave(id: string) {
    await this.tx.write(() => this.stmts.leave.run(id), false);
  }

  sweep(before: number, batchSize: number) {
    return this.tx.write(() => this.stmts.sweep.run(before, batchSize).changes, false);
  }
}
