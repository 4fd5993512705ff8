import type { DeliveryRequest } from '../../../src/delivery/interface.js';

/** A delivery request as the domain builds it, with overrides. */
export function deliveryRequest(overrides: Partial<DeliveryRequest> = {}): DeliveryRequest {
  return {
    verificationId: '6f1c1f5e-0d7a-4d55-9a3e-2b7f3f1f0a11',
    accountId: 'acc_default',
    channel: 'SMS',
    to: '+14155550123',
    code: '048213',
    codeTtlSeconds: 600,
    deliveryType: 'TEXT',
    country: 'US',
    purpose: null,
    customMessage: null,
    branding: { brandName: 'Acme', color: '#2563eb' },
    locale: 'en',
    ...overrides,
  };
}
