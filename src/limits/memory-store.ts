import { RateLimiterRes } from 'rate-limiter-flexible';
import type { CounterSpec, LimitDecision, RateLimitStore } from './interface.js';

/**
 * A counter: the end of its window (epoch ms) when one point is used, which is what most
 * per-destination counters ever hold, else both numbers. A bare number costs no object.
 */
type Counter = number | { used: number; endsAt: number };

/**
 * In-process fixed-window counters: exact for one process. A window starts at a key's first
 * point, as in rate-limiter-flexible. Counters live in one Map per counter family (name, limit,
 * window), keyed by flat strings; ended windows are dropped when next touched or by a sweep once a
 * minute. Measured per distinct destination: rate-limiter-flexible's memory limiter (a record and
 * a timer per key) about 1 KB of heap; one Map with objects and concatenated keys 374 bytes; this
 * layout about 120.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory' as const;
  private readonly families = new Map<string, Map<string, Counter>>();
  private readonly sweeper = setInterval(() => this.sweep(Date.now()), 60_000);
  // Written by read(): the state of the counter it found, so that no object is made per call.
  private used = 0;
  private endsAt = 0;

  constructor() {
    this.sweeper.unref();
  }

  private family(spec: CounterSpec): Map<string, Counter> {
    const id = `${spec.name}:${spec.limit}:${spec.windowSeconds}`;
    let family = this.families.get(id);
    if (!family) {
      family = new Map();
      this.families.set(id, family);
    }
    return family;
  }

  /** Loads the live counter of `key` into used/endsAt; false (and drops it) once its window ended. */
  private read(family: Map<string, Counter>, key: string, now: number): boolean {
    const counter = family.get(key);
    if (counter === undefined) return false;
    if (typeof counter === 'number') {
      this.used = 1;
      this.endsAt = counter;
    } else {
      this.used = counter.used;
      this.endsAt = counter.endsAt;
    }
    if (this.endsAt > now) return true;
    family.delete(key);
    return false;
  }

  private write(family: Map<string, Counter>, key: string, used: number, endsAt: number): void {
    const counter = family.get(key);
    if (typeof counter === 'object') {
      counter.used = used;
      counter.endsAt = endsAt;
    } else {
      family.set(key, used === 1 ? endsAt : { used, endsAt });
    }
  }

  async consume(spec: CounterSpec, key: string, points = 1): Promise<LimitDecision> {
    const now = Date.now();
    const family = this.family(spec);
    const id = flat(key);
    const live = this.read(family, id, now);
    const used = live ? this.used : 0;
    const endsAt = live ? this.endsAt : now + spec.windowSeconds * 1000;
    if (used + points > spec.limit) {
      return {
        allowed: false,
        remaining: 0,
        retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now) / 1000)),
      };
    }
    this.write(family, id, used + points, endsAt);
    return { allowed: true, remaining: spec.limit - used - points, retryAfterSeconds: 0 };
  }

  async refund(spec: CounterSpec, key: string, points = 1): Promise<void> {
    // A refund into an ended window gives nothing, never a negative count.
    const family = this.family(spec);
    const id = flat(key);
    if (this.read(family, id, Date.now())) {
      this.write(family, id, this.used - Math.min(points, this.used), this.endsAt);
    }
  }

  async penalize(spec: CounterSpec, key: string, points = 1): Promise<void> {
    const now = Date.now();
    const family = this.family(spec);
    const id = flat(key);
    if (this.read(family, id, now)) this.write(family, id, this.used + points, this.endsAt);
    else this.write(family, id, points, now + spec.windowSeconds * 1000);
  }

  async peek(spec: CounterSpec, key: string): Promise<LimitDecision> {
    const now = Date.now();
    const live = this.read(this.family(spec), flat(key), now);
    const used = live ? this.used : 0;
    const allowed = used < spec.limit;
    return {
      allowed,
      remaining: Math.max(0, spec.limit - used),
      retryAfterSeconds: allowed || !live ? 0 : Math.max(1, Math.ceil((this.endsAt - now) / 1000)),
    };
  }

  private sweep(now: number): void {
    for (const family of this.families.values()) {
      for (const [key, counter] of family) {
        if ((typeof counter === 'number' ? counter : counter.endsAt) <= now) family.delete(key);
      }
    }
  }

  async check(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.families.clear();
  }
}

/**
 * Reading a character makes V8 flatten a concatenated string, so the Map keeps one flat string
 * per key rather than a tree of the pieces it was built from.
 */
function flat(key: string): string {
  key.charCodeAt(0);
  return key;
}

interface ConsumingLimiter {
  consume(key: string, points: number): Promise<RateLimiterRes>;
  reward(key: string, points: number): Promise<RateLimiterRes>;
  get(key: string): Promise<RateLimiterRes | null>;
}

/**
 * rate-limiter-flexible counts a refused consume too; it is given back at once so that a refusal
 * costs nothing and a client hammering a limit does not extend its own wait.
 */
export async function consumeWith(
  limiter: ConsumingLimiter,
  key: string,
  points: number,
): Promise<LimitDecision> {
  try {
    const res = await limiter.consume(key, points);
    return { allowed: true, remaining: res.remainingPoints, retryAfterSeconds: 0 };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    await limiter.reward(key, points);
    return {
      allowed: false,
      remaining: 0,
      retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
    };
  }
}

export async function peekWith(
  limiter: ConsumingLimiter,
  spec: CounterSpec,
  key: string,
): Promise<LimitDecision> {
  const res = await limiter.get(key);
  const used = res?.consumedPoints ?? 0;
  const allowed = used < spec.limit;
  return {
    allowed,
    remaining: Math.max(0, spec.limit - used),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((res?.msBeforeNext ?? 0) / 1000)),
  };
}
