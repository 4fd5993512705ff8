import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Store } from '../../src/store/factory.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { aggregatesConformance } from './aggregates.conformance.js';
import { attemptRuleConformance } from './attempt.conformance.js';
import { storeConformance } from './conformance.js';
import { coverageOf } from './coverage.js';
import { foldConformance } from './fold.conformance.js';
import { linksConformance } from './links.conformance.js';
import { silentFallbacksConformance } from './silent-fallbacks.conformance.js';

// The methods the suites call, recorded on the :memory: runs: each must be called by some test.
const coverage = coverageOf({
  open: async () => new SqliteStore(':memory:'),
  close: (store: Store) => store.close(),
});
storeConformance('SQLite :memory:', coverage.harness);

// A file exercises WAL mode and the real commit path, which :memory: skips.
const dir = mkdtempSync(join(tmpdir(), 'cv-store-'));
let files = 0;
storeConformance('SQLite file', {
  open: async () => new SqliteStore(join(dir, `store-${files++}.db`)),
  close: (store: Store) => store.close(),
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

foldConformance('SQLite :memory:', coverage.harness);
aggregatesConformance('SQLite :memory:', coverage.harness);
attemptRuleConformance('SQLite :memory:', coverage.harness);
silentFallbacksConformance('SQLite :memory:', coverage.harness);
linksConformance('SQLite :memory:', coverage.harness);
coverage.everyMethodExercised();
