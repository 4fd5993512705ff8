import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import {
  type CounterSpec,
  type LimitDecision,
  LimitStoreUnavailable,
  type RateLimitStore,
} from '../domain/ports/rate-limits.js';
import { redisConnection } from '../redis-connection.js';
import { consumeWith, peekWith } from './memory-store.js';

/**
 * rate-limiter-flexible's own increment script, with one change: a refund (negative points) never
 * takes a counter below zero and never opens a window. Without it, a refund that lands just after
 * its window ended would create a counter at -1 and grant an extra send in the next window.
 */
const INCR_TTL_SCRIPT = `
local points = tonumber(ARGV[1])
if points < 0 then
  local current = tonumber(redis.call('get', KEYS[1]))
  if current == nil then return {0, 0} end
  if current + points < 0 then points = -current end
end
redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[1], points)
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}
`;

/** Options for tests and operators; production uses the defaults. */
export interface RedisStoreOptions {
  /** Namespaces every key (tests use one of their own). */
  prefix?: string;
  /** A command that gets no answer within this time fails (a hung Redis answers 503, not never). */
  commandTimeoutMs?: number;
}

/**
 * Counters shared by every instance, in Redis. Each counter changes in one atomic Lua script, so
 * concurrent requests on many instances count exactly. When Redis cannot be reached every
 * operation fails with LimitStoreUnavailable: sends AND verifies fail closed (503 with
 * Retry-After) rather than run without limits, since the verify limits are what stops guessing.
 * ioredis reconnects by itself; the first command after it is back succeeds.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis' as const;
  private readonly limiters = new Map<string, RateLimiterRedis>();

  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Connects, but starts even when Redis is away: /health shows it down until it is back. */
  static async connect(url: string, options: RedisStoreOptions = {}): Promise<RedisRateLimitStore> {
    // Failures are reported through check() and LimitStoreUnavailable.
    const redis = redisConnection(url, options.commandTimeoutMs ?? 1000);
    try {
      await redis.connect();
    } catch {
      // Start anyway: requests answer 503 until the reconnect loop reaches Redis.
    }
    return new RedisRateLimitStore(redis, options.prefix ?? 'cv');
  }

  private limiter(spec: CounterSpec): RateLimiterRedis {
    const id = `${spec.name}:${spec.limit}:${spec.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.prefix}:${id}`,
        points: spec.limit,
        duration: spec.windowSeconds,
        rejectIfRedisNotReady: true,
        customIncrTtlLuaScript: INCR_TTL_SCRIPT,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw new LimitStoreUnavailable(
        `rate-limit store unavailable: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  consume(spec: CounterSpec, key: string, points = 1): Promise<LimitDecision> {
    return this.guard(() => consumeWith(this.limiter(spec), key, points));
  }

  async refund(spec: CounterSpec, key: string, points = 1): Promise<void> {
    await this.guard(() => this.limiter(spec).reward(key, points));
  }

  async penalize(spec: CounterSpec, key: string, points = 1): Promise<void> {
    await this.guard(() => this.limiter(spec).penalty(key, points));
  }

  peek(spec: CounterSpec, key: string): Promise<LimitDecision> {
    return this.guard(() => peekWith(this.limiter(spec), spec, key));
  }

  count(spec: CounterSpec, key: string): Promise<number> {
    return this.guard(async () => (await this.limiter(spec).get(key))?.consumedPoints ?? 0);
  }

  async check(): Promise<boolean> {
    if (this.redis.status !== 'ready') return false;
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  /** Deletes every key under this store's prefix (tests clean up with it). */
  async clear(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}
