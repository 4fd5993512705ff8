import type { Redis } from 'ioredis';
import type { Clock } from '../domain/clock.js';
import {
  type CachedLookup,
  cachedLineOf,
  cachedSimOf,
  type LookupCacheStore,
  type LookupCacheWrite,
} from '../domain/ports/number-lookup.js';

const parsed = (text: string | null | undefined): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/**
 * The lookups' cache in the deployment's Redis (REDIS_URL), shared by every instance: each part of
 * a number is a string of its own, `<prefix>:lookup:line:<key>` and `<prefix>:lookup:sim:<key>`,
 * that expires when the part stops being fresh; one MGET reads both. A claim
 * (`<prefix>:lookup:claim:<key>:<parts>`) is a key set only if absent, expiring with its holder's budget.
 */
export class RedisLookupCache implements LookupCacheStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {}

  private keys(key: string) {
    return [`${this.prefix}:lookup:line:${key}`, `${this.prefix}:lookup:sim:${key}`] as const;
  }

  async get(key: string, _now: number): Promise<CachedLookup> {
    const [line, sim] = await this.redis.mget(...this.keys(key));
    return { line: cachedLineOf(parsed(line)), sim: cachedSimOf(parsed(sim)) };
  }

  async put(key: string, write: LookupCacheWrite): Promise<void> {
    const [lineKey, simKey] = this.keys(key);
    const now = this.clock.now();
    const batch = this.redis.multi();
    let parts = 0;
    for (const [k, part] of [
      [lineKey, write.line],
      [simKey, write.sim],
    ] as const) {
      if (!part || part.expiresAt <= now) continue;
      batch.set(k, JSON.stringify(part.facts), 'PX', part.expiresAt - now);
      parts += 1;
    }
    if (parts > 0) await batch.exec();
  }

  async sweep(): Promise<number> {
    return 0;
  }

  private claimKey(claim: string) {
    return `${this.prefix}:lookup:claim:${claim}`;
  }

  /** Set only if absent, expiring at `until`. */
  async claim(claim: string, now: number, until: number): Promise<boolean> {
    const ms = Math.max(1, until - now);
    return (await this.redis.set(this.claimKey(claim), '1', 'PX', ms, 'NX')) === 'OK';
  }

  async release(claim: string): Promise<void> {
    await this.redis.del(this.claimKey(claim));
  }
}
