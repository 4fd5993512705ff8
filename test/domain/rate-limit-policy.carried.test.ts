import { describe, expect, it } from 'vitest';
import type { CounterPlan, RateLimitStore } from '../../src/domain/ports/rate-limits.js';
import { RateLimitPolicy } from '../../src/domain/rate-limit-policy.js';
import { MemoryRateLimitStore } from '../../src/limits/memory-store.js';
import { settingsWith } from '../support/settings.js';

/**
 * A verify's outcome rides on the next counter call of a shared store (RateLimitPolicy.addCarried).
 * The counting is a real memory store's; only the store's kind (a shared one, so points are
 * carried) and a call that fails, as one to a Redis gone away does, are this test's.
 */
class SharedOverMemory implements RateLimitStore {
  readonly kind = 'redis' as const;
  readonly inner = new MemoryRateLimitStore();
  readonly plans: CounterPlan[] = [];
  away = false;
  run(plan: CounterPlan) {
    this.plans.push(plan);
    return this.away ? Promise.reject(new Error('Redis is away')) : this.inner.run(plan);
  }
  consume = this.inner.consume.bind(this.inner);
  refund = this.inner.refund.bind(this.inner);
  penalize = this.inner.penalize.bind(this.inner);
  peek = this.inner.peek.bind(this.inner);
  count = this.inner.count.bind(this.inner);
  giveBack = this.inner.giveBack.bind(this.inner);
  check = this.inner.check.bind(this.inner);
  close = this.inner.close.bind(this.inner);
}

const settings = settingsWith();
const failures = (store: SharedOverMemory) =>
  store.plans.flatMap((p) => p.addsFirst ?? []).filter((r) => r.spec.name === 'destination-failures');

describe("a verify's outcome carried by the next counter call", () => {
  it('answers at once; the next call carries the point, counted before what that call decides', async () => {
    const store = new SharedOverMemory();
    const policy = new RateLimitPolicy(store, Buffer.alloc(32, 3));
    await policy.recordFailure('acct', 'a@example.com', settings);
    expect(store.plans).toEqual([]);
    await policy.checkKeyRate('verify', 'key', settings);
    expect(store.plans).toHaveLength(1);
    expect(failures(store)).toHaveLength(1);
    await policy.flush();
    expect(store.plans).toHaveLength(1);
  });

  it('keeps the points of a call that failed for the next one, and flush() counts what is left', async () => {
    const store = new SharedOverMemory();
    const policy = new RateLimitPolicy(store, Buffer.alloc(32, 3));
    await policy.recordFailure('acct', 'b@example.com', settings);
    store.away = true;
    await expect(policy.checkKeyRate('verify', 'key', settings)).rejects.toThrow(/away/);
    store.away = false;
    await policy.recordFailure('acct', 'b@example.com', settings);
    await policy.flush();
    const last = store.plans.at(-1);
    expect(last?.addsFirst).toHaveLength(2);
    expect(last?.rate).toBeUndefined();
    const ref = failures(store)[0];
    if (!ref) throw new Error('no failure point carried');
    expect(await store.inner.count(ref.spec, ref.key)).toBe(2);
  });

  it('goes in a call of its own when no other call comes', async () => {
    const store = new SharedOverMemory();
    const policy = new RateLimitPolicy(store, Buffer.alloc(32, 3));
    await policy.recordFailure('acct', 'c@example.com', settings);
    await policy.countCountryVerified('acct', 'US', Date.now());
    for (let i = 0; i < 100 && store.plans.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(store.plans).toEqual([{ addsFirst: [expect.anything(), expect.anything()] }]);
  });
});
