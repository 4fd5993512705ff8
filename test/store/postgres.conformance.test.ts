import { afterAll, beforeAll, describe } from 'vitest';
import type { Store } from '../../src/store/factory.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { createTestDatabase, type TestDatabase, truncateAll } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { aggregatesConformance } from './aggregates.conformance.js';
import { storeConformance } from './conformance.js';
import { coverageOf } from './coverage.js';
import { foldConformance } from './fold.conformance.js';

// One database for the file (created and dropped here), emptied before each test.
describe.runIf(hasPostgres)('PostgreSQL store', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    const store = new PostgresStore(db.url);
    await store.migrate();
    await store.close();
  });
  afterAll(() => db?.drop());

  const coverage = coverageOf({
    async open() {
      await truncateAll(db.url);
      return new PostgresStore(db.url);
    },
    close: (store: Store) => store.close(),
  });
  storeConformance('PostgreSQL', coverage.harness);
  foldConformance('PostgreSQL', coverage.harness);
  aggregatesConformance('PostgreSQL', coverage.harness);
  coverage.everyMethodExercised();
});
