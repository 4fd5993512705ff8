import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/factory.js';
import { type DestinationPage, KnownDestinations, NO_HISTORY } from '../../src/store/known-destinations.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { migratedTestDatabase, truncateAll } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { MINUTE, T0, verification } from './fixtures.js';

/** Pages of `rows` as a store returns them: in id order, after `after`, at most `limit`. */
function pagesOf(
  tables: Record<'verifications' | 'contacts', Array<Record<string, unknown>>>,
): DestinationPage {
  return async (table, after, limit) =>
    tables[table]
      .filter((r) => String(r.id) > after)
      .sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1))
      .slice(0, limit) as Awaited<ReturnType<DestinationPage>>;
}

const row = (i: number, destination: string, test: unknown = 0) => ({
  id: `id-${String(i).padStart(6, '0')}`,
  account_id: 'acc_1',
  test,
  destination,
});

describe('KnownDestinations', () => {
  it('holds everything until the rows are loaded, then only what was loaded or added', async () => {
    const known = new KnownDestinations();
    expect(known.mightHold('acc_1', 'live', 'a@example.com')).toBe(true);
    const loading = known.load(pagesOf({ verifications: [row(1, 'a@example.com')], contacts: [] }));
    known.add('acc_1', 'live', 'during@example.com');
    await loading;
    expect(known.answering).toBe(true);
    expect(known.mightHold('acc_1', 'live', 'a@example.com')).toBe(true);
    expect(known.mightHold('acc_1', 'live', 'during@example.com')).toBe(true);
    expect(known.mightHold('acc_1', 'live', 'b@example.com')).toBe(false);
    known.add('acc_1', 'live', 'b@example.com');
    expect(known.mightHold('acc_1', 'live', 'b@example.com')).toBe(true);
  });

  it('loads both tables over many pages, and keeps accounts and modes apart', async () => {
    const verifications = Array.from({ length: 12_345 }, (_, i) => row(i, `v${i}@example.com`, i % 2));
    const contacts = Array.from({ length: 5_001 }, (_, i) => row(i, `c${i}@example.com`, true));
    const known = new KnownDestinations();
    await known.load(pagesOf({ verifications, contacts }));
    for (let i = 0; i < 12_345; i++)
      expect(known.mightHold('acc_1', i % 2 ? 'test' : 'live', `v${i}@example.com`)).toBe(true);
    for (let i = 0; i < 5_001; i++) expect(known.mightHold('acc_1', 'test', `c${i}@example.com`)).toBe(true);
    const strangers = [
      known.mightHold('acc_2', 'test', 'c1@example.com'),
      known.mightHold('acc_1', 'live', 'c1@example.com'),
      known.mightHold('acc_1', 'live', 'nobody@example.com'),
    ];
    expect(strangers).toEqual([false, false, false]);
  });

  it('answers a false "maybe" rarely, and never a false "never"', async () => {
    const known = new KnownDestinations(16); // 65,536 bits
    await known.load(pagesOf({ verifications: [], contacts: [] }));
    for (let i = 0; i < 3_000; i++) known.add('acc_1', 'live', `held${i}@example.com`);
    for (let i = 0; i < 3_000; i++)
      expect(known.mightHold('acc_1', 'live', `held${i}@example.com`)).toBe(true);
    let falsePositives = 0;
    for (let i = 0; i < 20_000; i++)
      if (known.mightHold('acc_1', 'live', `other${i}@example.com`)) falsePositives++;
    // About 0.2 % expected for 3,000 keys in 65,536 bits with 7 hashes.
    expect(falsePositives / 20_000).toBeLessThan(0.01);
  });

  it('never answers when its load fails or the store closes first', async () => {
    const failing = new KnownDestinations();
    await failing.load(async () => {
      throw new Error('database away');
    });
    expect(failing.answering).toBe(false);
    expect(failing.mightHold('acc_1', 'live', 'x@example.com')).toBe(true);

    const stopped = new KnownDestinations();
    const rows = Array.from({ length: 6_000 }, (_, i) => row(i, `s${i}@example.com`));
    const loading = stopped.load(pagesOf({ verifications: rows, contacts: [] }));
    stopped.stop();
    await loading;
    expect(stopped.answering).toBe(false);
  });

  it('answers nothing while suspended, and reads the rows again when reloaded', async () => {
    const tables = { verifications: [row(1, 'a@example.com')], contacts: [] as ReturnType<typeof row>[] };
    const known = new KnownDestinations();
    await known.load(pagesOf(tables));
    expect(known.certainlyNew('acc_1', 'live', 'other@example.com', null)).toBe(true);
    // Another instance writes on the database: what it sends never passes through this filter.
    known.suspend();
    tables.verifications.push(row(2, 'other@example.com'));
    expect(known.answering).toBe(false);
    expect(known.certainlyNew('acc_1', 'live', 'new@example.com', null)).toBe(false);
    await known.reload();
    expect(known.answering).toBe(true);
    expect(known.certainlyNew('acc_1', 'live', 'other@example.com', null)).toBe(false);
    expect(known.certainlyNew('acc_1', 'live', 'a@example.com', null)).toBe(false);
    expect(known.certainlyNew('acc_1', 'live', 'new@example.com', null)).toBe(true);
  });

  it('a load under way when the filter is suspended never makes it answer', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => row(i, `s${i}@example.com`));
    const known = new KnownDestinations();
    const loading = known.load(pagesOf({ verifications: rows, contacts: [] }));
    known.suspend();
    await loading;
    expect(known.answering).toBe(false);
    // Nor a reload after the store closed.
    known.stop();
    await known.reload();
    expect(known.answering).toBe(false);
  });

  it('answers without a query only for an email address: a phone number depends on its block and country', async () => {
    const known = new KnownDestinations();
    await known.load(pagesOf({ verifications: [], contacts: [] }));
    expect(known.certainlyNew('acc_1', 'live', 'new@example.com', null)).toBe(true);
    expect(known.certainlyNew('acc_1', 'live', '+447400123456', null)).toBe(false);
    expect(known.certainlyNew('acc_1', 'live', '+447400123456', 'GB')).toBe(false);
  });
});

/** The same checks of a store that remembers destinations, on each dialect. */
function storeRemembers(name: string, open: (known?: KnownDestinations) => Promise<Store>) {
  const answering = async (known: KnownDestinations) => {
    for (let i = 0; i < 200 && !known.answering; i++) await new Promise((r) => setTimeout(r, 10));
    expect(known.answering).toBe(true);
  };

  describe(`a store that remembers its destinations: ${name}`, () => {
    it('answers a new email address as its read does, and reads every destination it holds', async () => {
      const earlier = verification({ destination: 'earlier@example.com', createdAt: T0 });
      const plain = await open();
      try {
        await plain.verifications.createVerifications([earlier]);
        // What the read finds for an address never held is what the filter answers without it.
        expect(
          await plain.readModel.destinationSignals('acc_1', 'live', 'never@example.com', null, T0),
        ).toEqual(NO_HISTORY);
      } finally {
        await plain.close();
      }

      const known = new KnownDestinations();
      const store = await open(known);
      try {
        await answering(known);
        // Held before this store opened: loaded, so read.
        const before = await store.readModel.destinationSignals(
          'acc_1',
          'live',
          'earlier@example.com',
          null,
          T0,
        );
        expect(before.history.sends).toBe(1);
        // Sent now: remembered at the send, so the next send reads it.
        await store.verifications.createVerifications([
          verification({ destination: 'now@example.com', createdAt: T0 + MINUTE }),
        ]);
        const now = await store.readModel.destinationSignals(
          'acc_1',
          'live',
          'now@example.com',
          null,
          T0 + MINUTE,
        );
        expect(now.history.sends).toBe(1);
        expect(now.sendsLastHour).toBe(1);
        // The test mode of the same address is another destination.
        expect(
          await store.readModel.destinationSignals('acc_1', 'test', 'now@example.com', null, T0),
        ).toEqual(NO_HISTORY);
      } finally {
        await store.close();
      }
    });

    it('always reads a phone number: its block counts the other numbers sent to', async () => {
      await (await open()).close();
      const known = new KnownDestinations();
      const store = await open(known);
      try {
        await answering(known);
        for (const n of ['01', '02', '03'])
          await store.verifications.createVerifications([
            verification({ channel: 'SMS', destination: `+4474001234${n}`, country: 'GB', createdAt: T0 }),
          ]);
        const fresh = await store.readModel.destinationSignals(
          'acc_1',
          'live',
          '+447400123499',
          'GB',
          T0 + MINUTE,
        );
        expect(fresh.neighboursLastHour).toBe(3);
        expect(fresh.history.sends).toBe(0);
      } finally {
        await store.close();
      }
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cv-known-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
let sqliteFile = '';
storeRemembers('SQLite', async (known) => {
  // Each test's first store makes the file; the store that remembers opens the same file.
  if (!known) sqliteFile = join(dir, `known-${files++}.db`);
  return new SqliteStore(sqliteFile, { known });
});

describe.runIf(hasPostgres)('PostgreSQL', () => {
  const url = migratedTestDatabase();
  storeRemembers('PostgreSQL', async (known) => {
    if (!known) await truncateAll(url());
    const store = new PostgresStore(url(), { known });
    await store.migrate();
    return store;
  });
});
