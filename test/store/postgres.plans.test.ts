import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewVerification } from '../../src/domain/types.js';
import { KnownDestinations } from '../../src/store/known-destinations.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { explainInto, preparedRuns, wholeIndexScans as wholeIndexScansOf } from '../support/plans.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { dualPair, guessOf, T0, verification } from './fixtures.js';

/**
 * The request path's statements are prepared once per connection. PostgreSQL may keep a generic
 * plan for good after five runs; made on a nearly empty table it scans the whole table, or every
 * pending request per new one, so a send's cost grows with the table. These tests analyse the
 * empty database (the statistics such a plan would scan by), run each statement more than five
 * times on a few hundred rows, grow the table, and read the plan of the next run (auto_explain,
 * reported to the store's own connection as a notice).
 */
describe.skipIf(!hasPostgres)(
  'PostgreSQL plans on a table that grew after the statements were prepared',
  () => {
    let db: TestDatabase;
    let store: PostgresStore;
    /** A store without a destination filter (as with Redis): its sends run the plain send statement. */
    let unfiltered: PostgresStore;
    let pool: pg.Pool;
    const plans: string[] = [];
    let pair = 0;
    /** A dual pair to a phone number of its own (dualPair's number is shared). */
    const pairOfItsOwn = (): [NewVerification, NewVerification] => {
      const [email, sms] = dualPair();
      return [email, { ...sms, destination: `+1415556${String(1000 + pair++).padStart(4, '0')}` }];
    };
    /**
     * Wrong guesses in one turn on two single requests and two pairs, and on two more pairs with
     * guesses that give no hashes: every pinned statement of a verify (tryAttempts for the first
     * four, countOrConsumeMany for the pairs, readGroups for the guesses without hashes).
     */
    const verifyTurn = async () => {
      const singles = [verification(), verification()];
      const pairs = [pairOfItsOwn(), pairOfItsOwn()];
      const unhashed = [pairOfItsOwn(), pairOfItsOwn()];
      for (const rows of [...singles.map((v) => [v]), ...pairs, ...unhashed])
        await store.verifications.createVerifications(rows);
      await Promise.all([
        ...[...singles, ...pairs.map(([email]) => email)].map((v) =>
          store.verifications.attempt('acc_1', v.id, T0 + 1, guessOf(null)),
        ),
        ...unhashed.map(([email]) =>
          store.verifications.attempt('acc_1', email.id, T0 + 1, { pick: () => null }),
        ),
      ]);
    };

    beforeAll(async () => {
      db = await createTestDatabase();
      // One connection: the one the statements are prepared on is the one whose plans are read. A
      // store with a destination filter, whose sends read their blocks (src/store/blocks.ts); the
      // filter is suspended, so that every screen reads too.
      const known = new KnownDestinations();
      store = new PostgresStore(db.url, { max: 1, known });
      await store.migrate();
      known.suspend();
      unfiltered = new PostgresStore(db.url, { max: 1 });
      await unfiltered.verifications.createVerifications([verification()]);
      pool = (store as unknown as { pool: pg.Pool }).pool;
      // A service's first statements, on tables never analysed (a new database before autovacuum
      // has seen it): a plan kept from here was made for empty tables.
      await verifyTurn();
      await store.readModel.fold(50);
      // The statistics of a new database once autovacuum has seen it: every table empty.
      await pool.query('VACUUM ANALYZE');
      // A few hundred pending requests, as in a service's first seconds, then each statement run
      // more than five times on them.
      await grow('early', 300);
      for (let i = 0; i < 8; i++) {
        await store.verifications.createVerifications(Array.from({ length: 10 }, () => verification()));
        await verifyTurn();
        await store.readModel.fold(50);
      }
      await grow('late', 20_000);
      // The send's statement runs on the pool that plans it once (postgres-store.ts): its plan was
      // made on the early table, and is read here as it runs on the grown one.
      const plannedOnce = (store as unknown as { plannedOncePool: pg.Pool }).plannedOncePool;
      const unfilteredSends = (unfiltered as unknown as { plannedOncePool: pg.Pool }).plannedOncePool;
      for (const connections of [pool, plannedOnce, unfilteredSends]) await explainInto(plans, connections);
    }, 60_000);

    /** `count` pending requests to other destinations and their changes, written beside the store. */
    async function grow(tag: string, count: number) {
      const template = randomUUID();
      await store.verifications.createVerifications([verification({ id: template })]);
      await pool.query(
        `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
         created_at, expires_at, delivery_status, test)
       SELECT $1 || '-' || n, account_id, $1 || '-' || n, channel, $1 || n || '@example.com', code_hash,
         max_attempts, created_at, expires_at, delivery_status, test
       FROM verifications v, generate_series(1, $2::int) n WHERE v.id = $3`,
        [tag, count, template],
      );
      await pool.query(
        `INSERT INTO changes (kind, request_id, at) SELECT 'created', id, created_at FROM verifications
       WHERE id LIKE $1 || '-%'`,
        [tag],
      );
      // Their contacts, as a fold would make them (a send reads its destination's for a block).
      await pool.query(
        `INSERT INTO contacts (id, account_id, test, destination, channel, masked, first_seen, last_seen, sends)
       SELECT id, account_id, test, destination, channel, 'm***@example.com', created_at, created_at, 1
       FROM verifications WHERE id LIKE $1 || '-%'`,
        [tag],
      );
    }

    afterAll(async () => {
      await unfiltered?.close();
      await store?.close();
      await db?.drop();
    });

    const planOf = (statement: string) => plans.filter((p) => p.includes(statement)).join('\n');
    /** The scans of a whole index of the request tables in `plan` (support/plans.ts). */
    const wholeIndexScans = (plan: string) => wholeIndexScansOf(plan, ['verifications', 'contacts']);
    /** The plan of a fold of a small batch (the grown changes come first, so just a few of them). */
    const planOfAFold = async () => {
      plans.length = 0;
      await store.verifications.createVerifications([verification()]);
      await store.readModel.fold(10);
      return planOf('DELETE FROM changes');
    };

    it('a send looks up its predecessor by destination, never by walking the pending requests', async () => {
      plans.length = 0;
      await store.verifications.createVerifications([verification(), verification()]);
      const plan = planOf('INSERT INTO verifications');
      expect(plan).toContain('verifications_one_live');
      expect(plan).not.toContain('verifications_pending_expiry');
      expect(plan).not.toMatch(/Seq Scan on verifications/);
      expect(wholeIndexScans(plan)).toEqual([]);
      // Its block, among the blocked contacts (src/store/blocks.ts, migration 181).
      expect(plan).toContain('contacts_blocked');
      expect(plan).not.toMatch(/Seq Scan on contacts/);
    });

    it('a send of a store without a filter (the plain statement) reads by index too', async () => {
      // Its plan was made by its first send, on tables never analysed: it finds a predecessor by an
      // index whose first column is the destination.
      plans.length = 0;
      await unfiltered.verifications.createVerifications([verification(), verification()]);
      const plan = planOf('INSERT INTO verifications');
      expect(plan).toMatch(/Index Cond: \(\(?destination = /);
      expect(plan).not.toMatch(/Seq Scan on (verifications|contacts)/);
      expect(wholeIndexScans(plan)).toEqual([]);
    });

    it('a verify finds its request by primary key and its group by its two indexes, in every statement', async () => {
      plans.length = 0;
      await verifyTurn();
      const verifies = plans.filter((p) => p.includes('WITH tried') || p.includes('WITH won'));
      const ofStatement = {
        tryAttempts: verifies.filter((p) => p.includes('alone AS')),
        readGroups: verifies.filter((p) => p.includes('WITH tried') && !p.includes('alone AS')),
        countOrConsumeMany: verifies.filter((p) => p.includes('WITH won')),
      };
      for (const [name, found] of Object.entries(ofStatement)) {
        const plan = found.join('\n');
        expect(plan, name).toContain('verifications_pkey');
        expect(plan, name).toContain('verifications_group_others');
        expect(plan, name).not.toContain('verifications_pending_expiry');
        expect(plan, name).not.toMatch(/Seq Scan on verifications/);
        expect(wholeIndexScans(plan), name).toEqual([]);
      }
    });

    it('the fold finds its requests by primary key, not by scanning the table', async () => {
      const plan = await planOfAFold();
      expect(plan).toContain('verifications_pkey');
      expect(plan).not.toMatch(/Seq Scan on verifications/);
      expect(wholeIndexScans(plan)).toEqual([]);
      // Its contacts, new or known, by their key: the table is never read whole.
      expect(plan).toContain('contacts_destination');
      expect(plan).not.toMatch(/Seq Scan on contacts/);
    });

    it('the fold deletes its batch through a join with the rows it took, not by searching an array per row', async () => {
      // With seq = ANY(array) every row was compared with every element, a million comparisons for
      // a batch of a thousand.
      const plan = await planOfAFold();
      expect(plan).toContain('Delete on changes');
      expect(plan).not.toMatch(/seq = ANY/);
    });

    it('the send, the verify and the fold keep the plan of their first run on each connection; the rest plan every run', async () => {
      await planOfAFold();
      await verifyTurn();
      const v = verification();
      await store.readModel.destinationSignals(v.accountId, 'live', v.destination, null, Date.now());
      // One connection in each pool (max: 1): the statements' own.
      const plannedOncePool = (store as unknown as { plannedOncePool: pg.Pool }).plannedOncePool;
      const once = await preparedRuns(plannedOncePool);
      const main = await preparedRuns(pool);
      for (const [name, runs] of [
        ['send_checked', once.get('send_checked')],
        ['try_attempts', once.get('try_attempts')],
        ['read_attempts', once.get('read_attempts')],
        ['decide_many', once.get('decide_many')],
      ] as const) {
        expect(runs?.kept, name).toBeGreaterThan(5);
        expect(runs?.planned, name).toBe(0);
      }
      // The other statements are planned for each run (CONNECTION_SETTINGS): the screen's read.
      expect(main.get('signals_email')?.planned).toBeGreaterThan(0);
      expect(main.get('signals_email')?.kept).toBe(0);
      // The fold keeps its plan from its first run (on empty tables, above), as the send and the
      // verify do: each of its reads is by index (foldSql's joinEach), so that plan still reads by
      // index on the grown tables ('the fold finds its requests by primary key', above). Written as
      // a join, a kept plan read all of verifications' primary key per batch, and a send's
      // PostgreSQL CPU doubled within seconds (bench:versus).
      expect(main.get('fold_batch')?.kept).toBeGreaterThan(5);
      expect(main.get('fold_batch')?.planned).toBe(0);
      // Its lock, a statement without parameters: planned once, at its first run.
      expect(main.get('fold_lock_take')?.kept).toBeGreaterThan(5);
      expect(main.get('fold_lock_take')?.planned).toBe(0);
    });

    it("a turn of emails is screened without the phone's parts, which are most of the planning", async () => {
      plans.length = 0;
      const v = verification();
      await store.readModel.destinationSignals(v.accountId, 'live', v.destination, null, Date.now());
      const email = planOf('WITH asked');
      expect(email).toContain('contacts');
      expect(email).not.toContain('pumping_breakers');
      plans.length = 0;
      await store.readModel.destinationSignals(v.accountId, 'live', '+447400123456', 'GB', Date.now());
      expect(planOf('WITH asked')).toContain('pumping_breakers');
    });

    it('no statement is compiled by JIT, even one whose estimated cost would call for it', async () => {
      // On a 1M-row table the risk screen's read passes jit_above_cost and spent over 100 ms
      // compiling; a low threshold on this connection stands in for the large table.
      const client = await pool.connect();
      try {
        await client.query('SET jit_above_cost = 0');
      } finally {
        client.release();
      }
      plans.length = 0;
      const v = verification();
      await store.readModel.destinationSignals(v.accountId, 'live', v.destination, null, Date.now());
      await store.verifications.createVerifications([v]);
      await store.readModel.fold(10);
      expect(planOf('WITH asked')).toContain('unnest');
      expect(planOf('INSERT INTO verifications')).not.toBe('');
      expect(plans.join('\n')).not.toContain('JIT:');
    });
  },
);

/**
 * The send's statement is planned once per connection, at whatever moment the pool opens that
 * connection: a few hundred requests in, on statistics never analysed, its plan once walked the
 * whole of verifications_pending_expiry (every pending request) to find a predecessor, and kept
 * doing so (migration 182). Each case plans it on a connection of its own at that moment.
 */
describe.skipIf(!hasPostgres)('PostgreSQL: a send planned once, at any moment of a new database', () => {
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it.each([0, 120, 400, 3000])(
    'planned with %i requests written, it finds its predecessor in verifications_one_live',
    async (written) => {
      const db = await createTestDatabase();
      closers.push(() => db.drop());
      const writer = new PostgresStore(db.url, { max: 2 });
      closers.push(() => writer.close());
      await writer.migrate();
      for (let i = 0; i < written; i += 20)
        await writer.verifications.createVerifications(Array.from({ length: 20 }, () => verification()));
      const planner = new PostgresStore(db.url, { max: 1 });
      closers.push(() => planner.close());
      const plans: string[] = [];
      await explainInto(plans, (planner as unknown as { plannedOncePool: pg.Pool }).plannedOncePool);
      await planner.verifications.createVerifications([verification(), verification()]);
      const plan = plans.filter((p) => p.includes('INSERT INTO verifications')).join('\n');
      expect(plan).toContain('verifications_one_live');
      expect(plan).not.toContain('verifications_pending_expiry');
      // The sweeper's statement still can take that index (its predicate follows from the query's).
      const sweeper = await (writer as unknown as { pool: pg.Pool }).pool.connect();
      try {
        await sweeper.query('BEGIN');
        await sweeper.query('SET LOCAL enable_seqscan = off');
        const { rows } = await sweeper.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT id FROM verifications WHERE status = 'pending' AND expires_at <= $1 LIMIT 100`,
          [Date.now()],
        );
        expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('verifications_pending_expiry');
      } finally {
        await sweeper.query('ROLLBACK');
        sweeper.release();
      }
    },
    60_000,
  );
});
