import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { DomainError } from '../../../src/domain/errors.js';
import type { Verifications } from '../../../src/domain/ports/verifications.js';
import { RateLimitPolicy } from '../../../src/domain/rate-limit-policy.js';
import type { AuthenticatedKey, Verification } from '../../../src/domain/types.js';
import { CancelVerification } from '../../../src/domain/verification/cancel.js';
import type { VerificationDeps } from '../../../src/domain/verification/deps.js';
import { RequestSettings } from '../../../src/domain/verification/settings.js';
import { MemoryRateLimitStore } from '../../../src/limits/memory-store.js';
import { settingsWith } from '../../support/settings.js';

const T0 = Date.parse('2026-12-06T08:00:00Z');

const row = (id: string, overrides: Partial<Verification> = {}): Verification => ({
  id,
  accountId: 'acc_1',
  groupId: 'a',
  channel: 'EMAIL',
  destination: 'jane@example.com',
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
  deliveryStatus: 'outbox',
  deliveryUpdatedAt: null,
  provider: null,
  providerMessageId: null,
  mode: 'live',
  locale: 'en',
  ...overrides,
});

/** The two methods a cancel uses, over rows in memory: what the use case asks of a store. */
function memoryRows(rows: Verification[]) {
  const settled: Array<[string, string]> = [];
  const verifications = {
    getGroup: async (accountId: string, id: string, mode = 'live') => {
      const request = rows.find((r) => r.id === id && r.accountId === accountId && r.mode === mode);
      return request ? rows.filter((r) => r.groupId === request.groupId) : [];
    },
    settleGroup: async (groupId: string, status: string, now: number) => {
      settled.push([groupId, status]);
      for (const r of rows)
        if (r.groupId === groupId && r.status === 'pending' && r.expiresAt > now) r.status = 'canceled';
    },
  } as unknown as Verifications;
  return { verifications, settled };
}

function cancelOver(rows: Verification[]) {
  const clock = new ManualClock(T0 + 1000);
  const { verifications, settled } = memoryRows(rows);
  const defaults = settingsWith();
  const deps = {
    store: { verifications },
    limits: new RateLimitPolicy(new MemoryRateLimitStore(clock), Buffer.from('cancel-test')),
    clock,
    defaults,
    logger: pino({ level: 'silent' }),
  } as unknown as VerificationDeps;
  return { cancel: new CancelVerification(deps, new RequestSettings(defaults)), settled, clock };
}

const key = (overrides: Partial<AuthenticatedKey> = {}): AuthenticatedKey => ({
  id: 'key_1',
  accountId: 'acc_1',
  name: 'k',
  prefix: 'cvk_live_x',
  channels: ['EMAIL', 'SMS'],
  mode: 'live',
  createdAt: T0,
  revokedAt: null,
  lastUsedAt: null,
  accountSettings: {},
  ...overrides,
});

describe('canceling a verification request', () => {
  it('cancels a pending pair by its group, and answers the request as it is after', async () => {
    const { cancel, settled } = cancelOver([
      row('a'),
      row('b', { channel: 'SMS', destination: '+14155550100' }),
    ]);
    const answer = await cancel.cancel(key(), 'b');
    expect(settled).toEqual([['a', 'canceled']]);
    expect(answer).toMatchObject({ requestId: 'b', status: 'canceled', siblingRequestId: 'a' });
  });

  it('leaves a settled, expired or used-up request alone and answers it as it is', async () => {
    for (const r of [
      row('a', { status: 'verified', verifiedAt: T0 + 1, method: 'code' }),
      row('a', { expiresAt: T0 + 1000 }),
      row('a', { attempts: 5 }),
    ]) {
      const { cancel, settled } = cancelOver([r]);
      const answer = await cancel.cancel(key(), 'a');
      expect(settled).toEqual([]);
      expect(answer.status).not.toBe('canceled');
    }
  });

  it('finds nothing outside the key (account, mode, channel) and changes nothing', async () => {
    for (const k of [key({ accountId: 'acc_2' }), key({ mode: 'test' }), key({ channels: ['SMS'] })]) {
      const { cancel, settled } = cancelOver([row('a')]);
      const err = await cancel.cancel(k, 'a').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('NOT_FOUND');
      expect(settled).toEqual([]);
    }
  });
});
