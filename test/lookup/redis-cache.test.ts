import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { RedisLookupCache } from '../../src/lookup/redis-cache.js';
import { hasRedis, REDIS_URL } from '../support/services.js';

// The claims of the lookups' cache in Redis (the database's are in test/store/conformance.ts).

describe.runIf(hasRedis)('RedisLookupCache claims', () => {
  const prefix = `cvtest-claims-${randomBytes(4).toString('hex')}`;
  const T0 = Date.UTC(2026, 0, 15, 12);
  let redis: Redis;
  let cache: RedisLookupCache;
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
    cache = new RedisLookupCache(redis, prefix, new ManualClock(T0));
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('holds a claim for one caller at a time, for its time, until given up', async () => {
    expect(await cache.claim('k:l', T0, T0 + 1500)).toBe(true);
    expect(await cache.claim('k:l', T0 + 100, T0 + 1600)).toBe(false);
    expect(await cache.claim('k:ls', T0, T0 + 1500)).toBe(true);
    const ttl = await redis.pttl(`${prefix}:lookup:claim:k:l`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1500);
    await cache.release('k:l');
    expect(await cache.claim('k:l', T0 + 200, T0 + 1700)).toBe(true);
    const held = await Promise.all(Array.from({ length: 10 }, () => cache.claim('race', T0, T0 + 1000)));
    expect(held.filter(Boolean)).toHaveLength(1);
  });

  it('a claim lapses by itself', async () => {
    expect(await cache.claim('short', T0, T0 + 50)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await cache.claim('short', T0, T0 + 50)).toBe(true);
  });
});
