import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SilentFallback } from '../../src/domain/ports/silent-fallbacks.js';
import type { Store } from '../../src/store/factory.js';
import type { WebhookEventData } from '../../src/webhooks/events.js';
import type { StoreHarness } from './conformance.js';
import { claimAll, DAY, MINUTE, T0, verification } from './fixtures.js';

/**
 * The fallbacks of SILENT requests, on every backend: scheduled once, claimed by one caller at a
 * time (a lease that lapses if its claimer dies), finished once (a `fallback` change the fold
 * announces as verification.fallback, with its channel, request and reason, and counts as
 * fellBack), and swept once finished and old.
 */
export function silentFallbacksConformance(name: string, harness: StoreHarness): void {
  describe(`SILENT fallbacks conformance: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await harness.open();
      await store.accounts.createAccount({ id: 'acc_1', name: 'One', settings: {}, createdAt: T0 });
    });
    afterEach(() => harness.close(store));

    const fallbackOf = (requestId: string, over: Partial<SilentFallback> = {}): SilentFallback => ({
      requestId,
      accountId: 'acc_1',
      mode: 'live',
      channel: 'SMS',
      dueAt: T0 + 30_000,
      address: '+14155550123',
      destination: '+14155550123',
      country: 'US',
      purpose: 'login',
      customMessage: 'Hello',
      locale: 'en',
      ...over,
    });

    it('claims a due fallback once; a lapsed lease lets another claimer take it; finished, it is gone', async () => {
      const silent = verification({ channel: 'SILENT', destination: '+14155550123', country: 'US' });
      await store.verifications.createVerifications([silent]);
      await store.silentFallbacks.schedule(fallbackOf(silent.id));
      expect(await store.silentFallbacks.claimDue(T0 + 29_999, 10, MINUTE)).toEqual([]);
      const [claimed, ...more] = await store.silentFallbacks.claimDue(T0 + 30_000, 10, MINUTE);
      expect(more).toEqual([]);
      expect(claimed).toEqual(fallbackOf(silent.id));
      // Held: neither another run nor a claim at once takes it while the lease lasts.
      expect(await store.silentFallbacks.claimDue(T0 + 40_000, 10, MINUTE)).toEqual([]);
      expect(await store.silentFallbacks.claim(silent.id, T0 + 40_000, MINUTE)).toBeNull();
      // Its claimer died: after the lease, another takes it.
      expect(await store.silentFallbacks.claim(silent.id, T0 + 30_000 + MINUTE, MINUTE)).toMatchObject({
        requestId: silent.id,
      });
      expect(await store.silentFallbacks.get(silent.id)).toMatchObject({
        state: 'scheduled',
        siblingId: null,
      });

      const sibling = verification({
        groupId: silent.groupId,
        channel: 'SMS',
        destination: silent.destination,
      });
      await store.verifications.createVerifications([sibling]);
      await store.silentFallbacks.finish(
        silent.id,
        { state: 'fired', reason: 'timeout', siblingId: sibling.id },
        T0 + 100_000,
      );
      expect(await store.silentFallbacks.get(silent.id)).toEqual({
        requestId: silent.id,
        channel: 'SMS',
        state: 'fired',
        reason: 'timeout',
        siblingId: sibling.id,
        firedAt: T0 + 100_000,
      });
      // Finished once: a second finish (of either kind) changes nothing, nothing is claimed again.
      await store.silentFallbacks.finish(silent.id, { state: 'dropped' }, T0 + 200_000);
      expect((await store.silentFallbacks.get(silent.id))?.state).toBe('fired');
      expect(await store.silentFallbacks.claimDue(T0 + DAY, 10, MINUTE)).toEqual([]);
      expect(await store.silentFallbacks.claim(silent.id, T0 + DAY, MINUTE)).toBeNull();

      // The fold announces it once, with what it fell back to, and counts it.
      await store.webhooks.createEndpoint({
        id: 'we_silent',
        accountId: 'acc_1',
        url: 'https://example.com/hooks',
        events: ['verification.fallback'],
        enabled: true,
        sealedSecret: 'sealed',
        createdAt: T0,
      });
      await store.readModel.fold(10_000);
      const events = (await store.webhooks.claimDue(claimAll()))
        .filter((d) => d.endpointId === 'we_silent')
        .map((d) => (JSON.parse(d.payload) as { data: WebhookEventData }).data);
      expect(events).toEqual([
        expect.objectContaining({
          type: 'verification.fallback',
          requestId: silent.id,
          channel: 'SILENT',
          status: 'pending',
          fallback: { channel: 'SMS', requestId: sibling.id, reason: 'timeout' },
        }),
      ]);
      // The message and the destination are erased once it is finished.
      expect(JSON.stringify(events)).not.toContain('Hello');
      const { buckets } = await store.readModel.analytics({
        accountId: 'acc_1',
        mode: 'live',
        from: T0 - DAY,
        to: T0 + DAY,
        intervalMs: 3_600_000,
        groupBy: 'channel',
      });
      expect(buckets.find((b) => b.group === 'SILENT')?.fellBack).toBe(1);
      expect(buckets.find((b) => b.group === 'SMS')?.fellBack ?? 0).toBe(0);
    });

    it('drops a fallback whose silent request settled; sweeps finished ones past the retention', async () => {
      await store.silentFallbacks.schedule(fallbackOf('r-dropped'));
      await store.silentFallbacks.schedule(fallbackOf('r-waiting', { dueAt: T0 + DAY }));
      await store.silentFallbacks.finish('r-dropped', { state: 'dropped' }, T0 + 1000);
      expect(await store.silentFallbacks.get('r-dropped')).toMatchObject({ state: 'dropped', firedAt: null });
      expect(await store.silentFallbacks.claimDue(T0 + 60_000, 10, MINUTE)).toEqual([]);
      expect(await store.silentFallbacks.get('r-none')).toBeNull();
      // Only finished ones older than the cut-off go; a scheduled one stays whatever its age.
      expect(await store.silentFallbacks.sweep(T0 + 1000, 100)).toBe(0);
      expect(await store.silentFallbacks.sweep(T0 + 2 * DAY, 100)).toBe(1);
      expect(await store.silentFallbacks.get('r-dropped')).toBeNull();
      expect(await store.silentFallbacks.get('r-waiting')).toMatchObject({ state: 'scheduled' });
      // Claims are ordered by due time and bounded by the limit.
      await store.silentFallbacks.schedule(fallbackOf('r-early', { dueAt: T0 + 10 }));
      const claimed = await store.silentFallbacks.claimDue(T0 + 2 * DAY, 1, MINUTE);
      expect(claimed.map((f) => f.requestId)).toEqual(['r-early']);
    });
  });
}
