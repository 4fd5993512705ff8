import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, TEST_DATABASE_PREFIX, testDatabasePrefix } from '../support/postgres.js';
import { hasPostgres, POSTGRES_URL } from '../support/services.js';

/** The databases tests create are named by TEST_DATABASE_PREFIX, cv_test_ when it is not set. */
describe('the prefix of test databases', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('is cv_test_ by default and TEST_DATABASE_PREFIX when set', async () => {
    expect(testDatabasePrefix(undefined)).toBe('cv_test_');
    expect(testDatabasePrefix('')).toBe('cv_test_');
    if (!process.env.TEST_DATABASE_PREFIX) expect(TEST_DATABASE_PREFIX).toBe('cv_test_');
    vi.stubEnv('TEST_DATABASE_PREFIX', 'cv_ci_run42_');
    vi.resetModules();
    const fresh = await import('../support/postgres.js');
    expect(fresh.TEST_DATABASE_PREFIX).toBe('cv_ci_run42_');
  });

  it('is refused unless a plain identifier: it is written into CREATE DATABASE', () => {
    for (const bad of [
      'cv-test-',
      'CV_TEST_',
      '1cv_',
      'cv_test_; DROP DATABASE postgres; --',
      'x'.repeat(50),
    ])
      expect(() => testDatabasePrefix(bad), bad).toThrow(/TEST_DATABASE_PREFIX/);
  });

  it.runIf(hasPostgres)('names the database created and dropped on the server', async () => {
    const db = await createTestDatabase('cv_prefix_check_');
    const exists = async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name])).rowCount;
      } finally {
        await client.end();
      }
    };
    try {
      expect(db.name).toMatch(/^cv_prefix_check_[0-9a-f]{12}$/);
      expect(new URL(db.url).pathname).toBe(`/${db.name}`);
      expect(await exists()).toBe(1);
    } finally {
      await db.drop();
    }
    expect(await exists()).toBe(0);
  });
});
