import net from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { timeOrderedUuidFloor } from '../../src/domain/ids.js';
import type { NewVerification } from '../../src/domain/types.js';
import { contactSql } from '../../src/store/contacts.js';
import { openStore } from '../../src/store/factory.js';
import { loadMigrations } from '../../src/store/migrations.js';
import { PLANNED_ONCE_CONNECTIONS, PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SQL } from '../../src/store/postgres/statements.js';
import { Sweeper } from '../../src/store/sweeper.js';
import { startFlakyProxy } from '../support/flaky-proxy.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { DAY, dualPair, guessOf, MINUTE, T0, verification } from './fixtures.js';

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const unavailable = { name: 'StoreUnavailable' };

/** A migrated database of its own, with a store and an admin connection on it; dropped afterwards. */
async function withFreshDatabase(run: (store: PostgresStore, admin: pg.Client) => Promise<void>) {
  const fresh = await createTestDatabase();
  const store = new PostgresStore(fresh.url);
  const admin = new pg.Client({ connectionString: fresh.url });
  try {
    await store.migrate();
    await admin.connect();
    await run(store, admin);
  } finally {
    await admin.end();
    await store.close();
    await fresh.drop();
  }
}

// Needs no PostgreSQL at all: nothing answers on the port.
describe('PostgreSQL store without a server', () => {
  it('reports down and rejects every call with StoreUnavailable', async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/none`;
    const store = new PostgresStore(url, { connectionTimeoutMs: 500 });
    expect(await store.check()).toBe(false);
    await expect(store.accounts.getAccount('acc_1')).rejects.toMatchObject(unavailable);
    await expect(store.verifications.createVerifications([verification()])).rejects.toMatchObject(
      unavailable,
    );
    await expect(store.accounts.rotateApiKey('k', { id: 'k2' } as never, T0)).rejects.toMatchObject(
      unavailable,
    );
    await expect(store.migrate()).rejects.toMatchObject(unavailable);
    await store.close();
    await expect(openStore(url)).rejects.toMatchObject(unavailable);
  });
});

describe.runIf(hasPostgres)('PostgreSQL store on a real server', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('migrates once when many instances start at the same moment', async () => {
    const stores = Array.from({ length: 4 }, () => new PostgresStore(db.url));
    const applied = await Promise.all(stores.map((s) => s.migrate()));
    // Each migration applied by exactly one of the instances.
    expect(applied.flat().sort((a, b) => a - b)).toEqual(loadMigrations('postgres').map((m) => m.version));
    expect(await Promise.all(stores.map((s) => s.migrate()))).toEqual([[], [], [], []]);
    await Promise.all(stores.map((s) => s.close()));
  });

  it('opens at most DATABASE_POOL_SIZE connections per process, and a few for the send', async () => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    // Connections of this database other than the admin's own.
    const backends = async () =>
      (
        await admin.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
      ).rows[0].n as number;
    // A closed client's backend may linger for a moment in pg_stat_activity.
    const drained = async () => {
      for (let i = 0; i < 250 && (await backends()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    };
    try {
      for (const [poolSize, expected] of [
        [2, 2],
        [undefined, 8],
      ] as const) {
        await drained();
        const store = await openStore(db.url, { poolSize });
        // Eight calls at once: the pool opens a connection for each while under its size.
        await Promise.all(Array.from({ length: 8 }, () => store.accounts.getAccount('acc_none')));
        expect(await backends(), `pool size ${poolSize}`).toBe(expected);
        // Sends in four turns at once: the send's write runs on a pool of its own, of at most
        // PLANNED_ONCE_CONNECTIONS (never more than the pool size).
        const turns = Array.from({ length: 4 }, async (_, i) => {
          await new Promise((r) => setTimeout(r, i));
          await store.verifications.createVerifications([verification()]);
        });
        await Promise.all(turns);
        const sendPool = Math.min(poolSize ?? 10, PLANNED_ONCE_CONNECTIONS);
        expect(await backends(), `pool size ${poolSize}`).toBeLessThanOrEqual(expected + sendPool);
        expect(await backends(), `pool size ${poolSize}`).toBeGreaterThan(expected);
        await store.close();
      }
      // DATABASE_SEND_POOL_SIZE=0 (behind PgBouncer): the send's write runs on the main pool.
      await drained();
      const store = await openStore(db.url, { poolSize: 2, sendPoolSize: 0 });
      await Promise.all(Array.from({ length: 4 }, () => store.accounts.getAccount('acc_none')));
      await store.verifications.createVerifications([verification()]);
      expect(await backends(), 'no send pool').toBe(2);
      await store.close();
    } finally {
      await admin.end();
    }
  });

  it('answers StoreUnavailable while the network is cut or hung, and recovers without a new store', async () => {
    const { hostname, port } = new URL(db.url);
    const proxy = await startFlakyProxy({ host: hostname, port: Number(port) });
    const store = new PostgresStore(db.urlVia('127.0.0.1', proxy.port), {
      connectionTimeoutMs: 500,
      queryTimeoutMs: 500,
    });
    try {
      await store.migrate();
      // Fill the pool with idle connections, which the cut then kills under the pool's feet.
      await Promise.all(Array.from({ length: 5 }, () => store.accounts.getAccount('acc_1')));
      proxy.cut();
      expect(await store.check()).toBe(false);
      await expect(store.accounts.getAccount('acc_1')).rejects.toMatchObject(unavailable);
      await expect(store.verifications.createVerifications([verification()])).rejects.toMatchObject(
        unavailable,
      );
      proxy.restore();
      expect(await store.check()).toBe(true);
      const v = verification();
      await store.verifications.createVerifications([v]);
      // A stalled server (bytes stop, sockets stay open) times out instead of hanging requests.
      proxy.hang();
      await expect(store.verifications.attempt('acc_1', v.id, T0 + 1, guessOf(null))).rejects.toMatchObject(
        unavailable,
      );
      expect(await store.check()).toBe(false);
      proxy.restore();
      await expect.poll(() => store.check(), { timeout: 5000 }).toBe(true);
      expect((await store.verifications.getVerification('acc_1', v.id))?.status).toBe('pending');
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it('maps a terminated backend (57P01) to StoreUnavailable and keeps serving', async () => {
    const store = new PostgresStore(db.url);
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await store.migrate();
      const v = verification();
      await store.verifications.createVerifications([v]);
      // Hold the row so the store's attempt waits on it, then end the store's backend under it.
      await admin.query('BEGIN');
      await admin.query('SELECT 1 FROM verifications WHERE id = $1 FOR UPDATE', [v.id]);
      const waiting = store.verifications.attempt('acc_1', v.id, T0 + 1, guessOf(null));
      const outcome = waiting.then(
        () => null,
        (err: Error) => err,
      );
      await expect
        .poll(async () => {
          const { rows } = await admin.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
            [db.name],
          );
          return rows[0].n;
        })
        .toBe(1);
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [db.name],
      );
      expect(await outcome).toMatchObject({ name: 'StoreUnavailable', cause: { code: '57P01' } });
      await admin.query('ROLLBACK');
      expect(
        (await store.verifications.attempt('acc_1', v.id, T0 + 2, guessOf(null))).counted?.attempts,
      ).toBe(1);
    } finally {
      await admin.end();
      await store.close();
    }
  });

  it('sweeps from three instances at once, each row counted once', async () => {
    const stores = Array.from({ length: 3 }, () => new PostgresStore(db.url));
    await stores[0]?.migrate();
    const now = T0 + 40 * DAY;
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query('TRUNCATE verifications');
      // Ids are UUIDv7 as the service makes them, ordered by creation time ($6: the time part of
      // created_at's): the retention sweep walks the primary key.
      const insert = `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash,
          status, max_attempts, created_at, expires_at, delivery_status)
        SELECT $6 || '-' || $1 || i, 'acc_1', $1 || i, 'EMAIL', $1 || i || '@example.com', '\\x00', $2, 5, $3, $4,
          'outbox'
        FROM generate_series(1, $5::int) AS i`;
      const insertRows = (prefix: string, status: string, createdAt: number, expiresAt: number, n: number) =>
        admin.query(insert, [prefix, status, createdAt, expiresAt, n, timeOrderedUuidFloor(createdAt)]);
      await insertRows('old-', 'verified', T0, T0 + MINUTE, 300);
      await insertRows('overdue-', 'pending', now - 20 * MINUTE, now - MINUTE, 200);
      await insertRows('live-', 'pending', now - MINUTE, now + 9 * MINUTE, 10);
      const sweepers = stores.map(
        (store) =>
          new Sweeper({
            verifications: store.verifications,
            clock: new ManualClock(now),
            logger: pino({ level: 'silent' }),
            retentionDays: 30,
            intervalSeconds: 60,
            batchSize: 25,
          }),
      );
      const results = await Promise.all(sweepers.map((s) => s.run()));
      const sum = (k: 'expired' | 'deleted') => results.reduce((n, r) => n + r[k], 0);
      expect(sum('expired')).toBe(200);
      expect(sum('deleted')).toBe(300);
      const { rows } = await admin.query(
        'SELECT status, count(*)::int AS n FROM verifications GROUP BY status ORDER BY status',
      );
      expect(rows).toEqual([
        { status: 'expired', n: 200 },
        { status: 'pending', n: 10 },
      ]);
    } finally {
      await admin.end();
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('the retention sweep walks the primary key (ids are UUIDv7): the table keeps no index of created_at', async () => {
    await withFreshDatabase(async (_store, admin) => {
      await admin.query(
        `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, status,
           max_attempts, created_at, expires_at, delivery_status)
         SELECT gen_random_uuid()::text, 'acc_1', 'g' || i, 'EMAIL', i || '@example.com', '\\x00', 'verified', 5,
           $1, $1, 'outbox' FROM generate_series(1, 5000) AS i`,
        [T0],
      );
      await admin.query('ANALYZE verifications');
      const cutoff = T0 - DAY;
      const { rows } = await admin.query(`EXPLAIN ${SQL.sweepDelete}`, [
        cutoff,
        25,
        timeOrderedUuidFloor(cutoff),
      ]);
      const plan = rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index Scan using verifications_pkey/);
      expect(plan).not.toMatch(/Seq Scan on verifications/);
      const { rows: indexes } = await admin.query(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'verifications' AND indexname = 'verifications_created'",
      );
      expect(indexes).toEqual([]);
    });
  });

  it('settles each group once when one turn brings right guesses for both rows of every pair, whatever the join plan', async () => {
    // An UPDATE changes a row once however many joined rows name it, and which one wins is up to
    // the plan: two winners of one group in one statement could both be marked verified. So a
    // batch decides one guess per group, and a second guess on a group runs after it. A merge
    // join (nested loops and hash joins off) orders the joined rows differently from the default.
    await withFreshDatabase(async (store, admin) => {
      const pairs = Array.from({ length: 20 }, (_, i): [NewVerification, NewVerification] => {
        const [email, sms] = dualPair();
        return [email, { ...sms, destination: `+1415555${String(100 + i).padStart(4, '0')}` }];
      });
      for (const pair of pairs) await store.verifications.createVerifications(pair);
      // The SMS row of each pair first, then the email row, then the SMS row again: one turn.
      const guesses = [
        ...pairs.map(([, sms]) => sms),
        ...pairs.map(([email]) => email),
        ...pairs.map(([, sms]) => sms),
      ];
      const outcomes = await Promise.all(
        guesses.map((v) => store.verifications.attempt('acc_1', v.id, T0, guessOf(v.id))),
      );
      expect(outcomes.filter((o) => o.consumed)).toHaveLength(20);
      for (const [email, sms] of pairs) {
        expect((await store.verifications.getVerification('acc_1', sms.id))?.status).toBe('verified');
        expect((await store.verifications.getVerification('acc_1', email.id))?.status).toBe('canceled');
      }
      // The batch statement itself, under a merge join: one winner per group given.
      const more = Array.from({ length: 20 }, (_, i): [NewVerification, NewVerification] => {
        const [email, sms] = dualPair();
        return [email, { ...sms, destination: `+1415556${String(100 + i).padStart(4, '0')}` }];
      });
      for (const pair of more) await store.verifications.createVerifications(pair);
      await admin.query('SET enable_nestloop = off; SET enable_hashjoin = off');
      const { rows } = await admin.query(SQL.countOrConsumeMany.text, [
        more.map(([email]) => email.groupId),
        more.map(([, sms]) => sms.id),
        more.map(() => T0),
        more.map(([email]) => email.id),
      ]);
      expect(rows.filter((r) => r.status === 'verified')).toHaveLength(20);
      for (const [email, sms] of more) {
        expect((await store.verifications.getVerification('acc_1', sms.id))?.status).toBe('verified');
        expect((await store.verifications.getVerification('acc_1', email.id))?.status).toBe('canceled');
      }
    });
  });

  it('looks a group up by its own index even with statistics older than the table', async () => {
    // Analysed while empty, then 5,000 pending rows: as a new deployment's table looks before
    // autovacuum catches up. Each group statement must use the group's own indexes alone, never the
    // partial index that holds every pending row.
    await withFreshDatabase(async (_store, admin) => {
      await admin.query('ANALYZE verifications');
      await admin.query(
        `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
           created_at, expires_at, delivery_status)
         SELECT 'v' || g, 'acc_1', 'v' || g, 'EMAIL', 'u' || g || '@example.com', '\\x00', 5, $1::bigint, $2::bigint, 'outbox'
         FROM generate_series(1, 5000) g`,
        [T0, T0 + 10 * MINUTE],
      );
      const plans: Array<[string, string, unknown[]]> = [
        ['readGroup', SQL.readGroup, ['v42', 'acc_1', false, T0]],
        ['countOrConsume', SQL.countOrConsume.text, ['v42', 'v42', T0, 'v42']],
        ['countOrConsume (wrong)', SQL.countOrConsume.text, ['v42', null, T0, 'v42']],
        ['expireGroup', SQL.expireGroup, ['v42', T0]],
        ['failGroup', SQL.failGroup, ['v42', T0]],
        // A used magic link: its request by verifications_link, its group by its two indexes.
        ['consumeLink', SQL.consumeLink.text, [[Buffer.alloc(32, 1)], T0]],
      ];
      for (const [name, sql, params] of plans) {
        const { rows } = await admin.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
        const plan = JSON.stringify(rows[0]);
        expect(plan, name).toContain('verifications_group_others');
        expect(plan, name).not.toContain('verifications_pending_expiry');
      }
      for (const [name, sql, params] of [
        ['findLink', SQL.findLink.text, [[Buffer.alloc(32, 1), Buffer.alloc(32, 2)]]],
        ['consumeLink', SQL.consumeLink.text, [[Buffer.alloc(32, 1)], T0]],
        ['consumeLinks', SQL.consumeLinks.text, [[Buffer.alloc(32, 1)], [null], [T0]]],
      ] as const) {
        const { rows } = await admin.query(`EXPLAIN (FORMAT JSON) ${sql}`, [...params]);
        expect(JSON.stringify(rows[0]), name).toContain('verifications_link');
      }
      // A destination's requests: the pending ones by verifications_one_live (its first column is
      // the destination), the others by verifications_settled_destination; never the table whole.
      const hourAgo = T0 - 60 * MINUTE;
      const destinationReads: Array<[string, string, unknown[]]> = [
        [
          'destinationSignalsEmail',
          SQL.destinationSignalsEmail.text,
          [['acc_1'], ['u42@example.com'], [false], [hourAgo]],
        ],
        [
          'destinationSignals',
          SQL.destinationSignals.text,
          [['acc_1'], ['+447400123456'], [false], [hourAgo], ['+4474001234'], ['+4474001235'], ['GB']],
        ],
        ['listOutboxTo', SQL.listOutboxTo, [null, 'u42@example.com', 10, null, null]],
        ['contact history', contactSql('postgres').history, ['u42@example.com', 'acc_1', false, 20]],
      ];
      for (const [name, sql, params] of destinationReads) {
        const { rows } = await admin.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
        const plan = JSON.stringify(rows[0]);
        expect(plan, name).toContain('verifications_one_live');
        expect(plan, name).toContain('verifications_settled_destination');
        expect(plan, name).not.toContain('Seq Scan');
      }
      // A batch of sends: each fresh row finds its predecessor by verifications_one_live, which is
      // updated by primary key; never a join that reads every pending row.
      for (const size of [1, 50]) {
        const batch = Array.from({ length: size }, (_, i) =>
          verification({
            id: `new${i}`,
            groupId: `new${i}`,
            accountId: 'acc_1',
            destination: `u${i * 7}@example.com`,
          }),
        );
        const column = (k: keyof NewVerification) => batch.map((v) => v[k]);
        const { rows } = await admin.query(`EXPLAIN (FORMAT JSON) ${SQL.supersedeAndInsert.text}`, [
          column('id'),
          column('accountId'),
          column('groupId'),
          column('channel'),
          column('destination'),
          column('deliveryType'),
          column('country'),
          column('purpose'),
          column('codeHash'),
          column('maxAttempts'),
          column('createdAt'),
          column('expiresAt'),
          column('deliveryStatus'),
          column('outbox'),
          batch.map(() => false),
          batch.map(() => '123456'),
          batch.map(() => 'u***@example.com'),
          batch.map(() => null),
          batch.map(() => null),
          batch.map(() => 'en'),
          // A send without a magic link: no token hash, no redirect.
          batch.map(() => null),
          batch.map(() => null),
        ]);
        const plan = JSON.stringify(rows[0]);
        expect(plan, `supersedeAndInsert of ${size}`).toContain('verifications_one_live');
        expect(plan, `supersedeAndInsert of ${size}`).toContain('verifications_pkey');
        expect(plan, `supersedeAndInsert of ${size}`).not.toContain('verifications_pending_expiry');
        expect(plan, `supersedeAndInsert of ${size}`).not.toContain('Hash Join');
      }
      // A batch of guesses finds each request by primary key and its group by its two indexes,
      // and a batch of consumes each winner and its group the same way; the table is never
      // scanned whole. (The one hash join of the guesses' plan is of the batch's own results: the
      // requests with the rows counted for them.)
      const batches: Array<[string, string, (ids: string[]) => unknown[]]> = [
        [
          'readGroups',
          SQL.readGroups.text,
          (ids) => [ids, ids.map(() => 'acc_1'), ids.map(() => false), ids.map(() => T0)],
        ],
        [
          'tryAttempts',
          SQL.tryAttempts.text,
          (ids) => [
            ids,
            ids.map(() => 'acc_1'),
            ids.map(() => false),
            ids.map(() => T0),
            ids.map(() => null),
            ids.map(() => Buffer.alloc(32)),
            ids.map(() => null),
          ],
        ],
        [
          'countOrConsumeMany (wrong)',
          SQL.countOrConsumeMany.text,
          (ids) => [ids, ids.map(() => null), ids.map(() => T0), ids],
        ],
        [
          'countOrConsumeMany (right)',
          SQL.countOrConsumeMany.text,
          (ids) => [ids, ids, ids.map(() => T0), ids],
        ],
      ];
      for (const [name, sql, params] of batches) {
        for (const size of [2, 50]) {
          const ids = Array.from({ length: size }, (_, i) => `v${i * 97 + 1}`);
          const { rows } = await admin.query(`EXPLAIN (FORMAT JSON) ${sql}`, params(ids));
          const plan = JSON.stringify(rows[0]);
          expect(plan, `${name} of ${size}`).toContain('verifications_group_others');
          expect(plan, `${name} of ${size}`).toContain('verifications_pkey');
          expect(plan, `${name} of ${size}`).not.toContain('verifications_pending_expiry');
          expect(plan, `${name} of ${size}`).not.toContain('Seq Scan');
        }
      }
    });
  });
});
