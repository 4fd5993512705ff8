import { describe } from 'vitest';
import type { Store } from '../../src/store/factory.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { migratedTestDatabase, truncateAll } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { aggregatesConformance } from './aggregates.conformance.js';
import { attemptRuleConformance } from './attempt.conformance.js';
import { storeConformance } from './conformance.js';
import { coverageOf } from './coverage.js';
import { foldConformance } from './fold.conformance.js';
import { linksConformance } from './links.conformance.js';
import { silentFallbacksConformance } from './silent-fallbacks.conformance.js';

// One database for the file (created and dropped here), emptied before each test.
describe.runIf(hasPostgres)('PostgreSQL store', () => {
  const url = migratedTestDatabase();

  const coverage = coverageOf({
    async open() {
      await truncateAll(url());
      return new PostgresStore(url());
    },
    close: (store: Store) => store.close(),
  });
  storeConformance('PostgreSQL', coverage.harness);
  foldConformance('PostgreSQL', coverage.harness);
  aggregatesConformance('PostgreSQL', coverage.harness);
  attemptRuleConformance('PostgreSQL', coverage.harness);
  silentFallbacksConformance('PostgreSQL', coverage.harness);
  linksConformance('PostgreSQL', coverage.harness);
  coverage.everyMethodExercised();
});
