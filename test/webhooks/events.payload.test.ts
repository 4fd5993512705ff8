import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/http/idempotency.js';
import { type WebhookEvent, webhookPayload } from '../../src/webhooks/events.js';
import { SecretBox } from '../../src/webhooks/secrets.js';

const event = (over: Partial<WebhookEvent> = {}): WebhookEvent => ({
  id: '0193a1b2-c3d4-7e5f-8a7b-8c9d0e1f2a3b',
  accountId: 'acc_default',
  mode: 'live',
  type: 'verification.created',
  requestId: '0193a1b2-c3d4-7e5f-8a7b-8c9d0e1f2a3c',
  groupId: null,
  channel: 'SMS',
  country: 'US',
  purpose: 'signup',
  locale: 'pt-BR',
  provider: null,
  toMasked: '+1******2671',
  contactId: null,
  status: 'pending',
  deliveryStatus: null,
  deliveryError: null,
  createdAt: Date.parse('2026-11-24T12:00:00Z'),
  ...over,
});

describe('webhook payload', () => {
  it('is {type, timestamp, data} with the facts of the event and nothing null', () => {
    const body = JSON.parse(webhookPayload(event()));
    expect(body).toEqual({
      type: 'verification.created',
      timestamp: '2026-11-24T12:00:00.000Z',
      data: {
        id: '0193a1b2-c3d4-7e5f-8a7b-8c9d0e1f2a3b',
        type: 'verification.created',
        timestamp: '2026-11-24T12:00:00.000Z',
        accountId: 'acc_default',
        test: false,
        requestId: '0193a1b2-c3d4-7e5f-8a7b-8c9d0e1f2a3c',
        channel: 'SMS',
        to: '+1******2671',
        country: 'US',
        purpose: 'signup',
        locale: 'pt-BR',
        status: 'pending',
      },
    });
  });

  it('carries the facts named, nothing else of the event', () => {
    const extra = { ...event(), code: '123456', destination: '+14155552671' } as WebhookEvent;
    expect(webhookPayload(extra)).not.toMatch(/123456|4155552671/);
  });
});

describe('canonical JSON of an Idempotency-Key body', () => {
  it('does not depend on key order, at any depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });
});

describe('SecretBox', () => {
  it('opens what it sealed, and nothing sealed under another CODE_SECRET', () => {
    const box = new SecretBox(Buffer.from('one'));
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('abc');
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(sealed);
    expect(() => new SecretBox(Buffer.from('two')).open(sealed)).toThrow();
  });
});
