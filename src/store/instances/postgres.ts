import type pg from 'pg';
import type { InstanceRecord, Instances } from '../../domain/ports/instances.js';
import { queryOn } from '../postgres/transaction.js';
import { type InstanceRow, rowToInstance } from './rows.js';

const SQL = {
  heartbeat: `INSERT INTO instances (id, host, pid, version, redis, started_at, seen_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`,
  seenSince: 'SELECT * FROM instances WHERE seen_at >= $1 ORDER BY started_at, id',
  leave: 'DELETE FROM instances WHERE id = $1',
  sweep: `DELETE FROM instances WHERE id IN (
            SELECT id FROM instances WHERE seen_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
};

/** The instance registry on PostgreSQL: one statement per call. */
export class PostgresInstances implements Instances {
  constructor(private readonly pool: pg.Pool) {}

  async heartbeat(i: InstanceRecord) {
    await queryOn(this.pool, SQL.heartbeat, [i.id, i.host, i.pid, i.version, i.redis, i.startedAt, i.seenAt]);
  }

  async seenSince(since: number) {
    return ((await queryOn(this.pool, SQL.seenSince, [since])).rows as InstanceRow[]).map(rowToInstance);
  }

  async leave(id: string) {
    await queryOn(this.pool, SQL.leave, [id]);
  }

  async sweep(before: number, batchSize: number) {
    return (await queryOn(this.pool, SQL.sweep, [before, batchSize])).rowCount ?? 0;
  }
}
