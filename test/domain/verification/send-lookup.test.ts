import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Delivery, DeliveryPlan, DeliveryResult } from '../../../src/delivery/interface.js';
import { AccountAdmin, DEFAULT_ACCOUNT_ID } from '../../../src/domain/accounts.js';
import { ManualClock } from '../../../src/domain/clock.js';
import { DomainError } from '../../../src/domain/errors.js';
import type { LookupOutcome } from '../../../src/domain/number-intelligence.js';
import type { LookupRequest, NumberLookup } from '../../../src/domain/ports/number-lookup.js';
import { RateLimitPolicy } from '../../../src/domain/rate-limit-policy.js';
import { validateSendRequest } from '../../../src/domain/send-request.js';
import {
  type AccountSettings,
  type AuthenticatedKey,
  CHANNELS,
  type Channel,
} from '../../../src/domain/types.js';
import { VerificationService } from '../../../src/domain/verification-service.js';
import { MemoryRateLimitStore } from '../../../src/limits/memory-store.js';
import { openStore, type Store } from '../../../src/store/factory.js';
import { settingsWith } from '../../support/settings.js';

// The send's use of the NumberLookup port, in the domain alone: an account with lookups off never
// calls it (the hot path pays nothing), one with lookups on calls it once per phone target with
// the key's mode and the parts its settings need, and a domain built without one treats the
// account's sends as lookups that failed.

const delivery: Delivery = {
  async deliver(): Promise<DeliveryResult> {
    return { ok: true, provider: 'recording', providerMessageId: 'm', outbox: false };
  },
  plan: (): DeliveryPlan => ({ via: 'provider' }),
  available: () => true,
  checkSilent: async () => ({ kind: 'unavailable', reason: 'no silent provider here' }),
  liveRouting() {
    const delivered = { liveCodes: 'delivered' as const };
    return Object.fromEntries(CHANNELS.map((c) => [c, delivered])) as Record<Channel, typeof delivered>;
  },
  async health() {
    const up = { operational: true, providers: [], liveCodes: 'delivered' as const };
    return Object.fromEntries(CHANNELS.map((c) => [c, up])) as Record<Channel, typeof up>;
  },
};

/** A NumberLookup that answers what a test says, and records what it was asked. */
class ScriptedLookup implements NumberLookup {
  readonly asked: LookupRequest[] = [];
  answer: LookupOutcome = {
    ok: true,
    from: 'provider',
    facts: { lineType: 'voip', carrier: 'X', country: 'GB', mcc: null, mnc: null, lastSimChange: null },
  };
  async lookup(request: LookupRequest): Promise<LookupOutcome> {
    this.asked.push(request);
    return this.answer;
  }
  async known() {
    return null;
  }
}

describe('send: the NumberLookup port', () => {
  let store: Store;
  let clock: ManualClock;
  let lookup: ScriptedLookup;
  const build = (numberLookup: NumberLookup | undefined) =>
    new VerificationService({
      store,
      limits: new RateLimitPolicy(new MemoryRateLimitStore(clock), Buffer.from('send-lookup-counter-key')),
      delivery,
      clock,
      codeSecret: Buffer.from('send-lookup-secret'),
      defaults: settingsWith({ resendCooldownSeconds: 0, sendsPerDestinationPerHour: 100 }),
      logger: pino({ level: 'silent' }),
      numberLookup,
    });
  const keyWith = (accountSettings: AccountSettings, mode: 'live' | 'test' = 'live'): AuthenticatedKey => ({
    id: `key_${Math.random()}`,
    accountId: DEFAULT_ACCOUNT_ID,
    name: 'domain',
    prefix: 'cvk_live_x',
    channels: [...CHANNELS],
    mode,
    createdAt: clock.now(),
    revokedAt: null,
    lastUsedAt: null,
    accountSettings,
  });
  const send = (service: VerificationService, key: AuthenticatedKey, body: Record<string, unknown>) => {
    const parsed = validateSendRequest(body, new Set());
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
    return service.send(key, parsed.request);
  };
  const refusal = (work: Promise<unknown>) =>
    work.then(
      () => null,
      (e: unknown) => e as DomainError,
    );

  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
    clock = new ManualClock(Date.UTC(2026, 11, 6, 9));
    lookup = new ScriptedLookup();
    await new AccountAdmin(store.accounts, clock).ensureDefaultAccount();
  });
  afterEach(() => store.close());

  it('never calls the lookup for an account with lookups off (the default)', async () => {
    const throwing: NumberLookup = {
      lookup: () => {
        throw new Error('looked up with lookups off');
      },
      known: () => {
        throw new Error('looked up with lookups off');
      },
    };
    const service = build(throwing);
    const [entry] = await send(service, keyWith({}), { channel: 'SMS', phone: '+447400123456' });
    expect(entry?.status).toBe('pending');
  });

  it('asks once per phone target, with the key mode and the parts the settings need', async () => {
    const service = build(lookup);
    const key = keyWith({ lookup: 'all_phone', simSwapHours: 12 } as AccountSettings, 'test');
    const entries = await send(service, key, {
      channels: ['EMAIL', 'WHATSAPP'],
      email: 'a@example.com',
      phone: '+447400123457',
    });
    expect(lookup.asked).toEqual([{ e164: '+447400123457', mode: 'test', parts: { line: true, sim: true } }]);
    const whatsapp = entries.find((e) => e.channel === 'WHATSAPP');
    expect(whatsapp?.risk?.signals.map((s) => s.name)).toEqual(['line_type']);
    expect(entries.find((e) => e.channel === 'EMAIL')?.risk?.signals).toEqual([]);
  });

  it('refuses a line type in refuseLineTypes and counts the refusal under line_type', async () => {
    const service = build(lookup);
    const key = keyWith({ lookup: 'sms_voice', refuseLineTypes: ['voip'] } as AccountSettings);
    const err = await refusal(send(service, key, { channel: 'SMS', phone: '+447400123458' }));
    expect(err).toBeInstanceOf(DomainError);
    expect(err?.code).toBe('UNSUPPORTED_NUMBER');
    const rows = await store.readModel.analytics({
      mode: 'live',
      from: clock.now() - 3_600_000,
      to: clock.now() + 3_600_000,
      intervalMs: 3_600_000,
    });
    expect(rows.refusals.map((r) => [r.reason, r.count])).toEqual([['line_type', 1]]);
  });

  it('without a NumberLookup, an account with lookups on gets lookup_unavailable (or a refusal when fail-closed)', async () => {
    const service = build(undefined);
    const [entry] = await send(service, keyWith({ lookup: 'sms_voice' } as AccountSettings), {
      channel: 'SMS',
      phone: '+447400123459',
    });
    expect(entry?.risk?.signals.map((s) => s.name)).toContain('lookup_unavailable');
    const err = await refusal(
      send(service, keyWith({ lookup: 'sms_voice', lookupFailClosed: true } as AccountSettings), {
        channel: 'SMS',
        phone: '+447400123460',
      }),
    );
    expect(err?.code).toBe('RISK_TOO_HIGH');
    expect(err?.details?.[0]?.field).toBe('lookup_unavailable');
  });
});
