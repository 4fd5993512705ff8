import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BreakerState } from '../../src/domain/pumping-breaker.js';
import type { Store } from '../../src/store/factory.js';
import type { StoreHarness } from './conformance.js';
import { claimAll, DAY, MINUTE, successOf, T0, verification } from './fixtures.js';

const HOUR = 3_600_000;

/**
 * The rest of every storage interface, on every backend: the store's own lifecycle, account
 * logos, refusals, the SMS-pumping breakers, webhook endpoints and their delivery queue, the
 * idempotency claims of send-code, and the instance registry.
 */
export function aggregatesConformance(name: string, harness: StoreHarness): void {
  describe(`Aggregates conformance: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await harness.open();
      await store.accounts.createAccount({ id: 'acc_1', name: 'One', settings: {}, createdAt: T0 });
    });
    afterEach(() => harness.close(store));

    describe('lifecycle', () => {
      it('answers a health check, and migrating a migrated database applies nothing', async () => {
        expect(await store.check()).toBe(true);
        expect(await store.migrate()).toEqual([]);
        expect(await store.check()).toBe(true);
      });
    });

    describe('account logos', () => {
      it('keeps, replaces and deletes the logo of one account only', async () => {
        await store.accounts.createAccount({ id: 'acc_2', name: 'Two', settings: {}, createdAt: T0 });
        expect(await store.accounts.getAccountLogo('acc_1')).toBeNull();
        const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
        await store.accounts.putAccountLogo('acc_1', { contentType: 'image/png', data: png, updatedAt: T0 });
        const stored = await store.accounts.getAccountLogo('acc_1');
        expect(stored).toEqual({ contentType: 'image/png', data: png, updatedAt: T0 });
        expect(Buffer.isBuffer(stored?.data)).toBe(true);
        expect(await store.accounts.getAccountLogo('acc_2')).toBeNull();

        const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
        await store.accounts.putAccountLogo('acc_1', {
          contentType: 'image/svg+xml',
          data: svg,
          updatedAt: T0 + 1,
        });
        expect(await store.accounts.getAccountLogo('acc_1')).toEqual({
          contentType: 'image/svg+xml',
          data: svg,
          updatedAt: T0 + 1,
        });

        await store.accounts.deleteAccountLogo('acc_1');
        expect(await store.accounts.getAccountLogo('acc_1')).toBeNull();
        // Deleting what is not there is no error.
        await store.accounts.deleteAccountLogo('acc_1');
      });
    });

    describe('refusals', () => {
      it('counts refusals per hour, reason and group, apart per account and mode', async () => {
        const at = T0 - (T0 % HOUR) + 5 * MINUTE;
        const refusal = {
          accountId: 'acc_1',
          mode: 'live' as const,
          at,
          channel: 'SMS' as const,
          country: 'US',
          purpose: 'login',
          reason: 'risk',
        };
        await store.readModel.recordRefusal(refusal);
        await store.readModel.recordRefusal({ ...refusal, at: at + 10 * MINUTE });
        await store.readModel.recordRefusal({ ...refusal, reason: 'limit:send' });
        await store.readModel.recordRefusal({ ...refusal, channel: 'EMAIL', country: null });
        await store.readModel.recordRefusal({ ...refusal, at: at + HOUR });
        await store.readModel.recordRefusal({ ...refusal, mode: 'test' });
        await store.readModel.recordRefusal({ ...refusal, accountId: 'acc_2' });

        const hour = at - (at % HOUR);
        const query = {
          accountId: 'acc_1',
          mode: 'live' as const,
          from: hour,
          to: hour + 2 * HOUR,
          intervalMs: HOUR,
        };
        const byChannel = await store.readModel.analytics({ ...query, groupBy: 'channel' });
        expect(byChannel.refusals).toEqual([
          { start: hour, group: 'EMAIL', reason: 'risk', count: 1 },
          { start: hour, group: 'SMS', reason: 'limit:send', count: 1 },
          { start: hour, group: 'SMS', reason: 'risk', count: 2 },
          { start: hour + HOUR, group: 'SMS', reason: 'risk', count: 1 },
        ]);
        const byCountry = await store.readModel.analytics({ ...query, groupBy: 'country' });
        expect(byCountry.refusals.filter((r) => r.start === hour)).toEqual([
          { start: hour, group: '', reason: 'risk', count: 1 },
          { start: hour, group: 'US', reason: 'limit:send', count: 1 },
          { start: hour, group: 'US', reason: 'risk', count: 2 },
        ]);
        const testMode = await store.readModel.analytics({ ...query, mode: 'test' });
        expect(testMode.refusals).toEqual([{ start: hour, group: '', reason: 'risk', count: 1 }]);
        const everyAccount = await store.readModel.analytics({ ...query, accountId: undefined });
        expect(everyAccount.refusals.find((r) => r.start === hour && r.reason === 'risk')?.count).toBe(4);
      });
    });

    describe('SMS-pumping breakers', () => {
      const breaker = (overrides: Partial<BreakerState> = {}): BreakerState => ({
        accountId: 'acc_1',
        mode: 'live',
        country: 'US',
        trippedAt: null,
        detail: null,
        resetAt: null,
        baseline: null,
        ...overrides,
      });

      it('saves, reads back and replaces the breaker of one account, mode and country', async () => {
        expect(await store.readModel.getBreaker('acc_1', 'live', 'US')).toBeNull();
        const tripped = breaker({ trippedAt: T0, detail: '40 sends, 1 verified' });
        await store.readModel.saveBreaker(tripped);
        expect(await store.readModel.getBreaker('acc_1', 'live', 'US')).toEqual(tripped);
        expect(await store.readModel.getBreaker('acc_1', 'test', 'US')).toBeNull();
        expect(await store.readModel.getBreaker('acc_1', 'live', 'GB')).toBeNull();

        // A reset keeps the window's counts as its baseline (the country window starts over).
        const reset = breaker({
          resetAt: T0 + MINUTE,
          baseline: { hour: T0 - (T0 % HOUR), sent: 40, verified: 1 },
        });
        await store.readModel.saveBreaker(reset);
        expect(await store.readModel.getBreaker('acc_1', 'live', 'US')).toEqual(reset);
      });

      it('lists the breakers of one account or all, only the tripped ones when asked', async () => {
        const a = breaker({ trippedAt: T0, detail: 'tripped' });
        const b = breaker({ country: 'GB' });
        const c = breaker({ mode: 'test', trippedAt: T0 + 1, detail: 'tripped too' });
        const d = breaker({ accountId: 'acc_2', country: 'FR', trippedAt: T0, detail: 'other account' });
        for (const s of [a, b, c, d]) await store.readModel.saveBreaker(s);
        expect(await store.readModel.listBreakers({ accountId: 'acc_1' })).toEqual([b, a, c]);
        expect(await store.readModel.listBreakers({ accountId: 'acc_1', trippedOnly: true })).toEqual([a, c]);
        expect(await store.readModel.listBreakers({ trippedOnly: true })).toEqual([a, c, d]);
        expect(await store.readModel.listBreakers({})).toHaveLength(4);
      });
    });

    describe('webhook endpoints and deliveries', () => {
      const endpoint = (id: string, accountId = 'acc_1') =>
        store.webhooks.createEndpoint({
          id,
          accountId,
          url: `https://${id}.example.com/hook`,
          events: ['verification.created', 'verification.verified'],
          enabled: true,
          sealedSecret: `sealed-${id}`,
          createdAt: T0,
        });
      /** A delivery of one send to each enabled endpoint, queued by the fold. */
      const queueOne = async () => {
        await store.verifications.createVerifications([verification({ createdAt: T0 })]);
        await store.readModel.fold(1000);
      };

      it('creates, lists, reads, updates and deletes endpoints', async () => {
        const one = await endpoint('wh_1');
        expect(one).toMatchObject({
          id: 'wh_1',
          accountId: 'acc_1',
          url: 'https://wh_1.example.com/hook',
          events: ['verification.created', 'verification.verified'],
          enabled: true,
          disabledReason: null,
          failingSince: null,
          createdAt: T0,
        });
        await store.accounts.createAccount({ id: 'acc_2', name: 'Two', settings: {}, createdAt: T0 });
        await endpoint('wh_2', 'acc_2');
        expect((await store.webhooks.listEndpoints()).map((e) => e.id)).toEqual(['wh_1', 'wh_2']);
        expect((await store.webhooks.listEndpoints('acc_2')).map((e) => e.id)).toEqual(['wh_2']);
        expect(await store.webhooks.getEndpoint('wh_1')).toEqual(one);
        expect(await store.webhooks.getEndpoint('wh_none')).toBeNull();

        const updated = await store.webhooks.updateEndpoint('wh_1', {
          url: 'https://moved.example.com/hook',
          events: ['verification.verified'],
          enabled: false,
        });
        expect(updated).toMatchObject({
          url: 'https://moved.example.com/hook',
          events: ['verification.verified'],
          enabled: false,
        });
        expect(await store.webhooks.updateEndpoint('wh_none', { enabled: true })).toBeNull();

        expect(await store.webhooks.deleteEndpoint('wh_1', T0 + 1)).toBe(true);
        expect(await store.webhooks.deleteEndpoint('wh_1', T0 + 2)).toBe(false);
        expect((await store.webhooks.listEndpoints()).map((e) => e.id)).toEqual(['wh_2']);
      });

      it('replaces a sealed secret only if it is still the expected one', async () => {
        await endpoint('wh_1');
        await endpoint('wh_2');
        await store.webhooks.deleteEndpoint('wh_2', T0);
        expect(await store.webhooks.sealedSecrets()).toEqual([{ id: 'wh_1', sealedSecret: 'sealed-wh_1' }]);
        expect(await store.webhooks.replaceSealedSecret('wh_1', 'stale', 'next')).toBe(false);
        expect(await store.webhooks.replaceSealedSecret('wh_1', 'sealed-wh_1', 'next')).toBe(true);
        expect(await store.webhooks.sealedSecrets()).toEqual([{ id: 'wh_1', sealedSecret: 'next' }]);
      });

      it('records attempts: a success settles a delivery, a failure schedules the next, a replay sends it again', async () => {
        await endpoint('wh_1');
        await queueOne();
        const [due] = await store.webhooks.claimDue(claimAll());
        expect(due).toMatchObject({
          endpointId: 'wh_1',
          eventType: 'verification.created',
          status: 'pending',
        });
        expect(JSON.parse(due!.payload).type).toBe('verification.created');
        expect(due!.sealedSecret).toBe('sealed-wh_1');
        // Leased: a second claim finds nothing.
        expect(await store.webhooks.claimDue(claimAll())).toEqual([]);

        const failure = {
          deliveryId: due!.id,
          endpointId: 'wh_1',
          now: T0 + MINUTE,
          ok: false,
          responseStatus: 500,
          error: 'HTTP 500',
          slow: true,
          nextAttemptAt: T0 + 2 * MINUTE,
          disableBefore: T0 - DAY,
          disabledReason: 'failing for a day',
        };
        expect(await store.webhooks.recordAttempt(failure)).toEqual({ endpointDisabled: false });
        const [failed] = await store.webhooks.listDeliveries('wh_1', 10);
        expect(failed).toMatchObject({
          status: 'pending',
          attempts: 1,
          nextAttemptAt: T0 + 2 * MINUTE,
          responseStatus: 500,
          lastError: 'HTTP 500',
          lastAttemptAt: T0 + MINUTE,
        });
        expect((await store.webhooks.getEndpoint('wh_1'))?.failingSince).toBe(T0 + MINUTE);
        // One timeout in a row: in the slow lane from one, not from two.
        expect(await store.webhooks.countSlowEndpoints(1)).toBe(1);
        expect(await store.webhooks.countSlowEndpoints(2)).toBe(0);

        const [again] = await store.webhooks.claimDue(claimAll());
        expect(again?.id).toBe(due!.id);
        expect(
          await store.webhooks.recordAttempt({
            ...failure,
            now: T0 + 3 * MINUTE,
            ok: true,
            responseStatus: 204,
            error: null,
            slow: false,
          }),
        ).toEqual({ endpointDisabled: false });
        const [succeeded] = await store.webhooks.listDeliveries('wh_1', 10);
        expect(succeeded).toMatchObject({ status: 'succeeded', attempts: 2, responseStatus: 204 });
        expect(await store.webhooks.getEndpoint('wh_1')).toMatchObject({ failingSince: null, enabled: true });
        expect(await store.webhooks.countSlowEndpoints(1)).toBe(0);

        const replayed = await store.webhooks.replayDelivery('wh_1', due!.id, T0 + 4 * MINUTE);
        expect(replayed).toMatchObject({ id: due!.id, status: 'pending', nextAttemptAt: T0 + 4 * MINUTE });
        expect(await store.webhooks.replayDelivery('wh_other', due!.id, T0)).toBeNull();
        expect((await store.webhooks.claimDue(claimAll())).map((d) => d.id)).toEqual([due!.id]);
      });

      it('records the successes of one turn as if one by one: the slow streak after the last prompt one', async () => {
        await endpoint('wh_1');
        for (let i = 0; i < 5; i++) await queueOne();
        const due = await store.webhooks.claimDue(claimAll());
        expect(due).toHaveLength(5);
        const [first, ...rest] = due as [(typeof due)[number], ...typeof due];
        const attempt = (id: string, ok: boolean, slow: boolean) => ({
          deliveryId: id,
          endpointId: 'wh_1',
          now: T0 + MINUTE,
          ok,
          responseStatus: ok ? 200 : 500,
          error: ok ? null : 'HTTP 500',
          slow,
          nextAttemptAt: ok ? null : T0 + 2 * MINUTE,
          disableBefore: T0 - DAY,
          disabledReason: 'failing for a day',
        });
        await store.webhooks.recordAttempt(attempt(first.id, false, false));
        expect((await store.webhooks.getEndpoint('wh_1'))?.failingSince).toBe(T0 + MINUTE);
        // In one turn, in this order: slow, prompt, slow, slow. One by one the streak goes 1, 0, 1, 2.
        const kinds = [true, false, true, true];
        await Promise.all(rest.map((d, i) => store.webhooks.recordAttempt(attempt(d.id, true, kinds[i]!))));
        expect(await store.webhooks.getEndpoint('wh_1')).toMatchObject({ failingSince: null, enabled: true });
        expect(await store.webhooks.countSlowEndpoints(2)).toBe(1);
        expect(await store.webhooks.countSlowEndpoints(3)).toBe(0);
        const byId = new Map((await store.webhooks.listDeliveries('wh_1', 10)).map((d) => [d.id, d]));
        for (const d of rest) expect(byId.get(d.id)).toMatchObject({ status: 'succeeded', attempts: 1 });

        // Slow ones only: the streak grows by each (2 + 2). The failed one is due again: left out.
        for (let i = 0; i < 2; i++) await queueOne();
        const more = (await store.webhooks.claimDue(claimAll())).filter((d) => d.id !== first.id);
        expect(more).toHaveLength(2);
        await Promise.all(more.map((d) => store.webhooks.recordAttempt(attempt(d.id, true, true))));
        expect(await store.webhooks.countSlowEndpoints(4)).toBe(1);
        expect(await store.webhooks.countSlowEndpoints(5)).toBe(0);
      });

      it('disables an endpoint failing since before the limit and abandons its deliveries', async () => {
        await endpoint('wh_1');
        await queueOne();
        const [due] = await store.webhooks.claimDue(claimAll());
        const failure = {
          deliveryId: due!.id,
          endpointId: 'wh_1',
          now: T0,
          ok: false,
          responseStatus: null,
          error: 'connection refused',
          slow: false,
          nextAttemptAt: T0 + MINUTE,
          disableBefore: T0 - DAY,
          disabledReason: 'failing for a day',
        };
        expect(await store.webhooks.recordAttempt(failure)).toEqual({ endpointDisabled: false });
        await store.webhooks.claimDue(claimAll());
        expect(
          await store.webhooks.recordAttempt({ ...failure, now: T0 + 2 * DAY, disableBefore: T0 + DAY }),
        ).toEqual({ endpointDisabled: true });
        expect(await store.webhooks.getEndpoint('wh_1')).toMatchObject({
          enabled: false,
          disabledReason: 'failing for a day',
        });
        expect((await store.webhooks.listDeliveries('wh_1', 10))[0]?.status).toBe('failed');
        // Enabling clears the failure record.
        expect(await store.webhooks.updateEndpoint('wh_1', { enabled: true })).toMatchObject({
          enabled: true,
          disabledReason: null,
          failingSince: null,
        });
      });

      it('sweeps finished deliveries created before the cutoff, in batches, never a pending one', async () => {
        await endpoint('wh_1');
        for (let i = 0; i < 3; i++) await queueOne();
        const claimed = await store.webhooks.claimDue(claimAll());
        expect(claimed).toHaveLength(3);
        for (const d of claimed.slice(0, 2)) await store.webhooks.recordAttempt(successOf(d.id, 'wh_1', T0));
        const later = Date.now() + DAY;
        expect(await store.webhooks.sweep(later, 1)).toBe(1);
        expect(await store.webhooks.sweep(later, 10)).toBe(1);
        expect(await store.webhooks.sweep(later, 10)).toBe(0);
        expect((await store.webhooks.listDeliveries('wh_1', 10)).map((d) => d.status)).toEqual(['pending']);
      });
    });

    describe('idempotency claims', () => {
      const request = (overrides = {}) => ({
        scope: 'key:key_1',
        key: 'idem-1',
        fingerprint: 'f1',
        claim: 'c1',
        now: T0,
        leaseMs: 30_000,
        expiredBefore: T0 - DAY,
        ...overrides,
      });

      it('claims a key once, replays its answer, and refuses another body', async () => {
        expect(await store.idempotency.claim(request())).toEqual({ kind: 'claimed' });
        expect(await store.idempotency.claim(request({ claim: 'c2' }))).toEqual({ kind: 'in_use' });
        expect(await store.idempotency.claim(request({ claim: 'c2', fingerprint: 'f2' }))).toEqual({
          kind: 'mismatch',
        });
        // Another scope is another key space.
        expect(await store.idempotency.claim(request({ scope: 'key:key_2', claim: 'c3' }))).toEqual({
          kind: 'claimed',
        });
        // An answer stored under a lost claim is ignored.
        await store.idempotency.complete('key:key_1', 'idem-1', 'not-mine', 500, '{}');
        await store.idempotency.complete('key:key_1', 'idem-1', 'c1', 200, '{"ok":true}');
        expect(await store.idempotency.claim(request({ claim: 'c4', now: T0 + 1 }))).toEqual({
          kind: 'replay',
          status: 200,
          body: '{"ok":true}',
        });
      });

      it('frees a released key and takes over one whose lease ended', async () => {
        await store.idempotency.claim(request());
        await store.idempotency.release('key:key_1', 'idem-1', 'someone-else');
        expect(await store.idempotency.claim(request({ claim: 'c2' }))).toEqual({ kind: 'in_use' });
        await store.idempotency.release('key:key_1', 'idem-1', 'c1');
        expect(await store.idempotency.claim(request({ claim: 'c2' }))).toEqual({ kind: 'claimed' });
        // c2's lease ends: c3 takes the key over, and c2's answer no longer lands.
        expect(await store.idempotency.claim(request({ claim: 'c3', now: T0 + 60_000 }))).toEqual({
          kind: 'claimed',
        });
        await store.idempotency.complete('key:key_1', 'idem-1', 'c2', 200, 'late');
        await store.idempotency.complete('key:key_1', 'idem-1', 'c3', 201, 'mine');
        expect(await store.idempotency.claim(request({ claim: 'c4', now: T0 + 61_000 }))).toEqual({
          kind: 'replay',
          status: 201,
          body: 'mine',
        });
      });

      it('treats a key past 24 hours as absent, and sweeps old keys in batches', async () => {
        await store.idempotency.claim(request({ key: 'a' }));
        await store.idempotency.claim(request({ key: 'b' }));
        await store.idempotency.claim(request({ key: 'c', now: T0 + DAY }));
        await store.idempotency.complete('key:key_1', 'a', 'c1', 200, 'old');
        expect(
          await store.idempotency.claim(
            request({ key: 'a', claim: 'c9', now: T0 + 2 * DAY, expiredBefore: T0 + 1 }),
          ),
        ).toEqual({ kind: 'claimed' });
        // Left: b (T0), a (T0 + 2 days), c (T0 + 1 day).
        expect(await store.idempotency.sweep(T0 + DAY, 10)).toBe(1);
        expect(await store.idempotency.sweep(T0 + 3 * DAY, 1)).toBe(1);
        expect(await store.idempotency.sweep(T0 + 3 * DAY, 10)).toBe(1);
        expect(await store.idempotency.sweep(T0 + 3 * DAY, 10)).toBe(0);
      });
    });

    describe('instance registry', () => {
      const instance = (id: string, overrides = {}) => ({
        id,
        host: 'host-a',
        pid: 4242,
        version: '1.2.3',
        redis: false,
        startedAt: T0,
        seenAt: T0,
        ...overrides,
      });

      it('registers instances, renews them, lists those seen lately, and removes one that leaves', async () => {
        await store.instances.heartbeat(instance('i-1'));
        await store.instances.heartbeat(instance('i-2', { host: 'host-b', redis: true, startedAt: T0 + 1 }));
        expect(await store.instances.seenSince(T0)).toEqual([
          instance('i-1'),
          instance('i-2', { host: 'host-b', redis: true, startedAt: T0 + 1 }),
        ]);
        // A heartbeat renews seenAt only: what an instance is does not change while it runs.
        await store.instances.heartbeat(
          instance('i-1', { seenAt: T0 + MINUTE, host: 'other', startedAt: 5 }),
        );
        expect(await store.instances.seenSince(T0 + 1)).toEqual([instance('i-1', { seenAt: T0 + MINUTE })]);
        await store.instances.leave('i-1');
        await store.instances.leave('no-such-instance');
        expect((await store.instances.seenSince(0)).map((i) => i.id)).toEqual(['i-2']);
      });

      it('sweeps the instances unseen since a time, in batches', async () => {
        for (const [id, seenAt] of [
          ['old-1', T0],
          ['old-2', T0 + 1],
          ['fresh', T0 + DAY],
        ] as const)
          await store.instances.heartbeat(instance(id, { seenAt }));
        expect(await store.instances.sweep(T0 + DAY, 1)).toBe(1);
        expect(await store.instances.sweep(T0 + DAY, 10)).toBe(1);
        expect(await store.instances.sweep(T0 + DAY, 10)).toBe(0);
        expect((await store.instances.seenSince(0)).map((i) => i.id)).toEqual(['fresh']);
      });
    });
  });
}
