import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadMigrations, markedConcurrent } from '../../src/store/migrations.js';
import { ADVISORY_LOCKS } from '../../src/store/postgres/advisory-locks.js';
import { concurrentStatements } from '../../src/store/postgres/concurrent-migration.js';
import { applyMigrations } from '../../src/store/postgres/migrate.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { waitFor, within } from '../support/wait.js';

describe('migrations marked to run concurrently', () => {
  it('are the index builds on the requests and contacts tables, and hold nothing else', () => {
    const marked = loadMigrations('postgres').filter((m) => m.concurrent);
    expect(marked.map((m) => m.name)).toEqual([
      '181_contacts_blocked',
      '182_pending_expiry_for_the_sweeper',
      '184_group_index_of_others',
      '185_destination_index_of_settled',
    ]);
    expect(concurrentStatements(marked[3] as (typeof marked)[number])).toEqual([
      {
        kind: 'create',
        index: 'verifications_settled_destination',
        sql: "CREATE INDEX CONCURRENTLY IF NOT EXISTS verifications_settled_destination ON verifications (destination) WHERE status <> 'pending'",
      },
      {
        kind: 'drop',
        index: 'verifications_destination',
        sql: 'DROP INDEX CONCURRENTLY IF EXISTS verifications_destination',
      },
    ]);
    expect(loadMigrations('sqlite').some((m) => m.concurrent)).toBe(false);
  });

  it('refuses any other statement, and a build that is not idempotent', () => {
    expect(markedConcurrent('-- Builds an index.\n-- run: concurrently\nCREATE INDEX …')).toBe(true);
    expect(markedConcurrent('-- run: concurrently? no\nCREATE INDEX …')).toBe(false);
    for (const sql of [
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS a ON t (x);\nALTER TABLE t ADD COLUMN y int;',
      'CREATE INDEX CONCURRENTLY a ON t (x);',
      'CREATE INDEX IF NOT EXISTS a ON t (x);',
      'DROP INDEX CONCURRENTLY a;',
    ]) {
      expect(() => concurrentStatements({ name: '900_x', sql }), sql).toThrow(/900_x runs concurrently/);
    }
  });
});

/** The database as the version before migration 184 left it: the two old indexes, whole. */
async function before184(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP INDEX IF EXISTS verifications_group_others, verifications_settled_destination,
        verifications_group, verifications_destination;
      DELETE FROM verifications;
      CREATE INDEX verifications_group ON verifications (group_id);
      CREATE INDEX verifications_destination ON verifications (destination);
      DELETE FROM schema_migrations WHERE version IN (184, 185);
      INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
          created_at, expires_at, delivery_status, status)
        SELECT 'r' || i, 'acc_1', 'r' || (i - i % 2), 'EMAIL', 'u' || i || '@example.com', '\\x00', 5,
          i, i + 600000, 'outbox', CASE WHEN i % 3 = 0 THEN 'pending' ELSE 'verified' END
          FROM generate_series(1, 5000) i`);
  } finally {
    await client.end();
  }
}

interface IndexRow {
  name: string;
  valid: boolean;
  definition: string;
}

async function indexes(pool: pg.Pool): Promise<IndexRow[]> {
  const { rows } = await pool.query<IndexRow>(
    `SELECT c.relname AS name, i.indisvalid AS valid, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'verifications'::regclass ORDER BY 1`,
  );
  return rows;
}

/**
 * Resolves once an index build on the requests table is under way, or waits for a lock on it (a
 * plain CREATE INDEX behind the open transaction, which shows no progress until it has the lock).
 */
const buildUnderWay = (pool: pg.Pool) =>
  waitFor(
    async () =>
      (
        await pool.query(
          `SELECT 1 FROM pg_stat_progress_create_index WHERE relid = 'verifications'::regclass
           UNION ALL SELECT 1 FROM pg_locks WHERE relation = 'verifications'::regclass AND NOT granted`,
        )
      ).rows.length > 0,
    { timeoutMs: 60_000, what: 'an index build on verifications' },
  );

const building = async (pool: pg.Pool) =>
  (await pool.query(`SELECT 1 FROM pg_stat_progress_create_index WHERE relid = 'verifications'::regclass`))
    .rows.length > 0;

const writeOne = (pool: pg.Pool, i: number) =>
  pool.query(
    `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
        created_at, expires_at, delivery_status, status)
      VALUES ($1, 'acc_1', $1, 'EMAIL', $2, '\\x00', 5, 1, 600001, 'outbox', 'verified')`,
    [`during-${i}`, `during-${i}@example.com`],
  );

describe.runIf(hasPostgres)('PostgreSQL: index builds that let the requests be written', () => {
  let db: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    const store = new PostgresStore(db.url);
    await store.migrate();
    await store.close();
    pool = new pg.Pool({ connectionString: db.url, max: 6 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });
  beforeEach(async () => {
    await before184(db.url);
  });

  it('builds while sends and verifies write the table, and the rows they wrote are in the new index', async () => {
    // A request's transaction left open: the build waits for it (as it waits for every writer
    // that began before it), which holds the build long enough to write beside it.
    const holder = await pool.connect();
    await holder.query("BEGIN; UPDATE verifications SET attempts = 1 WHERE id = 'r1'");
    const migrating = applyMigrations(pool);
    try {
      await buildUnderWay(pool);
      const writes = (async () => {
        for (let i = 0; i < 5; i++) await writeOne(pool, i);
        await pool.query("UPDATE verifications SET status = 'verified', attempts = 2 WHERE id = 'r3'");
      })();
      // A write held behind a build waits until the build ends (here: never, while it is held).
      await within(writes, 15_000, 'the writes during the build');
      // Written while the index was being built, not after: a plain CREATE INDEX would have held
      // those writes until it ended (behind the open transaction).
      expect(await building(pool)).toBe(true);
    } finally {
      await holder.query('COMMIT');
      holder.release();
    }
    const { applied } = await migrating;
    expect(applied).toEqual(expect.arrayContaining([184, 185]));

    const after = await indexes(pool);
    const names = after.map((i) => i.name);
    expect(names).toContain('verifications_group_others');
    expect(names).toContain('verifications_settled_destination');
    expect(names).not.toContain('verifications_group');
    expect(names).not.toContain('verifications_destination');
    expect(after.every((i) => i.valid)).toBe(true);

    const client = await pool.connect();
    try {
      await client.query('BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off');
      const { rows } = await client.query(
        "SELECT id FROM verifications WHERE destination = 'during-4@example.com' AND status <> 'pending'",
      );
      expect(rows).toEqual([{ id: 'during-4' }]);
      const plan = await client.query(
        "EXPLAIN SELECT id FROM verifications WHERE destination = 'during-4@example.com' AND status <> 'pending'",
      );
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('verifications_settled_destination');
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const { rows: recorded } = await pool.query(
      'SELECT version FROM schema_migrations WHERE version IN (184, 185)',
    );
    expect(recorded).toHaveLength(2);
  }, 120_000);

  it('takes over from an instance that stopped mid-build, and builds again the index it left invalid', async () => {
    // A unique build over duplicates fails and leaves its index behind, invalid, under the name;
    // the claim of the instance that ran it stopped beating long ago.
    await pool
      .query('CREATE UNIQUE INDEX CONCURRENTLY verifications_group_others ON verifications (account_id)')
      .catch(() => {});
    await pool.query(`CREATE TABLE IF NOT EXISTS schema_migration_claims (version INTEGER PRIMARY KEY, heartbeat_at BIGINT NOT NULL);
      INSERT INTO schema_migration_claims VALUES (184, 0) ON CONFLICT (version) DO UPDATE SET heartbeat_at = 0`);
    expect((await indexes(pool)).find((i) => i.name === 'verifications_group_others')).toMatchObject({
      valid: false,
    });

    await applyMigrations(pool);

    const rebuilt = (await indexes(pool)).find((i) => i.name === 'verifications_group_others');
    expect(rebuilt).toMatchObject({ valid: true });
    expect(rebuilt?.definition).toMatch(/\(group_id\) WHERE \(group_id <> id\)$/);
    // Claims are given up once their migration is recorded.
    expect((await pool.query('SELECT * FROM schema_migration_claims')).rows).toEqual([]);
  }, 120_000);

  it('lets instances that start together wait for one build, and records each migration once', async () => {
    const holder = await pool.connect();
    await holder.query("BEGIN; UPDATE verifications SET attempts = 1 WHERE id = 'r1'");
    const other = new pg.Pool({ connectionString: db.url, max: 4 });
    try {
      const first = applyMigrations(pool);
      await buildUnderWay(pool);
      const second = applyMigrations(other, 50);
      // The second one waits while the first one's build is held.
      await new Promise((r) => setTimeout(r, 300));
      await holder.query('COMMIT');
      // Its claim is taken: it waits in short transactions (none that the build waits on for long).
      expect((await pool.query('SELECT version FROM schema_migration_claims')).rows).toEqual([
        { version: 184 },
      ]);
      const [a, b] = await Promise.all([first, second]);
      expect([...a.applied, ...b.applied].filter((v) => v === 184 || v === 185).sort()).toEqual([184, 185]);
    } finally {
      holder.release();
      await other.end();
    }
    const after = await indexes(pool);
    expect(after.every((i) => i.valid)).toBe(true);
    expect(after.map((i) => i.name)).toContain('verifications_group_others');
    expect(after.map((i) => i.name)).toContain('verifications_settled_destination');
    const { rows } = await pool.query(
      'SELECT count(*)::int AS n FROM schema_migrations WHERE version IN (184, 185)',
    );
    expect(rows[0].n).toBe(2);
  }, 120_000);

  it("runs past the request path's read timeout: waits for the instance migrating first, then for its own build", async () => {
    // Another instance migrating: it holds the migrations' lock. And a request's transaction left
    // open, which the build waits for.
    const first = await pool.connect();
    await first.query('BEGIN');
    await first.query('SELECT pg_advisory_xact_lock($1, $2)', [...ADVISORY_LOCKS.migrate]);
    const holder = await pool.connect();
    await holder.query("BEGIN; UPDATE verifications SET attempts = 1 WHERE id = 'r1'");
    // A request's statement is cut off after 200 ms; a migration is not.
    const store = new PostgresStore(db.url, { queryTimeoutMs: 200 });
    const migrating = store.migrate();
    migrating.catch(() => {}); // met below
    try {
      await new Promise((r) => setTimeout(r, 800));
      await first.query('COMMIT');
      // A migration cut off by the timeout fails here, at once, with its error.
      await Promise.race([buildUnderWay(pool), migrating.then(() => {})]);
      await new Promise((r) => setTimeout(r, 800));
      expect(await building(pool)).toBe(true);
      await holder.query('COMMIT');
      await expect(migrating).resolves.toEqual(expect.arrayContaining([184, 185]));
      // The store serves on its own pools once migrated (their timeout: postgres.store.test.ts).
      await expect(store.accounts.getAccount('acc_1')).resolves.toBeNull();
    } finally {
      first.release();
      holder.release();
      await store.close();
    }
    expect((await indexes(pool)).every((i) => i.valid)).toBe(true);
  }, 120_000);
});
