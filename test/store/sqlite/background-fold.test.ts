import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { FoldWorker } from '../../../src/store/fold-worker.js';
import type { BackgroundFold } from '../../../src/store/lifecycle.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { waitFor } from '../../support/wait.js';
import { verification } from '../fixtures.js';

const logger = pino({ level: 'silent' });
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A store on a file of its own, and a second connection that reads what the thread folded. */
function openFile() {
  const dir = mkdtempSync(join(tmpdir(), 'cv-background-fold-'));
  const path = join(dir, 'verify.db');
  const store = new SqliteStore(path);
  const probe = new BetterSqlite3(path, { readonly: true });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  cleanups.push(() => {
    probe.close();
  });
  const count = (sql: string) => Number(probe.prepare(sql).pluck().get() ?? 0);
  return {
    store,
    waiting: () => count('SELECT count(*) FROM changes'),
    sent: () => count('SELECT coalesce(sum(sent), 0) FROM analytics_hourly'),
    contacts: () => count('SELECT count(*) FROM contacts'),
  };
}

const sends = (n: number) => Array.from({ length: n }, () => verification({ createdAt: Date.now() }));
const noEvents = { onError: () => {}, onFailed: () => {} };

describe('the SQLite fold on a thread of its own', () => {
  it('folds what the request thread writes, without the request thread folding anything', async () => {
    const file = openFile();
    const background = file.store.foldInBackground(20, noEvents) as BackgroundFold;
    expect(background).not.toBeNull();
    await file.store.verifications.createVerifications(sends(30));
    await waitFor(() => file.waiting() === 0 && file.sent() === 30, { what: 'the thread to fold 30 sends' });
    expect(file.contacts()).toBe(30);
    await background.stop();
  });

  it('counts every send exactly once while the request thread keeps writing beside it', async () => {
    const file = openFile();
    file.store.foldInBackground(10, noEvents);
    // 40 turns of 250 sends: the thread's short transactions and the group commit take turns at
    // the write lock; a unit folded twice or lost would show in the sums.
    const written: Array<Promise<void>> = [];
    for (let turn = 0; turn < 40; turn++) {
      written.push(file.store.verifications.createVerifications(sends(250)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(written);
    await waitFor(() => file.waiting() === 0, { what: 'the backlog to be folded' });
    expect(file.sent()).toBe(10_000);
    expect(file.contacts()).toBe(10_000);
  });

  it('stops before the store closes: what is left is folded by the store at close', async () => {
    const file = openFile();
    const background = file.store.foldInBackground(60_000, noEvents) as BackgroundFold;
    await file.store.verifications.createVerifications(sends(5));
    await background.stop();
    expect(file.waiting()).toBe(5);
    const folds = new FoldWorker({ readModel: file.store.readModel, logger, intervalMs: 60_000 });
    await folds.stop();
    expect(file.waiting()).toBe(0);
    expect(file.sent()).toBe(5);
  });

  it('is not started where it cannot run: an in-memory database, or a clock other than the system one', async () => {
    const memory = new SqliteStore(':memory:');
    cleanups.push(() => memory.close());
    expect(memory.foldInBackground(20, noEvents)).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), 'cv-background-fold-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const manual = new SqliteStore(join(dir, 'verify.db'), { clock: new ManualClock(0) });
    cleanups.push(() => manual.close());
    expect(manual.foldInBackground(20, noEvents)).toBeNull();
  });

  it('hands the fold back to the timer when the thread dies', async () => {
    const file = openFile();
    const failures: string[] = [];
    const folds = new FoldWorker({
      readModel: file.store.readModel,
      logger,
      intervalMs: 20,
      background: (intervalMs, events) =>
        file.store.foldInBackground(intervalMs, {
          ...events,
          onFailed: (err) => {
            failures.push(err.message);
            events.onFailed(err);
          },
        }),
    });
    cleanups.push(() => folds.stop());
    folds.start();
    const thread = (file.store as unknown as { background: { worker: { terminate(): Promise<number> } } })
      .background;
    await thread.worker.terminate();
    await waitFor(() => failures.length > 0, { what: 'the failure to be told' });
    await file.store.verifications.createVerifications(sends(7));
    await waitFor(() => file.waiting() === 0 && file.sent() === 7, { what: 'the timer to fold' });
  });
});
