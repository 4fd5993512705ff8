import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Store } from '../../src/store/interface.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { storeConformance } from './conformance.js';
import { foldConformance } from './fold.conformance.js';

storeConformance('SQLite :memory:', {
  open: async () => new SqliteStore(':memory:'),
  close: (store: Store) => store.close(),
});

// A file exercises WAL mode and the real commit path, which :memory: skips.
const dir = mkdtempSync(join(tmpdir(), 'cv-store-'));
let files = 0;
storeConformance('SQLite file', {
  open: async () => new SqliteStore(join(dir, `store-${files++}.db`)),
  close: (store: Store) => store.close(),
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

foldConformance('SQLite :memory:', {
  open: async () => new SqliteStore(':memory:'),
  close: (store: Store) => store.close(),
});
