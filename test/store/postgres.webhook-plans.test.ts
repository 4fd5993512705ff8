import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { explainInto, preparedRuns, wholeIndexScans } from '../support/plans.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { claimAll, MINUTE, successOf, T0, verification } from './fixtures.js';

/**
 * The webhook worker's claim and its turn's successes (src/store/webhooks/postgres.ts), and the
 * fold that queues the deliveries (src/store/postgres/fold.ts), are planned once per connection
 * and that plan kept: planned at every run, planning cost the server as much as running. A plan
 * kept from the first runs was made for nearly empty tables; these tests make it there, grow the
 * tables (another endpoint's backlog, this one's finished deliveries, other destinations' requests
 * and contacts), and read the plan of the next run (auto_explain, as a notice on the one
 * connection).
 */
describe.skipIf(!hasPostgres)('PostgreSQL plans of the webhook worker on a grown table', () => {
  let db: TestDatabase;
  let store: PostgresStore;
  let plannedOnce: pg.Pool;
  let pool: pg.Pool;
  const plans: string[] = [];

  /** Queues `n` deliveries to wh_1 (sends, then a fold), claims them and records each a success. */
  const deliverTurn = async (n: number) => {
    for (let i = 0; i < n; i++)
      await store.verifications.createVerifications([verification({ createdAt: T0 })]);
    await store.readModel.fold(1000);
    const due = await store.webhooks.claimDue(claimAll());
    await Promise.all(due.map((d) => store.webhooks.recordAttempt(successOf(d.id, 'wh_1', T0 + MINUTE))));
    return due.length;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new PostgresStore(db.url, { max: 1 });
    await store.migrate();
    pool = (store as unknown as { pool: pg.Pool }).pool;
    plannedOnce = (store as unknown as { plannedOncePool: pg.Pool }).plannedOncePool;
    await store.accounts.createAccount({ id: 'acc_1', name: 'One', settings: {}, createdAt: T0 });
    for (const [id, enabled] of [
      ['wh_1', true],
      ['wh_backlog', false],
    ] as const)
      await store.webhooks.createEndpoint({
        id,
        accountId: 'acc_1',
        url: `https://${id}.example.com/hook`,
        events: ['verification.created'],
        enabled,
        sealedSecret: `sealed-${id}`,
        createdAt: T0,
      });
    await pool.query('VACUUM ANALYZE');
    // More than five runs of each on the nearly empty tables: the plans kept are made here.
    for (let i = 0; i < 8; i++) await deliverTurn(3);
    // Another endpoint's backlog and this one's finished deliveries.
    await pool.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, payload, status,
         next_attempt_at, created_at)
       SELECT 'grown-' || n, CASE WHEN n % 2 = 0 THEN 'wh_backlog' ELSE 'wh_1' END, 'evt-' || n,
         'verification.created', '{}', CASE WHEN n % 2 = 0 THEN 'pending' ELSE 'succeeded' END,
         CASE WHEN n % 2 = 0 THEN $1::bigint END, $1::bigint
       FROM generate_series(1, 40000) n`,
      [T0],
    );
    // Requests to other destinations and their contacts, for the fold's lookups.
    await pool.query(
      `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
         created_at, expires_at, delivery_status, test)
       SELECT 'grown-' || n, 'acc_1', 'grown-' || n, 'EMAIL', 'grown' || n || '@example.com', 'h', 5,
         $1::bigint, $1::bigint + 600000, 'sent', true
       FROM generate_series(1, 20000) n`,
      [T0],
    );
    await pool.query(
      `INSERT INTO contacts (id, account_id, test, destination, channel, masked, first_seen, last_seen, sends)
       SELECT id, account_id, test, destination, channel, 'g***@example.com', created_at, created_at, 1
       FROM verifications WHERE id LIKE 'grown-%'`,
    );
    await explainInto(plans, plannedOnce);
    await explainInto(plans, pool);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it('claims and records by index on the grown table, with the plan of the first runs', async () => {
    plans.length = 0;
    expect(await deliverTurn(3)).toBe(3);
    const claim = plans.filter((p) => p.includes('WITH held AS')).join('\n');
    const successes = plans.filter((p) => p.includes('WITH r AS')).join('\n');
    for (const [name, plan] of Object.entries({ claim, successes })) {
      expect(plan, name).not.toBe('');
      expect(plan, name).not.toMatch(/Seq Scan on webhook_deliveries/);
      expect(wholeIndexScans(plan, ['webhook_deliveries']), name).toEqual([]);
    }
    expect(successes).toContain('webhook_deliveries_pkey');
    // The endpoints of the batch by their key, not every endpoint's row.
    expect(successes).toMatch(/Index Cond: \(id = ANY/);

    const runs = await preparedRuns(plannedOnce);
    for (const name of ['webhook_claim', 'webhook_succeeded_many']) {
      expect(runs.get(name)?.planned, name).toBe(0);
      expect(runs.get(name)?.kept, name).toBeGreaterThan(5);
    }
  });

  it('folds with its events on the plan of its first runs, reading every table by index', async () => {
    // The fold with events joins no result of one of its parts with another's (the contacts it
    // makes are named by each change's row), so a plan kept from the first, small batches holds.
    plans.length = 0;
    expect(await deliverTurn(3)).toBe(3);
    const fold = plans.filter((p) => p.includes('DELETE FROM changes')).join('\n');
    expect(fold).not.toBe('');
    expect(fold).not.toMatch(/Seq Scan on (verifications|contacts|silent_fallbacks)/);
    expect(wholeIndexScans(fold, ['verifications', 'contacts', 'silent_fallbacks'])).toEqual([]);
    expect(fold).toContain('verifications_pkey');
    expect(fold).toContain('contacts_destination');
    const runs = (await preparedRuns(pool)).get('fold_batch_events');
    expect(runs?.planned).toBe(0);
    expect(runs?.kept).toBeGreaterThan(5);
  });
});
