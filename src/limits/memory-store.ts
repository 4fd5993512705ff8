import { RateLimiterRes } from 'rate-limiter-flexible';
import { type Clock, systemClock } from '../domain/clock.js';
import type { CounterSpec, LimitDecision, RateLimitStore } from '../domain/ports/rate-limits.js';
import { InProcessCounters } from './counter-plan.js';
import { CounterTable } from './counter-table.js';

/**
 * In-process fixed-window counters: exact for one process. A window starts at a key's first
 * point, as in rate-limiter-flexible. Each counter family (name, limit, window) is one
 * CounterTable; ended windows are reused when their key comes back, and dropped by a sweep once
 * a minute. Measured per distinct destination: rate-limiter-flexible's memory limiter (a record
 * and a timer per key) about 1 KB of heap; a Map of strings to numbers about 120 bytes; a
 * CounterTable 29 to 80 bytes, off the V8 heap.
 */
export class MemoryRateLimitStore extends InProcessCounters implements RateLimitStore {
  readonly kind = 'memory' as const;
  private readonly families = new Map<string, CounterTable>();
  /** Tables by spec object: the policy passes the same few spec objects over and over. */
  private bySpec = new WeakMap<CounterSpec, CounterTable>();
  private readonly sweeper = setInterval(() => this.sweep(this.clock.now()), 60_000);

  constructor(private readonly clock: Clock = systemClock) {
    super();
    this.sweeper.unref();
  }

  private family(spec: CounterSpec): CounterTable {
    const known = this.bySpec.get(spec);
    if (known) return known;
    const table = this.familyById(familyId(spec));
    this.bySpec.set(spec, table);
    return table;
  }

  private familyById(id: string): CounterTable {
    let table = this.families.get(id);
    if (!table) {
      table = new CounterTable();
      this.families.set(id, table);
    }
    return table;
  }

  /** A counter's state, for a store that keeps it elsewhere too; null when its window ended. */
  state(spec: CounterSpec, key: string): { used: number; endsAt: number } | null {
    const table = this.family(spec);
    const slot = table.find(key, this.clock.now());
    return slot >= 0 ? { used: table.usedAt(slot), endsAt: table.endsAt(slot) } : null;
  }

  /**
   * Puts back a counter saved before a restart (family as made by familyId); a later call for the
   * same counter replaces an earlier one.
   */
  restore(family: string, key: string, used: number, endsAt: number): void {
    const now = this.clock.now();
    if (endsAt <= now) return;
    const table = this.familyById(family);
    const slot = table.find(key, now);
    if (slot >= 0) table.setUsed(slot, used);
    else table.start(key, used, endsAt, now);
  }

  consumeNow(spec: CounterSpec, key: string, points = 1): LimitDecision {
    const now = this.clock.now();
    const table = this.family(spec);
    const slot = table.find(key, now);
    const used = slot >= 0 ? table.usedAt(slot) : 0;
    if (used + points > spec.limit) {
      const endsAt = slot >= 0 ? table.endsAt(slot) : now + spec.windowSeconds * 1000;
      return {
        allowed: false,
        remaining: 0,
        retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now) / 1000)),
      };
    }
    if (slot >= 0) table.setUsed(slot, used + points);
    else table.start(key, points, now + spec.windowSeconds * 1000, now);
    return { allowed: true, remaining: spec.limit - used - points, retryAfterSeconds: 0 };
  }

  refundNow(spec: CounterSpec, key: string, points = 1): void {
    // A refund into an ended window gives nothing, never a negative count.
    const table = this.family(spec);
    const slot = table.find(key, this.clock.now());
    if (slot >= 0) table.setUsed(slot, table.usedAt(slot) - Math.min(points, table.usedAt(slot)));
  }

  penalizeNow(spec: CounterSpec, key: string, points = 1): undefined {
    const now = this.clock.now();
    const table = this.family(spec);
    const slot = table.find(key, now);
    if (slot >= 0) table.setUsed(slot, table.usedAt(slot) + points);
    else table.start(key, points, now + spec.windowSeconds * 1000, now);
    return undefined;
  }

  peekNow(spec: CounterSpec, key: string): LimitDecision {
    const now = this.clock.now();
    const table = this.family(spec);
    const slot = table.find(key, now);
    const used = slot >= 0 ? table.usedAt(slot) : 0;
    const allowed = used < spec.limit;
    return {
      allowed,
      remaining: Math.max(0, spec.limit - used),
      retryAfterSeconds: allowed || slot < 0 ? 0 : Math.max(1, Math.ceil((table.endsAt(slot) - now) / 1000)),
    };
  }

  countNow(spec: CounterSpec, key: string): number {
    const table = this.family(spec);
    const slot = table.find(key, this.clock.now());
    return slot >= 0 ? table.usedAt(slot) : 0;
  }

  private sweep(now: number): void {
    for (const table of this.families.values()) table.sweep(now);
  }

  async check(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.families.clear();
    this.bySpec = new WeakMap();
  }
}

/** The identity of a counter family: its name, limit and window. */
export const familyId = (spec: CounterSpec): string => `${spec.name}:${spec.limit}:${spec.windowSeconds}`;

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
