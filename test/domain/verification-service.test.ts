import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  Delivery,
  DeliveryPlan,
  DeliveryRequest,
  DeliveryResult,
} from '../../src/delivery/interface.js';
import { AccountAdmin, DEFAULT_ACCOUNT_ID } from '../../src/domain/accounts.js';
import { ManualClock } from '../../src/domain/clock.js';
import { DomainError } from '../../src/domain/errors.js';
import { RateLimitPolicy } from '../../src/domain/rate-limit-policy.js';
import { validateSendRequest } from '../../src/domain/send-request.js';
import type { SilentOutcome } from '../../src/domain/silent.js';
import { type AuthenticatedKey, CHANNELS, type Channel } from '../../src/domain/types.js';
import { VerificationService } from '../../src/domain/verification-service.js';
import { MemoryRateLimitStore } from '../../src/limits/memory-store.js';
import type { Store } from '../../src/store/factory.js';
import { openStore } from '../../src/store/factory.js';
import { settingsWith } from '../support/settings.js';

/** A Delivery that keeps every request it is handed: the codes a user would receive. */
class RecordingDelivery implements Delivery {
  readonly sent: DeliveryRequest[] = [];
  async deliver(request: DeliveryRequest): Promise<DeliveryResult> {
    this.sent.push(request);
    return { ok: true, provider: 'recording', providerMessageId: `m-${this.sent.length}`, outbox: false };
  }
  plan(): DeliveryPlan {
    return { via: 'provider' };
  }
  available(): boolean {
    return true;
  }
  async checkSilent(): Promise<SilentOutcome> {
    return { kind: 'unavailable', reason: 'no silent provider here' };
  }
  liveRouting() {
    const delivered = { liveCodes: 'delivered' as const };
    return Object.fromEntries(CHANNELS.map((c) => [c, delivered])) as Record<Channel, typeof delivered>;
  }
  async health() {
    const up = {
      operational: true,
      providers: [{ name: 'recording', state: 'up' as const }],
      liveCodes: 'delivered' as const,
    };
    return Object.fromEntries(CHANNELS.map((c) => [c, up])) as Record<Channel, typeof up>;
  }
  codeFor(to: string): string {
    const request = this.sent.filter((r) => r.to === to).at(-1);
    if (!request) throw new Error(`nothing sent to ${to}`);
    return request.code;
  }
}

/** The verification domain on its own: in-memory SQLite, memory limits, no HTTP. */
describe('VerificationService', () => {
  let store: Store;
  let clock: ManualClock;
  let delivery: RecordingDelivery;
  let service: VerificationService;
  let key: AuthenticatedKey;

  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
    clock = new ManualClock(Date.UTC(2026, 10, 24, 12));
    delivery = new RecordingDelivery();
    await new AccountAdmin(store.accounts, clock).ensureDefaultAccount();
    service = new VerificationService({
      store,
      limits: new RateLimitPolicy(new MemoryRateLimitStore(clock), Buffer.from('domain-test-counter-key')),
      delivery,
      clock,
      codeSecret: Buffer.from('domain-test-secret'),
      defaults: settingsWith(),
      logger: pino({ level: 'silent' }),
    });
    key = {
      id: 'key_domain',
      accountId: DEFAULT_ACCOUNT_ID,
      name: 'domain',
      prefix: 'cvk_live_x',
      channels: ['EMAIL', 'SMS', 'WHATSAPP'],
      mode: 'live',
      createdAt: clock.now(),
      revokedAt: null,
      lastUsedAt: null,
      accountSettings: {},
    };
  });
  afterEach(() => store.close());

  const send = (body: Record<string, unknown>) => {
    const parsed = validateSendRequest(body, new Set());
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
    return service.send(key, parsed.request);
  };
  const refusal = async (work: Promise<unknown>) => {
    const err = await work.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  };

  it('scores a send with the number facts its check found: a UK VOIP number', async () => {
    const parsed = validateSendRequest({ channel: 'SMS', phone: '+445612345678' }, new Set());
    expect(parsed.ok && parsed.request.numberFacts).toEqual({ type: 'VOIP', country: 'GB' });
    const [entry] = await send({ channel: 'SMS', phone: '+445612345678' });
    expect(entry?.risk?.signals).toEqual([{ name: 'number_type', weight: 20, detail: 'a VOIP number' }]);
  });

  it('sends a code that verifies once, and counts a wrong code first', async () => {
    const [entry] = await send({ channel: 'EMAIL', email: 'Ann@Example.com' });
    expect(entry).toMatchObject({ channel: 'EMAIL', status: 'pending', to: 'a**@example.com' });
    // Delivered to the address as given; the answer masks the mailbox it counts under.
    const code = delivery.codeFor('Ann@Example.com');
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await service.verify(key, entry!.requestId, code === '000000' ? '111111' : '000000');
    expect(wrong).toMatchObject({ verified: false, status: 'pending', attemptsRemaining: 4 });
    expect(await service.verify(key, entry!.requestId, code)).toMatchObject({
      verified: true,
      status: 'verified',
      channel: 'EMAIL',
    });
    expect(await service.verify(key, entry!.requestId, code)).toMatchObject({
      verified: false,
      status: 'verified',
    });
  });

  it('accepts either code of a dual pair under either id; the pair then answers as verified', async () => {
    const [email, sms] = await send({
      channels: ['EMAIL', 'SMS'],
      email: 'pair@example.com',
      phone: '+33612345678',
    });
    const smsCode = delivery.codeFor('+33612345678');
    expect(await service.verify(key, email!.requestId, smsCode)).toMatchObject({
      verified: true,
      channel: 'SMS',
    });
    expect(await service.verify(key, sms!.requestId, smsCode)).toMatchObject({
      verified: false,
      status: 'verified',
    });
  });

  it('lets a code expire with the clock, without counting the attempt', async () => {
    const [entry] = await send({ channel: 'EMAIL', email: 'late@example.com' });
    const code = delivery.codeFor('late@example.com');
    clock.advance(600_000);
    expect(await service.verify(key, entry!.requestId, code)).toMatchObject({
      verified: false,
      status: 'expired',
      attemptsRemaining: 5,
    });
  });

  it('fails the request on the last wrong attempt, then answers TOO_MANY_ATTEMPTS without Retry-After', async () => {
    const [entry] = await send({ channel: 'EMAIL', email: 'guess@example.com' });
    const wrong = delivery.codeFor('guess@example.com') === '000000' ? '111111' : '000000';
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await service.verify(key, entry!.requestId, wrong)).status);
    expect(statuses).toEqual(['pending', 'pending', 'pending', 'pending', 'failed']);
    const err = await refusal(service.verify(key, entry!.requestId, wrong));
    expect(err.code).toBe('TOO_MANY_ATTEMPTS');
    expect(err.retryAfterSeconds).toBeUndefined();
  });

  it('refuses a resend inside the cooldown with the wait, and allows it once the clock has moved', async () => {
    await send({ channel: 'EMAIL', email: 'again@example.com' });
    const err = await refusal(send({ channel: 'EMAIL', email: 'again@example.com' }));
    expect(err.code).toBe('RATE_LIMITED');
    expect(err.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(err.details?.[0]).toMatchObject({ field: 'email', channel: 'EMAIL' });
    clock.advance(30_000);
    await expect(send({ channel: 'EMAIL', email: 'again@example.com' })).resolves.toHaveLength(1);
    expect(delivery.sent.filter((r) => r.to === 'again@example.com')).toHaveLength(2);
  });

  it('refuses a channel the key is not enabled for, and another account’s request as not found', async () => {
    key = { ...key, channels: ['EMAIL'] as Channel[] };
    expect((await refusal(send({ channel: 'SMS', phone: '+33612345679' }))).code).toBe('CHANNEL_NOT_ENABLED');
    const [entry] = await send({ channel: 'EMAIL', email: 'mine@example.com' });
    const other = { ...key, accountId: 'acc_other' };
    expect((await refusal(service.verify(other, entry!.requestId, '123456'))).code).toBe('NOT_FOUND');
    expect(delivery.sent.map((r) => r.to)).toEqual(['mine@example.com']);
  });
});
