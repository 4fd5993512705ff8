/**
 * A process serving on the database, as it registered itself: each says every few seconds that
 * it is alive, so every instance knows which others write on its database (src/store/instances).
 */
export interface InstanceRecord {
  /** Made at random when the process starts. */
  id: string;
  host: string;
  pid: number;
  version: string;
  /** Whether it runs with REDIS_URL: its rate limits are shared with the instances on that Redis. */
  redis: boolean;
  startedAt: number;
  /** When it last said it was alive. */
  seenAt: number;
}

/** The instances registered on one database. */
export interface Instances {
  /** Registers the instance, or records that it is still alive (its seenAt). */
  heartbeat(instance: InstanceRecord): Promise<void>;
  /** The instances seen at or after `since`, in the order they started. */
  seenSince(since: number): Promise<InstanceRecord[]>;
  /** Removes an instance's registration (when it stops). */
  leave(id: string): Promise<void>;
  /** Deletes up to `batchSize` registrations not seen since `before`; returns how many. */
  sweep(before: number, batchSize: number): Promise<number>;
}

/** What GET /health says of the instances on the database (no host, no pid: it needs no key). */
export interface InstancesReport {
  /** The instances alive on the database, this one included. */
  live: number;
  /** Of those, how many run without REDIS_URL. */
  withoutRedis: number;
}

/**
 * Several instances share the database and one of them runs without REDIS_URL: their rate limits
 * are counted apart (a warning at start, `degraded` in GET /health).
 */
export const sharedWithoutRedis = (report: InstancesReport): boolean =>
  report.live > 1 && report.withoutRedis > 0;
