import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDelivery } from '../../src/delivery/factory.js';
import { DeliverySettingsError } from '../../src/delivery/settings.js';
import { ManualClock } from '../../src/domain/clock.js';
import type { Store } from '../../src/store/factory.js';
import { openStore } from '../../src/store/factory.js';
import { testConfig } from '../support/app.js';

describe('buildDelivery', () => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
  });
  afterEach(() => store.close());

  it('builds from the delivery settings alone, and refuses SMS routes it cannot follow with its own error', () => {
    const clock = new ManualClock(0);
    const delivery = buildDelivery(testConfig(), store, clock);
    expect(delivery.liveRouting().EMAIL.liveCodes).toBe('outbox');
    // The configuration checks SMS_ROUTES when it loads; a route handed over unchecked is refused here.
    const unchecked = { ...testConfig(), smsRoutes: 'US=twilio' };
    expect(() => buildDelivery(unchecked, store, clock)).toThrow(DeliverySettingsError);
    expect(() => buildDelivery(unchecked, store, clock)).toThrow(/SMS_ROUTES|twilio/);
  });
});
