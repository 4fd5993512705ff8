import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LockWaitReport, LockWaitSampler, mergeReports, statementKind } from '../../bench/lock-waits.js';
import type { NewVerification } from '../../src/domain/types.js';
import { PostgresFold } from '../../src/store/postgres/fold.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SQL } from '../../src/store/postgres/statements.js';
import { PostgresWebhookStore } from '../../src/store/webhooks/postgres.js';
import { everyEventEndpoint, firstCode, guessOf, MINUTE, T0, verification } from '../store/fixtures.js';
import { migratedTestDatabase, truncateAll } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { waitFor } from '../support/wait.js';

describe('statementKind', () => {
  // What pg_stat_activity shows of a statement: its first kilobyte (track_activity_query_size).
  const shown = (s: string | { text: string }) => (typeof s === 'string' ? s : s.text).slice(0, 1024);

  it("names the store's send and verify statements by what pg_stat_activity shows of them", () => {
    expect(statementKind(shown(SQL.supersedeAndInsert))).toBe('send');
    expect(statementKind(shown(SQL.supersedeAndInsertCheckingBlocks))).toBe('send');
    for (const s of [SQL.readGroup, SQL.readGroups, SQL.tryAttempts, SQL.countOrConsume, SQL.failGroup])
      expect(statementKind(shown(s))).toBe('verify');
    expect(statementKind(shown(SQL.findActiveKey))).toBe('other');
    expect(statementKind(shown(SQL.destinationSignalsEmail))).toBe('other');
  });

  it('adds up reports', () => {
    const one = {
      samples: 2,
      requestStatements: 3,
      requestWaits: { 'send: on CPU': 3 },
      lockWaits: {},
      onFold: 0,
      examples: [],
      foldsAtOnce: 1,
    };
    const two = { ...one, lockWaits: { 'verify -> fold': 1 }, onFold: 1, examples: ['x'] };
    expect(mergeReports([one, two])).toEqual({
      samples: 4,
      requestStatements: 6,
      requestWaits: { 'send: on CPU': 6 },
      lockWaits: { 'verify -> fold': 1 },
      onFold: 1,
      examples: ['x'],
      foldsAtOnce: 1,
    });
  });
});

/**
 * The sampler bench:cluster runs under load: it must see a request's statement wait on the fold
 * when one does (a control, made on purpose), and sees none under the real load of four instances
 * sending, verifying, folding and publishing at once.
 */
describe.runIf(hasPostgres)('LockWaitSampler on PostgreSQL', () => {
  const url = migratedTestDatabase();
  let pool: pg.Pool;
  let folder: PostgresFold;
  let stores: PostgresStore[] = [];

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: url(), max: 2 });
    pool.on('error', () => undefined);
    folder = new PostgresFold(pool, new PostgresWebhookStore(pool));
  });
  afterAll(() => pool.end());
  beforeEach(async () => {
    await truncateAll(url());
    stores = Array.from({ length: 4 }, () => new PostgresStore(url()));
  });
  afterEach(async () => {
    for (const s of stores) await s.close();
  });
  const endpoint = (store: PostgresStore) => store.webhooks.createEndpoint(everyEventEndpoint('we_sampled'));

  for (const publisher of [false, true]) {
    it(`sees a verify that waits on a ${publisher ? 'publisher' : 'fold'} holding its row (a control)`, async () => {
      const [a] = stores as [PostgresStore];
      if (publisher) await endpoint(a);
      const row = verification();
      await a.verifications.createVerifications([row]);
      const sampler = new LockWaitSampler(url(), 5);
      await sampler.start();
      const reports: LockWaitReport[] = [];
      const holder = await pool.connect();
      try {
        // Not what the fold does: the control makes it hold the request's row, then fold.
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM verifications WHERE id = $1 FOR UPDATE', [row.id]);
        expect(await folder.batchOn(holder, 100, T0, false)).toBe(1);
        const attempt = a.verifications.attempt('acc_1', row.id, T0 + MINUTE, firstCode);
        await waitFor(
          () => {
            reports.push(sampler.take());
            return mergeReports(reports).onFold > 0;
          },
          { timeoutMs: 10_000, what: 'the sampler to see the wait' },
        );
        await holder.query('ROLLBACK');
        expect((await attempt).consumed).toBe(true);
      } finally {
        holder.release();
        reports.push(await sampler.stop());
      }
      const seen = mergeReports(reports);
      expect(seen.lockWaits[`verify -> ${publisher ? 'publisher' : 'fold'}`]).toBeGreaterThan(0);
      // An example shows the beginning of the statement waited on: the fold's takes the change log.
      expect(seen.examples[0]).toMatch(publisher ? /webhook_deliveries/ : /waited .* on WITH take AS/);
    });
  }

  it('sees no send or verify wait on the fold or the publisher under the load of four instances', async () => {
    await endpoint(stores[0] as PostgresStore);
    const sampler = new LockWaitSampler(url(), 5);
    await sampler.start();
    let traffic = true;
    const background = stores.flatMap((store) => [
      // The fold, as each instance's timer runs it.
      (async () => {
        while (traffic) {
          await store.readModel.fold(50);
          await new Promise((r) => setTimeout(r, 5));
        }
      })(),
      // The webhook worker: claims and records what it delivered.
      (async () => {
        while (traffic) {
          const due = await store.webhooks.claimDue({
            now: Date.now(),
            leaseUntil: Date.now() + MINUTE,
            main: 50,
            held: {},
            slow: 1,
            perEndpoint: 50,
            slowAfter: 5,
          });
          for (const d of due)
            await store.webhooks.recordAttempt({
              deliveryId: d.id,
              endpointId: d.endpointId,
              now: Date.now(),
              ok: true,
              responseStatus: 200,
              error: null,
              slow: false,
              nextAttemptAt: null,
              disableBefore: 0,
              disabledReason: '',
            });
          await new Promise((r) => setTimeout(r, 5));
        }
      })(),
    ]);
    const shared = ['one@example.com', 'two@example.com'];
    const requests = stores.flatMap((store) =>
      Array.from({ length: 3 }, async (_, c) => {
        for (let n = 0; n < 60; n++) {
          const row: NewVerification = verification(n % 5 === 0 ? { destination: shared[n % 2] } : {});
          await store.verifications.createVerifications([row]);
          await store.verifications.attempt('acc_1', row.id, T0 + MINUTE, guessOf(null));
          if ((n + c) % 2 === 0) await store.verifications.attempt('acc_1', row.id, T0 + MINUTE, firstCode);
        }
      }),
    );
    await Promise.all(requests);
    traffic = false;
    await Promise.all(background);
    const report = await sampler.stop();
    expect(report.samples).toBeGreaterThan(20);
    // It saw both kinds of request statements at work.
    expect(Object.keys(report.requestWaits).some((k) => k.startsWith('send:'))).toBe(true);
    expect(Object.keys(report.requestWaits).some((k) => k.startsWith('verify:'))).toBe(true);
    expect(report.examples).toEqual([]);
    expect(report.onFold).toBe(0);
    expect(report.foldsAtOnce).toBe(1);
  }, 120_000);
});
