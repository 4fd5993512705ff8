import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Analytics } from '../../src/domain/analytics.js';
import { ManualClock } from '../../src/domain/clock.js';
import { DomainError } from '../../src/domain/errors.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { T0, verification } from '../store/fixtures.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('analytics queries', () => {
  let store: SqliteStore;
  let analytics: Analytics;
  beforeEach(async () => {
    store = new SqliteStore(':memory:');
    analytics = new Analytics(store.readModel, new ManualClock(T0 + HOUR));
    await store.verifications.createVerifications([verification({ createdAt: T0 })]);
  });
  afterEach(() => store.close());

  it('answers the buckets of a range, `to` defaulting to now', async () => {
    const hour = T0 - (T0 % HOUR);
    const buckets = await analytics.buckets({ mode: 'live', from: hour, interval: 'hour' });
    expect(buckets.map((b) => [b.start, b.sent])).toEqual([[new Date(hour).toISOString(), 1]]);
  });

  it('refuses a range that ends before it starts, or spans more buckets than one query may', async () => {
    const refusal = (from: number, to: number, interval: 'hour' | 'day') =>
      analytics.buckets({ mode: 'live', from, to, interval }).catch((err: unknown) => err);
    const backwards = await refusal(T0, T0, 'day');
    expect(backwards).toBeInstanceOf(DomainError);
    expect(backwards).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'to', message: 'must be later than from' }],
    });
    expect(await refusal(T0, T0 + 73 * HOUR, 'hour')).toMatchObject({
      details: [{ field: 'to', message: 'at most 72 buckets of one hour per query' }],
    });
    expect(await refusal(T0, T0 + 367 * DAY, 'day')).toMatchObject({
      details: [{ field: 'to', message: 'at most 366 buckets of one day per query' }],
    });
    expect(
      await analytics.buckets({ mode: 'live', from: T0, to: T0 + 72 * HOUR, interval: 'hour' }),
    ).toBeInstanceOf(Array);
  });
});
