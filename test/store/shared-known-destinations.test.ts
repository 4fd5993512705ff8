import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/factory.js';
import { type DestinationPage, filterPositions } from '../../src/store/known-destinations.js';
import { SharedKnownDestinations } from '../../src/store/shared-known-destinations.js';
import { type FlakyProxy, startFlakyProxy } from '../support/flaky-proxy.js';
import { migratedTestDatabase } from '../support/postgres.js';
import { hasPostgres, hasRedis, REDIS_URL } from '../support/services.js';
import { waitFor } from '../support/wait.js';
import { T0, verification } from './fixtures.js';

/** An address nobody sent to: a check is a send's screen, and sets the bits of what it checks. */
const stranger = () => `stranger-${randomUUID()}@example.com`;
const secret = () => randomBytes(32).toString('base64url');
/** The Redis key of the filter of the database whose secret is `id`. */
const keyOf = (prefix: string, id: string) =>
  `${prefix}:destinations:${createHash('sha256')
    .update('destination filter name\u0000')
    .update(Buffer.from(id, 'base64url'))
    .digest('hex')
    .slice(0, 32)}`;

type Row = Awaited<ReturnType<DestinationPage>>[number];

/** The database's rows as pages (DestinationPage), counting the pages read. */
function database(destinations: string[]) {
  const rows: Row[] = destinations.map((d, i) => row(i, d));
  const reads = { pages: 0 };
  const page: DestinationPage = async (table, after, limit) => {
    reads.pages++;
    if (table === 'contacts') return [];
    return rows.filter((r) => r.id > after).slice(0, limit);
  };
  return { rows, reads, page };
}
const row = (i: number, destination: string): Row => ({
  id: `id-${String(i).padStart(6, '0')}`,
  account_id: 'acc_1',
  test: 0,
  destination,
});

describe.skipIf(!hasRedis)(
  'SharedKnownDestinations: one filter in Redis for the instances of a database',
  () => {
    const prefix = `test-${randomUUID()}`;
    const admin = new Redis(REDIS_URL);
    const open: SharedKnownDestinations[] = [];
    const proxies: FlakyProxy[] = [];

    /** An instance's filter on `url` (Redis itself by default), for the database of secret `id`. */
    async function instance(id: string, page: DestinationPage, url = REDIS_URL) {
      const filter = new SharedKnownDestinations(url, { prefix, pollMs: 50, settleMs: 0, bitsLog2: 20 });
      open.push(filter);
      await filter.connect();
      filter.identify(id);
      await filter.load(page);
      return filter;
    }
    const answering = (f: SharedKnownDestinations) =>
      waitFor(() => f.answering(), { what: 'the shared filter to be loaded' });
    const isNew = (f: SharedKnownDestinations, destination: string) =>
      f.certainlyNew('acc_1', 'live', destination, null);

    afterEach(() => {
      for (const f of open.splice(0)) f.stop();
    });
    afterAll(async () => {
      for (const p of proxies) await p.close();
      const keys = await admin.keys(`${prefix}:*`);
      if (keys.length > 0) await admin.del(...keys);
      admin.disconnect();
    });

    it('is loaded by one instance, and what any instance adds the others never answer as new', async () => {
      const id = secret();
      const db = database(['loaded@example.com']);
      const [a, b] = await Promise.all([instance(id, db.page), instance(id, db.page)]);
      await Promise.all([answering(a), answering(b)]);
      // One load of the verifications (a page) and the contacts (a page), by whichever won the lease.
      expect(db.reads.pages).toBe(2);
      expect(await isNew(a, 'loaded@example.com')).toBe(false);
      expect(await isNew(b, 'loaded@example.com')).toBe(false);
      expect(await isNew(b, stranger())).toBe(true);

      a.add('acc_1', 'live', 'added@example.com');
      // a's commands are answered in order: once a has its answer, its add has landed.
      expect(await isNew(a, 'added@example.com')).toBe(false);
      expect(await isNew(b, 'added@example.com')).toBe(false);
      // Another mode, another account: other destinations.
      expect(await b.certainlyNew('acc_1', 'test', 'added@example.com', null)).toBe(true);
      expect(await b.certainlyNew('acc_2', 'live', 'added@example.com', null)).toBe(true);
      // The positions are keyed with the database's secret: the unkeyed hashes of the address are
      // not what Redis holds, so Redis alone cannot be asked whether an address was sent to.
      const unkeyed = filterPositions('acc_1', 'live', 'added@example.com', 20);
      const held = await Promise.all(unkeyed.map((p) => admin.getbit(keyOf(prefix, id), 64 + p)));
      expect(held).not.toEqual(unkeyed.map(() => 1));
      // A phone number is never answered from the filter.
      expect(await b.certainlyNew('acc_1', 'live', '+447400123456', 'GB')).toBe(false);
    });

    it('keeps the filters of two databases apart, even on one Redis and prefix', async () => {
      const one = await instance(secret(), database([]).page);
      const other = await instance(secret(), database([]).page);
      await Promise.all([answering(one), answering(other)]);
      one.add('acc_1', 'live', 'only-in-one@example.com');
      expect(await isNew(one, 'only-in-one@example.com')).toBe(false);
      expect(await isNew(other, 'only-in-one@example.com')).toBe(true);
    });

    it('answers nothing from a key Redis lost, until an instance has loaded it again', async () => {
      const id = secret();
      const db = database(['held@example.com']);
      const a = await instance(id, db.page);
      await answering(a);
      a.add('acc_1', 'live', 'sent-later@example.com');
      db.rows.push(row(1, 'sent-later@example.com'));
      expect(await isNew(a, 'sent-later@example.com')).toBe(false);

      await admin.del(keyOf(prefix, id));
      // An add after the loss makes the key again, without its state: still not answered from.
      a.add('acc_1', 'live', 'after-loss@example.com');
      expect(await isNew(a, stranger())).toBe(false);

      await answering(a);
      expect(await isNew(a, 'held@example.com')).toBe(false);
      expect(await isNew(a, 'sent-later@example.com')).toBe(false);
      expect(await isNew(a, stranger())).toBe(true);
    });

    it('waits before a load reads, so a send whose add Redis lost is read once it has committed', async () => {
      const id = secret();
      const db = database([]);
      const f = new SharedKnownDestinations(REDIS_URL, { prefix, pollMs: 50, settleMs: 1000, bitsLog2: 20 });
      open.push(f);
      await f.connect();
      f.identify(id);
      await f.load(db.page);
      await answering(f);

      f.add('acc_1', 'live', 'in-flight@example.com');
      await f.answering(); // the add has landed
      await admin.del(keyOf(prefix, id));
      // The send commits after the loss, while the next load is settling.
      await new Promise((resolve) => setTimeout(resolve, 150));
      db.rows.push(row(0, 'in-flight@example.com'));

      await answering(f);
      expect(await isNew(f, 'in-flight@example.com')).toBe(false);
    });

    it('an add that may not have landed makes the key be loaded again before anyone answers for it', async () => {
      const id = secret();
      const db = database([]);
      const { hostname, port } = new URL(REDIS_URL);
      const proxy = await startFlakyProxy({ host: hostname, port: Number(port || 6379) });
      proxies.push(proxy);
      const flaky = await instance(id, db.page, `redis://127.0.0.1:${proxy.port}`);
      const steady = await instance(id, db.page);
      await Promise.all([answering(flaky), answering(steady)]);

      proxy.cut();
      await waitFor(async () => !(await flaky.answering()), { what: 'the cut instance to stop answering' });
      flaky.add('acc_1', 'live', 'lost@example.com');
      // Its request is written meanwhile: the database holds it, the filter does not.
      db.rows.push(row(0, 'lost@example.com'));
      expect(await isNew(flaky, 'lost@example.com')).toBe(false);
      proxy.restore();

      // Back, the cut instance first clears the key's state (so the other one stops answering
      // from it), then a load covers the destination it could not add.
      await waitFor(async () => !(await isNew(steady, 'lost@example.com')) && (await steady.answering()), {
        what: 'the key to be loaded again',
      });
      await answering(flaky);
      expect(await isNew(steady, 'lost@example.com')).toBe(false);
      expect(await isNew(flaky, 'lost@example.com')).toBe(false);
      expect(await isNew(steady, stranger())).toBe(true);
    });

    it("sets a send's bits at its screen, and at its write only when the screen's check failed", async () => {
      const id = secret();
      const { hostname, port } = new URL(REDIS_URL);
      const proxy = await startFlakyProxy({ host: hostname, port: Number(port || 6379) });
      proxies.push(proxy);
      const a = await instance(id, database([]).page, `redis://127.0.0.1:${proxy.port}`);
      const b = await instance(id, database([]).page);
      await Promise.all([answering(a), answering(b)]);

      // Screened on a: held for b before any write.
      expect(await isNew(a, 'screened@example.com')).toBe(true);
      expect(await isNew(b, 'screened@example.com')).toBe(false);

      // A check that failed set nothing: the write's add does.
      proxy.cut();
      expect(await isNew(a, 'unscreened@example.com')).toBe(false);
      proxy.restore();
      await waitFor(() => a.answering(), { what: 'a to be back' });
      a.add('acc_1', 'live', 'unscreened@example.com');
      await a.answering(); // answered after the add: it has landed
      expect(await isNew(b, 'unscreened@example.com')).toBe(false);
    });

    it('answers "maybe" while Redis does not answer', async () => {
      const { hostname, port } = new URL(REDIS_URL);
      const proxy = await startFlakyProxy({ host: hostname, port: Number(port || 6379) });
      proxies.push(proxy);
      const f = await instance(secret(), database([]).page, `redis://127.0.0.1:${proxy.port}`);
      await answering(f);
      expect(await isNew(f, stranger())).toBe(true);
      proxy.hang();
      expect(await isNew(f, stranger())).toBe(false);
      proxy.restore();
    });

    describe.runIf(hasPostgres)('behind the store, opened as the service opens it', () => {
      const database = migratedTestDatabase();

      it('two instances on one database read the signals of what the other sent', async () => {
        const filter = { in: 'redis', url: REDIS_URL, prefix } as const;
        const first = await openStore(database(), { filter });
        const second = await openStore(database(), { filter });
        try {
          const key = keyOf(
            prefix,
            (await first.getOrCreateSetting('destination_filter_key', 'unused')).value,
          );
          await waitFor(async () => (await admin.getbit(key, 0)) === 1, { what: 'the key to be loaded' });
          await first.verifications.createVerifications([
            verification({ destination: 'from-first@example.com', createdAt: T0 }),
          ]);
          const signals = await second.readModel.destinationSignals(
            'acc_1',
            'live',
            'from-first@example.com',
            null,
            T0 + 1000,
          );
          expect(signals.history.sends).toBe(1);
          expect(signals.sendsLastHour).toBe(1);
        } finally {
          await first.close();
          await second.close();
        }
      });
    });

    it('leaves SQLite to its own read: cheaper in process than two Redis commands', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cv-shared-known-'));
      try {
        const store = await openStore(`sqlite:${join(dir, 'x.db')}`, {
          filter: { in: 'redis', url: REDIS_URL, prefix },
        });
        try {
          // No shared filter was made for it: the database has no secret for one.
          expect((await store.getOrCreateSetting('destination_filter_key', 'none')).created).toBe(true);
        } finally {
          await store.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
