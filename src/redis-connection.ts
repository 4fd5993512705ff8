import { Redis } from 'ioredis';

/**
 * A connection to the service's Redis as the rate-limit store opens it: commands fail fast
 * while Redis is away (no queue behind a dead connection) or after `commandTimeoutMs` when it
 * hangs; ioredis reconnects by itself (backoff up to 2 s). Not connected until `connect()`.
 */
export function redisConnection(url: string, commandTimeoutMs: number): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: commandTimeoutMs,
    keepAlive: 10_000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: true,
  });
  redis.on('error', () => {
    // Each user reports a failed command its own way; unhandled, this event would end the process.
  });
  return redis;
}
