import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import type { Verification } from '../../../src/domain/types.js';
import { statusAt, toResource } from '../../../src/domain/verification/resource.js';

const T0 = Date.parse('2026-12-06T08:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

const row = (id: string, overrides: Partial<Verification> = {}): Verification => ({
  id,
  accountId: 'acc_1',
  groupId: 'g1',
  channel: 'EMAIL',
  destination: 'jane.doe@example.com',
  deliveryType: null,
  country: null,
  purpose: null,
  codeHash: Buffer.alloc(32),
  status: 'pending',
  attempts: 0,
  maxAttempts: 5,
  createdAt: T0,
  expiresAt: T0 + 600_000,
  verifiedAt: null,
  method: null,
  deliveryStatus: 'queued',
  deliveryUpdatedAt: null,
  provider: null,
  providerMessageId: null,
  mode: 'live',
  locale: 'en',
  ...overrides,
});

describe('a verification request as a resource', () => {
  it('shows a pending single request: masked, counted, its delivery as of its creation', () => {
    expect(toResource([row('a')], 'a', T0 + 1000)).toEqual({
      requestId: 'a',
      channel: 'EMAIL',
      status: 'pending',
      to: 'j*******@example.com',
      createdAt: iso(T0),
      expiresAt: iso(T0 + 600_000),
      attemptsRemaining: 5,
      delivery: { status: 'queued', updatedAt: iso(T0) },
    });
  });

  it('names the sibling of a dual pair, and only the verified request carries how and when', () => {
    const group = [
      row('a', { status: 'verified', verifiedAt: T0 + 5000, method: 'code', attempts: 2 }),
      row('b', {
        channel: 'WHATSAPP',
        destination: '+14155552671',
        deliveryType: 'TEXT',
        status: 'canceled',
        // The attempt rule stamps the whole group; the canceled sibling does not show it.
        verifiedAt: T0 + 5000,
        attempts: 2,
      }),
    ];
    expect(toResource(group, 'a', T0 + 9000)).toMatchObject({
      status: 'verified',
      verifiedAt: iso(T0 + 5000),
      method: 'code',
      siblingRequestId: 'b',
      attemptsRemaining: 3,
    });
    const sibling = toResource(group, 'b', T0 + 9000);
    expect(sibling).toMatchObject({
      status: 'canceled',
      to: '+1******2671',
      deliveryType: 'TEXT',
      siblingRequestId: 'a',
    });
    expect(sibling).not.toHaveProperty('verifiedAt');
    expect(sibling).not.toHaveProperty('method');
  });

  it('reads a row verified before methods were kept as verified by code', () => {
    const verified = row('a', { status: 'verified', verifiedAt: T0 + 1 });
    expect(toResource([verified], 'a', T0).method).toBe('code');
  });

  it('maps the stored delivery states to the contract words, with the provider and the last move', () => {
    const at = (deliveryStatus: Verification['deliveryStatus'], provider: string | null = 'p') =>
      toResource([row('a', { deliveryStatus, provider, deliveryUpdatedAt: T0 + 7 })], 'a', T0).delivery;
    expect(at('outbox', null)).toEqual({ status: 'sent', provider: 'outbox', updatedAt: iso(T0 + 7) });
    expect(at('sent')).toEqual({ status: 'sent', provider: 'p', updatedAt: iso(T0 + 7) });
    expect(at('failed').status).toBe('undelivered');
    expect(at('answered').status).toBe('answered');
    expect(at('queued', null)).toEqual({ status: 'queued', updatedAt: iso(T0 + 7) });
  });

  it('shows a pending request past its lifetime as expired, and one with no attempts left as failed', () => {
    expect(statusAt(row('a'), T0 + 600_000)).toBe('expired');
    expect(statusAt(row('a'), T0 + 599_999)).toBe('pending');
    expect(statusAt(row('a', { attempts: 5 }), T0)).toBe('failed');
    expect(statusAt(row('a', { status: 'verified' }), T0 + 999_999)).toBe('verified');
  });

  it('is NOT_FOUND for an id its group does not hold', () => {
    expect(() => toResource([row('a')], 'b', T0)).toThrow(DomainError);
  });
});
