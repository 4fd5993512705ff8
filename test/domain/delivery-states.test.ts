import { describe, expect, it } from 'vitest';
import {
  DELIVERY_STATES,
  DELIVERY_STATUSES,
  deliveryChange,
  movesForward,
  SHOWN_DELIVERY_STATUSES,
  shownDeliveryStatus,
} from '../../src/domain/delivery-states.js';

describe('delivery states', () => {
  it('shows every stored state as one of the contract words, a failure as undelivered', () => {
    for (const d of DELIVERY_STATUSES) expect(SHOWN_DELIVERY_STATUSES).toContain(shownDeliveryStatus(d));
    expect(shownDeliveryStatus('outbox')).toBe('sent');
    expect(shownDeliveryStatus('failed')).toBe('undelivered');
    // Whether the code reached someone reads the same through either word.
    for (const d of DELIVERY_STATUSES)
      if (DELIVERY_STATES[d].outcome === 'undelivered') expect(shownDeliveryStatus(d)).toBe('undelivered');
  });

  it('counts a code delivered once: a delivered message, or an answered call and not again when it completes', () => {
    expect(deliveryChange('sent', 'delivered')).toBe('delivered');
    expect(deliveryChange('calling', 'answered')).toBe('delivered');
    expect(deliveryChange('answered', 'completed')).toBeNull();
    expect(deliveryChange('delivered', 'delivered')).toBeNull();
    expect(deliveryChange('calling', 'failed')).toBe('undelivered');
    expect(deliveryChange('queued', 'calling')).toBeNull();
  });

  it('moves a report forward or sideways, never back', () => {
    expect(movesForward('calling', 'answered')).toBe(true);
    expect(movesForward('answered', 'completed')).toBe(true);
    expect(movesForward('completed', 'answered')).toBe(false);
    expect(movesForward('delivered', 'failed')).toBe(true);
    expect(movesForward('sent', 'delivered')).toBe(true);
  });
});
