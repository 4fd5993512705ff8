import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import type { ClaimRequest, DueDelivery } from '../../src/domain/ports/webhooks.js';
import type { Store } from '../../src/store/factory.js';
import { openStore } from '../../src/store/factory.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { T0, verification } from './fixtures.js';

const backends = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
].filter((b) => !b.postgres || hasPostgres);

const NOW = T0 + 60_000;
const LEASE = 30_000;

/**
 * The claims of the webhook worker's pools, on each store: the in-flight cap of an endpoint counts
 * the live leases of every instance, an endpoint that keeps timing out is served one attempt at a
 * time in the slow lane until a success, and claims made at once by two instances on one database
 * never pass a cap together.
 */
describe.each(backends)('webhook claims ($name)', ({ postgres }) => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-claims-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let db: TestDatabase | undefined;
  let files = 0;
  let url = '';
  const stores: Store[] = [];
  let store: Store;
  let a = '';
  let b = '';

  beforeEach(async () => {
    db = postgres ? await createTestDatabase() : undefined;
    url = db?.url ?? `sqlite:${join(dir, `${++files}.db`)}`;
    store = await open();
    await store.accounts.createAccount({ id: 'acc_1', name: 'one', settings: {}, createdAt: T0 });
    a = await endpoint('wh_a');
    b = await endpoint('wh_b');
    // Six sends: a verification.created each in the change log, a delivery each for both endpoints.
    await send(6);
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    await db?.drop();
  });

  const endpoint = async (id: string) =>
    (
      await store.webhooks.createEndpoint({
        id,
        accountId: 'acc_1',
        url: `https://${id}.example.com/hook`,
        events: ['verification.created'],
        enabled: true,
        sealedSecret: 'v1.sealed',
        createdAt: T0,
      })
    ).id;
  /** `count` sends, folded: a delivery of each for every endpoint there is. */
  let sends = 0;
  async function send(count: number) {
    await store.verifications.createVerifications(
      Array.from({ length: count }, () => verification({ accountId: 'acc_1', createdAt: T0 + sends++ })),
    );
    expect(await store.readModel.fold(100)).toBe(count);
  }

  async function open() {
    // The fold queues deliveries due at its clock's time: before the claims' NOW.
    const s = await openStore(url, { clock: new ManualClock(T0 + 1000) });
    stores.push(s);
    return s;
  }
  const claim = (c: Partial<ClaimRequest> = {}, on: Store = store) =>
    on.webhooks.claimDue({
      now: NOW,
      leaseUntil: NOW + LEASE,
      main: 100,
      held: {},
      slow: 10,
      perEndpoint: 2,
      slowAfter: 2,
      ...c,
    });
  const of = (due: DueDelivery[], endpointId: string) => due.filter((d) => d.endpointId === endpointId);
  /** `late`: a success that took longer than the slow threshold. */
  const record = (d: DueDelivery, outcome: 'ok' | 'late' | 'timeout' | 'error', now = NOW) => {
    const ok = outcome === 'ok' || outcome === 'late';
    return store.webhooks.recordAttempt({
      deliveryId: d.id,
      endpointId: d.endpointId,
      now,
      ok,
      responseStatus: ok ? 200 : outcome === 'error' ? 500 : null,
      error: ok ? null : outcome,
      slow: outcome === 'timeout' || outcome === 'late',
      nextAttemptAt: ok ? null : now + 3_600_000,
      disableBefore: now - 86_400_000,
      disabledReason: 'failing',
    });
  };

  it('caps the attempts in flight per endpoint, counting live leases, oldest due first', async () => {
    const first = await claim();
    expect(of(first, a)).toHaveLength(2);
    expect(of(first, b)).toHaveLength(2);
    expect(first.every((d) => !d.slow && d.url.endsWith('.example.com/hook'))).toBe(true);
    // Every endpoint is at its cap while the leases live.
    expect(await claim()).toEqual([]);

    // One attempt recorded frees one slot of its endpoint, and only that one.
    await record(of(first, a)[0] as DueDelivery, 'ok');
    const next = await claim();
    expect(next.map((d) => d.endpointId)).toEqual([a]);

    // The free slots of the lane bound a claim.
    await record(of(first, b)[0] as DueDelivery, 'ok');
    await record(of(first, b)[1] as DueDelivery, 'ok');
    expect(await claim({ main: 1 })).toHaveLength(1);

    // A lease that ran out (its instance died) counts no more, and its delivery is due again.
    const later = await claim({ now: NOW + LEASE, leaseUntil: NOW + 2 * LEASE });
    expect(of(later, a)).toHaveLength(2);
    expect(of(later, b)).toHaveLength(2);
  });

  it('serves an endpoint that keeps timing out one attempt at a time in the slow lane, until a success', async () => {
    const first = await claim();
    for (const d of of(first, a)) await record(d, 'timeout');
    expect(await store.webhooks.countSlowEndpoints(2)).toBe(1);
    expect(await store.webhooks.countSlowEndpoints(3)).toBe(0);

    // The main lane no longer takes it, however many slots are free.
    for (const d of of(first, b)) await record(d, 'ok');
    const main = await claim({ slow: 0 });
    expect(main.map((d) => d.endpointId)).toEqual([b, b]);
    // The slow lane takes one of its deliveries at a time.
    const slow = await claim({ main: 0 });
    expect(slow.map((d) => [d.endpointId, d.slow])).toEqual([[a, true]]);
    expect(await claim({ main: 0 })).toEqual([]);

    // A failure that is not a timeout keeps it there; a success brings it back.
    await record(slow[0] as DueDelivery, 'error');
    const again = await claim({ main: 0 });
    expect(again.map((d) => [d.endpointId, d.slow])).toEqual([[a, true]]);
    await record(again[0] as DueDelivery, 'ok');
    expect(await store.webhooks.countSlowEndpoints(2)).toBe(0);
    const back = await claim({ slow: 0 });
    expect(back.map((d) => [d.endpointId, d.slow])).toEqual([
      [a, false],
      [a, false],
    ]);

    // Re-enabling an endpoint, or giving it a new URL, clears its timeouts too.
    for (const d of back) await record(d, 'timeout');
    expect(await store.webhooks.countSlowEndpoints(2)).toBe(1);
    await store.webhooks.updateEndpoint(a, { url: 'https://new.example.com/hook' });
    expect(await store.webhooks.countSlowEndpoints(2)).toBe(0);
  });

  it("gives an endpoint at most a fair share of the claiming instance's pool, one share kept for the next", async () => {
    // A pool of 6 shared by two endpoints: 2 each (6 / (2 + 1)), however high the cap; two slots
    // stay free.
    const first = await claim({ main: 6, perEndpoint: 6 });
    expect(of(first, a)).toHaveLength(2);
    expect(of(first, b)).toHaveLength(2);
    // While this instance holds them, neither gets another slot of its pool.
    const held = { [a]: 2, [b]: 2 };
    expect(await claim({ main: 2, held, perEndpoint: 6 })).toEqual([]);

    // An endpoint that comes next takes a free slot at once (its share: 6 / (3 + 1)).
    const c = await endpoint('wh_c');
    await send(2);
    expect((await claim({ main: 2, held, perEndpoint: 6 })).map((d) => d.endpointId)).toEqual([c]);

    // The shares are of the claiming instance's pool; the cap counts every instance's leases.
    const other = await open();
    const there = await claim({ main: 6, perEndpoint: 3 }, other);
    expect([of(there, a).length, of(there, b).length, of(there, c).length]).toEqual([1, 1, 1]);
    expect(await claim({ main: 6, perEndpoint: 3 }, other)).toEqual([]);

    // More endpoints than free slots: one slot each at most, the oldest due first.
    for (const d of [...first, ...there]) await record(d, 'ok');
    const one = await claim({ main: 1, perEndpoint: 6 });
    expect(one.map((d) => d.endpointId)).toEqual([a]);
  });

  it('counts a late success toward the slow lane as a timeout, and a prompt one clears the count', async () => {
    const first = await claim();
    for (const d of of(first, a)) await record(d, 'late');
    // Delivered, and slow: two slow attempts in a row.
    expect((await store.webhooks.listDeliveries(a, 10)).filter((d) => d.status === 'succeeded')).toHaveLength(
      2,
    );
    expect(await store.webhooks.countSlowEndpoints(2)).toBe(1);
    for (const d of of(first, b)) await record(d, 'ok');

    // In the slow lane one attempt at a time, and a late success keeps it there.
    const slow = await claim({ main: 0 });
    expect(slow.map((d) => [d.endpointId, d.slow])).toEqual([[a, true]]);
    expect((await claim({ slow: 0 })).map((d) => d.endpointId)).toEqual([b, b]);
    await record(slow[0] as DueDelivery, 'late');
    expect(await store.webhooks.countSlowEndpoints(3)).toBe(1);
    const again = await claim({ main: 0 });
    expect(again.map((d) => [d.endpointId, d.slow])).toEqual([[a, true]]);

    // A prompt success brings it back to the main lane.
    await record(again[0] as DueDelivery, 'ok');
    expect(await store.webhooks.countSlowEndpoints(1)).toBe(0);
    expect((await claim({ slow: 0 })).map((d) => [d.endpointId, d.slow])).toEqual([
      [a, false],
      [a, false],
    ]);
  });

  it('never passes a cap when claims run at once on two instances', async () => {
    const other = await open();
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => claim({ perEndpoint: 3, main: 2 }, i % 2 ? other : store)),
    );
    const burst = claims.flat();
    expect(of(burst, a).length).toBeLessThanOrEqual(3);
    expect(of(burst, b).length).toBeLessThanOrEqual(3);
    // A claim skips an endpoint another one holds at that moment: a later claim, on either
    // instance, fills the cap, and only the cap.
    const all = [...burst, ...(await claim({ perEndpoint: 3 }, other)), ...(await claim({ perEndpoint: 3 }))];
    expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
    expect(of(all, a)).toHaveLength(3);
    expect(of(all, b)).toHaveLength(3);
  });
});
