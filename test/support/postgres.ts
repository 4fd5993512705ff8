import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { POSTGRES_URL } from './services.js';

/** A throwaway PostgreSQL database for one test file: created on the machine's server, dropped after. */
export interface TestDatabase {
  name: string;
  /** Connection string of the new database. */
  url: string;
  /** The same database reached through another host and port (a proxy in front of PostgreSQL). */
  urlVia(host: string, port: number): string;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The start of every database name the tests create, `cv_test_` unless TEST_DATABASE_PREFIX
 * says otherwise (runs that share a server apart, or a prefix an operator's clean-up knows).
 * A plain identifier, as it is written into CREATE DATABASE unquoted.
 */
export const TEST_DATABASE_PREFIX = testDatabasePrefix(process.env.TEST_DATABASE_PREFIX);

export function testDatabasePrefix(value: string | undefined): string {
  const prefix = value || 'cv_test_';
  // 63 bytes is PostgreSQL's limit for a name; the tests add up to 14 characters.
  if (!/^[a-z_][a-z0-9_]{0,48}$/.test(prefix))
    throw new Error(
      `TEST_DATABASE_PREFIX=${JSON.stringify(value)}: lower case letters, digits and _, starting with a letter or _, at most 49 characters`,
    );
  return prefix;
}

export async function createTestDatabase(prefix = TEST_DATABASE_PREFIX): Promise<TestDatabase> {
  const name = `${testDatabasePrefix(prefix)}${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    urlVia(host, port) {
      const via = new URL(url);
      via.hostname = host;
      via.port = String(port);
      return via.toString();
    },
    // FORCE ends connections a failed test may have left behind (PostgreSQL 13+).
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/**
 * A database for the enclosing describe block: created and migrated before its tests, dropped
 * after them. Returns its URL (read it inside a test or hook).
 */
export function migratedTestDatabase(): () => string {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    const store = new PostgresStore(db.url);
    await store.migrate();
    await store.close();
  });
  afterAll(() => db?.drop());
  return () => (db as TestDatabase).url;
}

/** Empties every table of a migrated database between tests, keeping the schema. */
export function truncateAll(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  return (
    client
      .connect()
      // Every table the migrations made (new ones included), not the record of the migrations.
      .then(() =>
        client.query(`DO $$ BEGIN
        EXECUTE (SELECT 'TRUNCATE ' || string_agg(quote_ident(tablename), ', ') || ' RESTART IDENTITY CASCADE'
          FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations');
      END $$`),
      )
      .then(
        () => client.end(),
        async (err) => {
          await client.end();
          throw err;
        },
      )
  );
}
