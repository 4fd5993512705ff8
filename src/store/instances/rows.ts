import type { InstanceRecord } from '../../domain/ports/instances.js';

export interface InstanceRow {
  id: string;
  host: string;
  pid: number | string;
  version: string;
  redis: boolean | number;
  started_at: number | string;
  seen_at: number | string;
}

// PostgreSQL returns BIGINT as a string, SQLite a boolean as 0 or 1.
export const rowToInstance = (r: InstanceRow): InstanceRecord => ({
  id: r.id,
  host: r.host,
  pid: Number(r.pid),
  version: r.version,
  redis: Boolean(r.redis),
  startedAt: Number(r.started_at),
  seenAt: Number(r.seen_at),
});
