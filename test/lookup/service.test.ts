import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOUR_MS, ManualClock } from '../../src/domain/clock.js';
import type { LookupCacheStore } from '../../src/domain/ports/number-lookup.js';
import type { LookupProvider } from '../../src/lookup/interface.js';
import { lookupKey } from '../../src/lookup/keys.js';
import { TelnyxLookup } from '../../src/lookup/providers/telnyx/telnyx-lookup.js';
import { TwilioLookup } from '../../src/lookup/providers/twilio/twilio-lookup.js';
import { LookupService, type LookupServiceOptions } from '../../src/lookup/service.js';
import { TEST_NUMBERS } from '../../src/lookup/test-numbers.js';
import { openStore, type Store } from '../../src/store/factory.js';
import {
  type FakeAnswer,
  type FakeLookupApi,
  type Received,
  startFakeLookupApi,
} from './support/fake-lookup-api.js';

// The lookup service over a real SQLite store and a Twilio Lookup fake on loopback: the cache and
// its two periods, single-flight, the budget, the circuit breaker, test keys.

const NUMBER = '+447772000001';
const SECRET = Buffer.alloc(32, 7);
const BOTH = { line: true, sim: true };
const LINE = { line: true, sim: false };

const twilioAnswer = (type = 'mobile') => ({
  country_code: 'GB',
  phone_number: NUMBER,
  valid: true,
  line_type_intelligence: {
    error_code: null,
    mobile_country_code: '234',
    mobile_network_code: '15',
    carrier_name: 'Vodafone UK',
    type,
  },
  sim_swap: {
    last_sim_swap: {
      last_sim_swap_date: '2026-01-15T10:00:00Z',
      swapped_period: 'PT2H',
      swapped_in_period: true,
    },
    error_code: null,
  },
});

describe('LookupService', () => {
  let api: FakeLookupApi;
  let store: Store;
  /** A lookup by a service of its own, once its write to the shared cache has landed (the answer does not wait for it). */
  const lookedUpAndStored = async (e164: string, parts = BOTH) => {
    const lookups = service();
    const outcome = await lookups.lookup({ e164, mode: 'live', parts });
    await lookups.settled();
    return outcome;
  };
  /** The store's cache, with the operations `over` names done its way instead. */
  const storeCacheWith = (over: Partial<LookupCacheStore>): LookupCacheStore => ({
    get: (key, now) => store.lookups.get(key, now),
    put: (key, write) => store.lookups.put(key, write),
    sweep: (now, batch) => store.lookups.sweep(now, batch),
    claim: (claim, now, until) => store.lookups.claim(claim, now, until),
    release: (claim) => store.lookups.release(claim),
    ...over,
  });
  /** The shared cache (the store's), counting its reads. */
  const countingCache = () => {
    const counting = {
      reads: 0,
      cache: storeCacheWith({
        get: (key, now) => {
          counting.reads += 1;
          return store.lookups.get(key, now);
        },
      }),
    };
    return counting;
  };
  let clock: ManualClock;
  let answer: (r: Received) => FakeAnswer;
  beforeAll(async () => {
    api = await startFakeLookupApi((r) => answer(r));
  });
  afterAll(() => api.close());
  beforeEach(async () => {
    answer = () => ({ json: twilioAnswer() });
    store = await openStore('sqlite::memory:');
    clock = new ManualClock(Date.UTC(2026, 0, 15, 12));
    api.received.length = 0;
  });
  afterEach(() => store.close());

  const service = (over: Partial<LookupServiceOptions> = {}) =>
    new LookupService({
      provider: new TwilioLookup({ accountSid: 'AC1', authToken: 't', baseUrl: api.url }),
      cache: store.lookups,
      keySecret: SECRET,
      clock,
      budgetMs: 1500,
      lineTtlMs: 7 * 24 * HOUR_MS,
      simTtlMs: HOUR_MS,
      breaker: { failures: 3, cooldownMs: 30_000 },
      ...over,
    });

  it('asks the provider once, then answers from the cache until each part goes stale', async () => {
    const lookups = service();
    const first = await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH });
    expect(first).toEqual({
      ok: true,
      from: 'provider',
      facts: {
        lineType: 'mobile',
        carrier: 'Vodafone UK',
        country: 'GB',
        mcc: '234',
        mnc: '15',
        lastSimChange: { at: Date.parse('2026-01-15T10:00:00Z') },
      },
    });
    expect(api.received).toHaveLength(1);
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toEqual({
      ...first,
      from: 'cache',
    });
    expect(api.received).toHaveLength(1);
    // An hour on, the SIM change is asked again, and only it.
    clock.advance(HOUR_MS);
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
      from: 'provider',
    });
    expect(api.received).toHaveLength(2);
    expect(api.received[1]!.query.get('Fields')).toBe('sim_swap');
    // A send that needs only the line type is answered from the cache for days.
    clock.advance(6 * 24 * HOUR_MS);
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: LINE })).toMatchObject({
      from: 'cache',
    });
    clock.advance(24 * HOUR_MS);
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: LINE })).toMatchObject({
      from: 'provider',
    });
    expect(api.received[2]!.query.get('Fields')).toBe('line_type_intelligence');
  });

  it('a warm lookup reads the shared cache once per process, then keeps the fresh parts itself', async () => {
    const counting = countingCache();
    await lookedUpAndStored(NUMBER);
    const other = service({ cache: counting.cache });
    for (let i = 0; i < 5; i++)
      expect(await other.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
        from: 'cache',
      });
    expect(counting.reads).toBe(1);
    expect(api.received).toHaveLength(1);
    // Its SIM part goes stale on time: the next lookup asks again.
    clock.advance(HOUR_MS);
    expect(await other.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
      from: 'provider',
    });
    expect(counting.reads).toBe(2);
  });

  it('keys the cache by an HMAC of the number, never the number', async () => {
    await lookedUpAndStored(NUMBER);
    const key = lookupKey(SECRET, NUMBER);
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(key).not.toContain(NUMBER.slice(1));
    expect((await store.lookups.get(key, clock.now())).line?.lineType).toBe('mobile');
    expect(lookupKey(Buffer.alloc(32, 8), NUMBER)).not.toBe(key);
  });

  it('caches an answer that says nothing (the number is unknown to the provider) like any other', async () => {
    answer = () => ({ status: 404, json: { code: 20404, message: 'Not found', status: 404 } });
    const lookups = service();
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
      ok: true,
      facts: { lineType: null, lastSimChange: null },
    });
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
      from: 'cache',
    });
    expect(api.received).toHaveLength(1);
  });

  it('concurrent sends for one number wait for one lookup', async () => {
    answer = () => ({ json: twilioAnswer(), delayMs: 100 });
    const lookups = service();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })),
    );
    expect(api.received).toHaveLength(1);
    expect(new Set(outcomes.map((o) => JSON.stringify(o))).size).toBe(1);
    expect(outcomes[0]).toMatchObject({ ok: true, from: 'provider' });
  });

  it('concurrent lookups of different numbers are not serialised: 50 take one answer time', async () => {
    // Each held 300 ms: in turn they would take 15 s, behind a pool of 10 connections 1.5 s.
    answer = () => ({ json: twilioAnswer(), delayMs: 300 });
    const lookups = service({ budgetMs: 10_000 });
    api.maxInFlight = 0;
    const connectionsBefore = api.connections;
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        lookups.lookup({ e164: `+4477720${String(i).padStart(5, '0')}`, mode: 'live', parts: BOTH }),
      ),
    );
    const took = performance.now() - started;
    expect(outcomes.every((o) => o.ok && o.from === 'provider')).toBe(true);
    // All 50 at the fake at once is what rules out a pool; the time only rules out taking turns
    // (with room for a loaded machine).
    expect(api.maxInFlight).toBe(50);
    expect(took).toBeLessThan(3000);
    // The next 50 reuse those connections rather than open new ones.
    const opened = api.connections - connectionsBefore;
    expect(opened).toBeLessThanOrEqual(50);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        lookups.lookup({ e164: `+4477721${String(i).padStart(5, '0')}`, mode: 'live', parts: BOTH }),
      ),
    );
    expect(api.connections - connectionsBefore).toBe(opened);
  });

  describe('instances sharing the cache', () => {
    const sharing = () => true;

    it('ask the provider about a number once between them: the others wait for its answer in the cache', async () => {
      answer = () => ({ json: twilioAnswer(), delayMs: 200 });
      const [a, b, c] = [service({ sharing }), service({ sharing }), service({ sharing })];
      const outcomes = await Promise.all(
        [a, b, c].map((s) => s.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })),
      );
      expect(api.received).toHaveLength(1);
      expect(outcomes.map((o) => o.ok && o.from).sort()).toEqual(['cache', 'cache', 'provider']);
      expect(new Set(outcomes.map((o) => JSON.stringify(o.ok && o.facts))).size).toBe(1);
      // Another number, or other parts of it, are claims of their own.
      await Promise.all([
        a.lookup({ e164: '+447772000002', mode: 'live', parts: LINE }),
        b.lookup({ e164: '+447772000003', mode: 'live', parts: LINE }),
      ]);
      expect(api.received).toHaveLength(3);
    });

    it('a failed lookup gives its claim up, and a waiting instance asks in its turn', async () => {
      let calls = 0;
      answer = () =>
        calls++ === 0
          ? { status: 500, json: { code: 20500, message: 'down' }, delayMs: 100 }
          : { json: twilioAnswer(), delayMs: 50 };
      const [a, b] = [service({ sharing }), service({ sharing })];
      const outcomes = await Promise.all(
        [a, b].map((s) => s.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })),
      );
      expect(api.received).toHaveLength(2);
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      expect(outcomes.find((o) => !o.ok)).toMatchObject({ ok: false, retryable: true });
    });

    it('a holder that never answers holds the others only until its claim lapses, within their budget', async () => {
      answer = () => ({ hang: true });
      const a = service({ sharing, budgetMs: 300 });
      const b = service({ sharing, budgetMs: 300 });
      const started = performance.now();
      const outcomes = await Promise.all(
        [a, b].map((s) => s.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })),
      );
      expect(performance.now() - started).toBeLessThan(3000);
      expect(outcomes.every((o) => !o.ok && o.retryable)).toBe(true);
      // The one waiting says what it waited for; only the one that asked counts against the circuit.
      expect(outcomes.map((o) => !o.ok && o.error).sort()).toEqual([
        "another instance's lookup of this number did not answer within 300 ms",
        'twilio did not answer within 300 ms',
      ]);
    });

    it('alone (no other instance), a lookup makes no claim', async () => {
      const claims: string[] = [];
      const cache = storeCacheWith({
        claim: (claim, now, until) => {
          claims.push(claim);
          return store.lookups.claim(claim, now, until);
        },
      });
      await service({ cache, sharing: () => false }).lookup({ e164: NUMBER, mode: 'live', parts: BOTH });
      expect(claims).toEqual([]);
      await service({ cache, sharing }).lookup({ e164: '+447772000002', mode: 'live', parts: LINE });
      expect(claims).toEqual([`${lookupKey(SECRET, '+447772000002')}:l`]);
    });
  });

  it('the answer does not wait for the shared cache to write it', async () => {
    let release = () => {};
    const writes: string[] = [];
    const slow = storeCacheWith({
      // A write that lands only when released (a busy database, a slow Redis).
      put: async (key, write) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        await store.lookups.put(key, write);
        writes.push(key);
      },
    });
    const lookups = service({ cache: slow, budgetMs: 500 });
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
      ok: true,
      from: 'provider',
    });
    // This process answers from what it keeps; other instances once the write has landed.
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
      from: 'cache',
    });
    expect(writes).toEqual([]);
    let settled = false;
    const settling = lookups.settled().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    release();
    await settling;
    expect(writes).toEqual([lookupKey(SECRET, NUMBER)]);
    expect(await service().lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
      from: 'cache',
    });
    expect(api.received).toHaveLength(1);
  });

  it("a read ahead is the lookup's read of the shared cache: it is not read again", async () => {
    const counting = countingCache();
    const lookups = service({ cache: counting.cache });
    const request = { e164: NUMBER, mode: 'live' as const, parts: BOTH };
    const ahead = lookups.readAhead(request);
    expect(ahead?.shared).not.toBeNull();
    expect(counting.reads).toBe(1);
    expect(api.received).toHaveLength(0);
    expect(await lookups.lookup({ ...request, ahead })).toMatchObject({ ok: true, from: 'provider' });
    expect(counting.reads).toBe(1);
    expect(api.received).toHaveLength(1);
    // Nothing to read: parts this process holds, a test key.
    expect(lookups.readAhead(request)).toEqual({ key: lookupKey(SECRET, NUMBER), shared: null });
    expect(lookups.readAhead({ ...request, mode: 'test' })).toBeNull();
    // Another instance's read ahead finds what this one wrote.
    await lookups.settled();
    const other = service();
    const found = other.readAhead(request);
    expect(await other.lookup({ ...request, ahead: found })).toMatchObject({ ok: true, from: 'cache' });
    expect(api.received).toHaveLength(1);
  });

  it('a hang ends at the budget as a failure, and the next send asks again', async () => {
    answer = () => ({ hang: true });
    const lookups = service({ budgetMs: 200 });
    const started = performance.now();
    const outcome = await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH });
    const took = performance.now() - started;
    expect(outcome).toEqual({
      ok: false,
      retryable: true,
      error: 'twilio did not answer within 200 ms',
      facts: null,
    });
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(1500);
    answer = () => ({ json: twilioAnswer() });
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({ ok: true });
  });

  it('a failure carries the parts the cache still held', async () => {
    const lookups = service();
    await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH });
    clock.advance(HOUR_MS);
    answer = () => ({ status: 503, raw: 'busy', contentType: 'text/plain' });
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
      ok: false,
      retryable: true,
      facts: { lineType: 'mobile', carrier: 'Vodafone UK', lastSimChange: null },
    });
  });

  it('opens the circuit after repeated failures, skips the provider while open, then tries again', async () => {
    answer = () => ({ status: 500, json: {} });
    const lookups = service({ breaker: { failures: 3, cooldownMs: 30_000 } });
    for (let i = 0; i < 3; i++)
      expect(await lookups.lookup({ e164: `+4477720000${10 + i}`, mode: 'live', parts: LINE })).toMatchObject(
        { ok: false },
      );
    expect(api.received).toHaveLength(3);
    const skipped = await lookups.lookup({ e164: '+447772000020', mode: 'live', parts: LINE });
    expect(skipped).toMatchObject({
      ok: false,
      error: 'twilio is skipped after repeated failures (circuit open)',
    });
    expect(api.received).toHaveLength(3);
    clock.advance(30_000);
    answer = () => ({ json: twilioAnswer() });
    expect(await lookups.lookup({ e164: '+447772000020', mode: 'live', parts: LINE })).toMatchObject({
      ok: true,
    });
    expect(api.received).toHaveLength(4);
  });

  it('hangs count against the circuit too', async () => {
    answer = () => ({ hang: true });
    const lookups = service({ budgetMs: 100, breaker: { failures: 2, cooldownMs: 30_000 } });
    await lookups.lookup({ e164: '+447772000031', mode: 'live', parts: LINE });
    await lookups.lookup({ e164: '+447772000032', mode: 'live', parts: LINE });
    const started = performance.now();
    expect(await lookups.lookup({ e164: '+447772000033', mode: 'live', parts: LINE })).toMatchObject({
      error: expect.stringContaining('circuit open'),
    });
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('a test key never reaches the provider: the test numbers answer, deterministically', async () => {
    const lookups = service();
    const now = clock.now();
    expect(await lookups.lookup({ e164: '+447700900001', mode: 'test', parts: LINE })).toMatchObject({
      ok: true,
      from: 'test',
      facts: { lineType: 'voip', mcc: null },
    });
    expect(await lookups.lookup({ e164: '+447700900010', mode: 'test', parts: BOTH })).toMatchObject({
      ok: true,
      facts: { lineType: 'mobile', lastSimChange: { at: now - 2 * HOUR_MS } },
    });
    expect(await lookups.lookup({ e164: '+447700900020', mode: 'test', parts: LINE })).toMatchObject({
      ok: false,
      facts: null,
    });
    expect(await lookups.lookup({ e164: '+14155550123', mode: 'test', parts: BOTH })).toMatchObject({
      ok: true,
      facts: { lineType: 'mobile', country: null, lastSimChange: null },
    });
    // The SIM part only when asked.
    expect(await lookups.lookup({ e164: '+447700900010', mode: 'test', parts: LINE })).toMatchObject({
      facts: { lastSimChange: null },
    });
    expect(api.received).toHaveLength(0);
    expect(Object.keys(TEST_NUMBERS).every((n) => /^\+447700900\d{3}$/.test(n))).toBe(true);
  });

  it('without a provider a live lookup fails (the account asked for one the deployment lacks)', async () => {
    expect(await service({ provider: null }).lookup({ e164: NUMBER, mode: 'live', parts: LINE })).toEqual({
      ok: false,
      retryable: false,
      error: 'no lookup provider is configured (LOOKUP_PROVIDER)',
      facts: null,
    });
  });

  it('never asks a provider for a part it cannot tell (Telnyx knows no SIM changes)', async () => {
    answer = () => ({ json: { data: { country_code: 'GB', carrier: { name: 'EE', type: 'mobile' } } } });
    const lookups = service({ provider: new TelnyxLookup({ apiKey: 'k', baseUrl: api.url }) });
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
      ok: true,
      facts: { lineType: 'mobile', carrier: 'EE', lastSimChange: null },
    });
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH })).toMatchObject({
      from: 'cache',
    });
    expect(api.received).toHaveLength(1);
  });

  it('a cache that fails is told of and skipped: the provider answers', async () => {
    const errors: string[] = [];
    const broken: LookupCacheStore = {
      get: () => Promise.reject(new Error('down')),
      put: () => Promise.reject(new Error('down')),
      sweep: () => Promise.resolve(0),
      claim: () => Promise.reject(new Error('down')),
      release: () => Promise.reject(new Error('down')),
    };
    const lookups = service({ cache: broken, onCacheError: (_, op) => errors.push(op) });
    expect(await lookups.lookup({ e164: NUMBER, mode: 'live', parts: LINE })).toMatchObject({
      ok: true,
      from: 'provider',
    });
    await lookups.settled();
    expect(errors).toEqual(['get', 'put']);
  });

  it('a provider that throws is a failure, not a throw', async () => {
    const throwing: LookupProvider = {
      name: 'throwing',
      parts: BOTH,
      lookup: () => Promise.reject(new TypeError('bug')),
    };
    expect(
      await service({ provider: throwing }).lookup({ e164: NUMBER, mode: 'live', parts: LINE }),
    ).toMatchObject({
      ok: false,
      error: 'throwing failed (TypeError)',
    });
  });

  describe('known: what the contact profile reads, never a provider', () => {
    it('is null before any lookup, then the fresh parts with when each was looked up', async () => {
      const lookups = service();
      expect(await lookups.known(NUMBER, 'live')).toBeNull();
      await lookups.lookup({ e164: NUMBER, mode: 'live', parts: BOTH });
      const asked = api.received.length;
      const now = clock.now();
      expect(await lookups.known(NUMBER, 'live')).toMatchObject({
        facts: { lineType: 'mobile', carrier: 'Vodafone UK' },
        lineCheckedAt: now,
        simCheckedAt: now,
      });
      // An hour on the SIM part is stale: the line part alone is known.
      clock.advance(HOUR_MS);
      expect(await lookups.known(NUMBER, 'live')).toMatchObject({
        facts: { lineType: 'mobile', lastSimChange: null },
        lineCheckedAt: now,
        simCheckedAt: null,
      });
      expect(api.received.length).toBe(asked);
    });

    it("reads another instance's lookup from the shared cache", async () => {
      await lookedUpAndStored(NUMBER, LINE);
      const other = service();
      expect(await other.known(NUMBER, 'live')).toMatchObject({
        facts: { lineType: 'mobile' },
        simCheckedAt: null,
      });
      expect(api.received).toHaveLength(1);
    });

    it("answers a test key's number from the test numbers", async () => {
      expect(await service().known('+447700900001', 'test')).toMatchObject({ facts: { lineType: 'voip' } });
      expect(await service().known('+447700900020', 'test')).toBeNull();
      expect(api.received).toHaveLength(0);
    });
  });
});
