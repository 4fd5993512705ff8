import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { verification } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'cv-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('WAL checkpoints under a steady stream of writes', () => {
  it('start the log over, so it does not grow with everything ever written', async () => {
    const path = join(dir, 'steady.db');
    // A short log keeps the test quick: the default lets it reach 32,768 frames.
    const store = new SqliteStore(path, { walRestartFrames: 4096 });
    let rows = 0;
    try {
      // Writes without a pause for 3 s, and on a slow machine until 120,000 rows (about 17,000
      // pages) are written: a PASSIVE checkpoint alone never reaches the log's end.
      const started = Date.now();
      const writing = () => {
        const elapsed = Date.now() - started;
        return (elapsed < 3000 || rows < 120_000) && elapsed < 60_000;
      };
      for (; writing(); rows += 50) {
        await store.verifications.createVerifications(Array.from({ length: 50 }, () => verification()));
      }
      const probe = new BetterSqlite3(path);
      try {
        const pages = Number(probe.pragma('page_count', { simple: true }));
        // The frames now in the log (a PASSIVE checkpoint reports them; it never resets the log).
        const [status] = probe.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
        const log = status?.log ?? Number.NaN;
        // Every page of the file came through the log, most of them many times over: a log that
        // was never started over would hold at least as many frames as the file has pages. It
        // holds what was written since the last restart plus up to one check interval of writes.
        expect(pages).toBeGreaterThan(12_000);
        expect(log).toBeLessThan(pages);
      } finally {
        probe.close();
      }
    } finally {
      await store.close();
    }
    expect(rows).toBeGreaterThan(0);
    // The loop may write for up to 60 s on a loaded machine; the test waits for it.
  }, 90_000);
});
