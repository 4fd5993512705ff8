import { describe, expect, it } from 'vitest';
import { deliveryChange, movesForward } from '../../src/domain/delivery-states.js';

describe('delivery states', () => {
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
