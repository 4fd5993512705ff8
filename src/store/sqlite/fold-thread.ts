/**
 * The fold of the change log on a worker thread with its own connection (see BackgroundFold).
 * Each unit is one IMMEDIATE transaction of at most `unit` changes: it holds the write lock a few
 * milliseconds, and `wants` (shared with the request thread) is 1 while it waits for or holds the
 * lock, so that the request thread's writers queue for those milliseconds instead of starving it.
 * A message 'stop' is read between ticks only, never inside a transaction.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteWebhookStore } from '../webhooks/sqlite.js';
import { SqliteFold } from './fold.js';
import { GroupCommit } from './group-commit.js';

interface FoldThreadData {
  path: string;
  intervalMs: number;
  unit: number;
  wants: Int32Array;
}

/** Units per tick at most, so that a backlog never keeps the thread from reading 'stop' for long. */
const MAX_UNITS_PER_TICK = 50;

const { path, intervalMs, unit, wants } = workerData as FoldThreadData;
const db = new BetterSqlite3(path);
// As the request thread's connection (SqliteStore): what a deletion frees is zeroed, and a commit
// survives a crash of the process. Checkpoints are the Checkpointer's.
db.pragma('synchronous = NORMAL');
db.pragma('secure_delete = ON');
db.pragma('journal_size_limit = 0');
db.pragma('wal_autocheckpoint = 0');
const webhooks = new SqliteWebhookStore(db, new GroupCommit(db));
// This thread serves no request: it may wait for the lock (GroupCommit set the timeout to 0).
db.pragma('busy_timeout = 2000');
const folder = new SqliteFold(db, webhooks);
const foldUnit = db.transaction(() => folder.run(unit, Date.now()));

let timer: NodeJS.Timeout | null = null;

function tick(): void {
  timer = null;
  try {
    for (let i = 0; i < MAX_UNITS_PER_TICK && folder.pending(); i++) {
      Atomics.store(wants, 0, 1);
      let folded: number;
      try {
        folded = foldUnit.immediate();
      } finally {
        Atomics.store(wants, 0, 0);
      }
      if (folded < unit) break;
    }
  } catch (err) {
    // A busy database or a full disk: the changes wait, and the next tick takes them up.
    parentPort?.postMessage({ error: (err as Error).message });
  }
  timer = setTimeout(tick, intervalMs);
}

parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  if (timer) clearTimeout(timer);
  db.close();
  parentPort?.close();
});
timer = setTimeout(tick, intervalMs);
