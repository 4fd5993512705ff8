import { type CounterSpec, LimitStoreUnavailable, type RateLimitStore } from '../domain/ports/rate-limits.js';
import { MemoryRateLimitStore } from '../limits/memory-store.js';
import { ApiError } from './errors.js';

export interface AdminThrottleLimits {
  /** Wrong admin tokens presented per client address per minute. */
  perAddressPerMinute: number;
}

/**
 * Slows down guessing of the admin token: wrong tokens are counted per client address in the
 * rate-limit store (shared through Redis when configured), and while an address's count is used
 * up its next tokens are answered 429 without being compared, so a throttled guess is never
 * evaluated. Only that address waits: there is no count over all addresses, since it could only
 * be enforced by also refusing the operator's right token (see docs/security.md). While the
 * shared store is unreachable, the counts fall back to this process's memory: the throttle still
 * holds per instance, and an operator keeps admin access during a Redis outage.
 */
export class AdminThrottle {
  private readonly perAddress: CounterSpec;
  private fallback: MemoryRateLimitStore | null = null;

  constructor(
    private readonly counters: RateLimitStore,
    limits: AdminThrottleLimits,
  ) {
    this.perAddress = { name: 'admin-auth-address', limit: limits.perAddressPerMinute, windowSeconds: 60 };
  }

  /** Throws RATE_LIMITED (with Retry-After) while `address` has used up its wrong tokens. */
  async check(address: string): Promise<void> {
    const mine = await this.withFallback((counters) => counters.peek(this.perAddress, address));
    if (mine.allowed) return;
    throw new ApiError(
      'RATE_LIMITED',
      'Too many wrong admin tokens from this address; wait before trying again.',
      undefined,
      Math.max(1, mine.retryAfterSeconds),
    );
  }

  /** Counts one wrong token presented by `address`. */
  async failed(address: string): Promise<void> {
    await this.withFallback((counters) => counters.penalize(this.perAddress, address));
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
