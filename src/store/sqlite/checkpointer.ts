import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';

/**
 * Runs the WAL checkpoints of a database file on a worker thread with its own connection.
 *
 * SQLite's automatic checkpoint runs inside whichever COMMIT crosses 1000 pages of WAL: it copies
 * the pages into the database file and fsyncs it, on the event loop, in the middle of a request.
 * Measured under load it was a quarter of the cost of committing. A PASSIVE checkpoint on another
 * thread takes none of the writer's locks, so commits only append to the WAL; once a checkpoint
 * has copied everything, the next write transaction starts the WAL again from its beginning.
 * Should the worker stop, the connection goes back to automatic checkpoints, so the WAL never
 * grows without bound. An idle log is emptied (below), so settled codes do not linger in it.
 */
export class Checkpointer {
  private readonly worker: Worker;
  private stopping = false;
  /** 1 while the worker's RESTART checkpoint wants or holds the write lock (shared with it). */
  private readonly restarting = new Int32Array(new SharedArrayBuffer(4));

  /** `restartFrames`: the WAL length, in frames, past which the log is started over (see below). */
  constructor(db: Database, path: string, restartFrames = RESTART_FRAMES, intervalMs = 200) {
    db.pragma('wal_autocheckpoint = 0');
    // An eval'd worker runs as CommonJS, from the dist build and from the TypeScript sources alike.
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module, path, intervalMs, restartFrames, restarting: this.restarting },
    });
    this.worker.unref();
    const fallBack = () => {
      Atomics.store(this.restarting, 0, 0);
      if (!this.stopping && db.open) db.pragma('wal_autocheckpoint = 1000');
    };
    this.worker.once('error', fallBack);
    this.worker.once('exit', fallBack);
  }

  /**
   * True while a RESTART checkpoint waits for the write lock: this process's writers then hold off
   * (GroupCommit queues them on its timer). Without it, a writer that commits and begins again
   * within one event-loop turn leaves the lock free for too short a moment: under a steady load on
   * a busy machine the checkpoint never got it, and the log grew without bound.
   */
  restartPending(): boolean {
    return Atomics.load(this.restarting, 0) === 1;
  }

  /** Stops the worker; closing the last connection then checkpoints what is left. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.worker.terminate();
  }
}

/**
 * A PASSIVE checkpoint never waits, but under a steady stream of writes it never catches up with
 * the end of the log either, so the log would never start again from its beginning: it grows,
 * and every read and commit gets slower as it does (they search a longer WAL index). Past
 * RESTART_FRAMES the worker runs a RESTART checkpoint instead: it waits for the current write
 * transaction, holds off the next ones (which queue on a timer, see GroupCommit) while it copies
 * the few frames the last PASSIVE one left and syncs both files, and lets the next writer start
 * the log over. It waits at most 100 ms for the lock (another process may hold it) and tries
 * again at the next tick. That hold-off took 13–36 ms per RESTART here, which every send arriving
 * meanwhile waits out: at 4,096 frames (16 MB) it came every half second under load and set
 * send-code's p99; at 32,768 frames (a WAL of up to 128 MB on disk) it comes every few seconds.
 */
const RESTART_FRAMES = 32_768;

/*
 * An idle log is emptied. Old frames hold old page images: the pending version of a row (its
 * outbox code in clear) stays in the log after the request settles, until a write starts the log
 * over after a complete checkpoint. On an idle instance that write is the next key-use flush or
 * sweep, 42-54 s later, and a failed code (five wrong guesses right after the send) sat in clear in
 * the -wal file all that time. So when a PASSIVE checkpoint has copied the whole log and nothing was
 * committed since the previous tick, a TRUNCATE checkpoint cuts the file to zero bytes, holding
 * writers off as RESTART does (for a moment: there is nothing left to copy). A settled code is then
 * gone from the log within two ticks of the last write. Under steady writes the log is never idle
 * for a tick and this never runs: there each write after a complete checkpoint starts the log over
 * (journal_size_limit 0 cuts what lies beyond), and past RESTART_FRAMES the RESTART above does.
 */

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 100');
const holdingWriters = (mode) => {
  Atomics.store(workerData.restarting, 0, 1);
  try {
    db.pragma('wal_checkpoint(' + mode + ')');
  } finally {
    Atomics.store(workerData.restarting, 0, 0);
  }
};
let lastVersion = -1;
const tick = () => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    // Changes when another connection commits: the same value twice means no write in between.
    const version = db.pragma('data_version', { simple: true });
    if (result && result.log > workerData.restartFrames) holdingWriters('RESTART');
    else if (result && result.log > 0 && result.busy === 0 && result.checkpointed === result.log && version === lastVersion)
      holdingWriters('TRUNCATE');
    lastVersion = version;
  } catch {}
  setTimeout(tick, workerData.intervalMs);
};
setTimeout(tick, workerData.intervalMs);
`;
