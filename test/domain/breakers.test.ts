import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Breakers } from '../../src/domain/breakers.js';
import { ManualClock } from '../../src/domain/clock.js';
import { RateLimitPolicy } from '../../src/domain/rate-limit-policy.js';
import type { Mode } from '../../src/domain/types.js';
import { MemoryRateLimitStore } from '../../src/limits/memory-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { T0 } from '../store/fixtures.js';

const HOUR = 3_600_000;

describe('SMS-pumping breakers as operators see them', () => {
  let store: SqliteStore;
  let clock: ManualClock;
  let limits: RateLimitPolicy;
  let breakers: Breakers;
  beforeEach(() => {
    store = new SqliteStore(':memory:');
    clock = new ManualClock(T0);
    limits = new RateLimitPolicy(new MemoryRateLimitStore(clock), Buffer.alloc(32, 1));
    breakers = new Breakers(store.readModel, limits, clock);
  });
  afterEach(() => store.close());

  const tripped = (mode: Mode) => ({
    accountId: 'acc_1',
    mode,
    country: 'US',
    trippedAt: T0 - 60_000,
    detail: '40 sends, 1 verified',
    resetAt: null,
    baseline: null,
  });

  it('resets a tripped breaker: the window counts of its mode become its baseline', async () => {
    await store.readModel.saveBreaker(tripped('live'));
    await store.readModel.saveBreaker(tripped('test'));
    for (let i = 0; i < 3; i++) await limits.countCountrySend('acc_1', 'US', T0 - HOUR);
    await limits.countCountryVerified('acc_1', 'US', T0);
    await limits.countCountrySend('acc_1:test', 'US', T0);

    // The country as an operator types it.
    const reset = await breakers.reset('acc_1', 'live', 'us');
    const expected = {
      ...tripped('live'),
      trippedAt: null,
      detail: null,
      resetAt: T0,
      baseline: { hour: T0 - (T0 % HOUR), sent: 3, verified: 1 },
    };
    expect(reset).toEqual(expected);
    expect(await store.readModel.getBreaker('acc_1', 'live', 'US')).toEqual(expected);
    // The other mode is its own breaker, still tripped.
    expect(await breakers.tripped()).toEqual([tripped('test')]);
    expect(await breakers.list('acc_1')).toEqual([expected, tripped('test')]);
  });

  it('answers null for a breaker that does not exist, and saves nothing', async () => {
    expect(await breakers.reset('acc_1', 'live', 'GB')).toBeNull();
    expect(await breakers.list()).toEqual([]);
  });
});
