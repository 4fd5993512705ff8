import { afterAll, describe } from 'vitest';
import { startTestService, type TestService } from './app.js';

type StartOptions = Parameters<typeof startTestService>[1];

import { createTestDatabase, type TestDatabase } from './postgres.js';
import { hasPostgres } from './services.js';

/**
 * Runs `define` once on SQLite (in memory) and once on PostgreSQL (a database of its own, dropped
 * after), giving it a function that starts the whole service on that store.
 */
export function eachStore(
  name: string,
  define: (
    start: (env?: Record<string, string>, options?: StartOptions) => Promise<TestService>,
    dialect: 'sqlite' | 'postgres',
  ) => void,
): void {
  describe(`${name} (SQLite)`, () =>
    define((env = {}, options = {}) => startTestService(env, options), 'sqlite'));
  describe.runIf(hasPostgres)(`${name} (PostgreSQL)`, () => {
    let db: TestDatabase | undefined;
    afterAll(() => db?.drop());
    define(async (env = {}, options = {}) => {
      db ??= await createTestDatabase();
      return startTestService({ DATABASE_URL: db.url, ...env }, options);
    }, 'postgres');
  });
}
