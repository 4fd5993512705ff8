import { type CounterSpec, LimitStoreUnavailable, type RateLimitStore } from '../limits/interface.js';
import { MemoryRateLimitStore } from '../limits/memory-store.js';
import { ApiError } from './errors.js';

export interface AdminThrottleLimits {
  /** Failed authentications per client address per minute. */
  perAddressPerMinute: number;
  /** Failed authentications per minute from every address together. */
  totalPerMinute: number;
}

/**
 * Slows down guessing of the admin token: failed authentications are counted per client address
 * and overall in the rate-limit store (shared through Redis when configured), and while either
 * count is used up the admin API answers 429 before looking at the token at all, so a throttled
 * guess is never evaluated. While the shared store is unreachable, the counts fall back to this
 * process's memory: the throttle still holds per instance, and an operator keeps admin access
 * during a Redis outage.
 */
export class AdminThrottle {
  private readonly perAddress: CounterSpec;
  private readonly total: CounterSpec;
  private fallback: MemoryRateLimitStore | null = null;

  constructor(
    private readonly counters: RateLimitStore,
    limits: AdminThrottleLimits,
  ) {
    this.perAddress = { name: 'admin-auth-address', limit: limits.perAddressPerMinute, windowSeconds: 60 };
    this.total = { name: 'admin-auth-total', limit: limits.totalPerMinute, windowSeconds: 60 };
  }

  /** Throws RATE_LIMITED (with Retry-After) while `address` or everyone is throttled. */
  async check(address: string): Promise<void> {
    const [mine, all] = await this.withFallback((counters) =>
      Promise.all([counters.peek(this.perAddress, address), counters.peek(this.total, 'all')]),
    );
    if (mine.allowed && all.allowed) return;
    throw new ApiError(
      'RATE_LIMITED',
      'Too many failed admin authentications; wait before trying again.',
      undefined,
      Math.max(1, mine.retryAfterSeconds, all.retryAfterSeconds),
    );
  }

  /** Counts one failed authentication from `address`. */
  async failed(address: string): Promise<void> {
    await this.withFallback((counters) =>
      Promise.all([counters.penalize(this.perAddress, address), counters.penalize(this.total, 'all')]),
    );
  }

  private async withFallback<T>(use: (counters: RateLimitStore) => Promise<T>): Promise<T> {
    try {
      return await use(this.counters);
    } catch (err) {
      if (!(err instanceof LimitStoreUnavailable)) throw err;
      this.fallback ??= new MemoryRateLimitStore();
      return use(this.fallback);
    }
  }
}
