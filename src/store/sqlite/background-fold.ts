import { Worker } from 'node:worker_threads';
import type { BackgroundFold } from '../lifecycle.js';

/**
 * The SQLite fold on a worker thread of its own (src/store/sqlite/fold-thread.ts). On the request
 * thread every interval's fold held the event loop for tens of milliseconds under load, and its
 * CPU was taken from the requests; here it runs on another core, in short write transactions the
 * request thread's group commit waits for on its timer (`wantsLock`). Should the thread fail,
 * `onFailed` is told, so the caller folds on its own timer again.
 */
export class SqliteBackgroundFold implements BackgroundFold {
  private readonly wants = new Int32Array(new SharedArrayBuffer(4));
  private readonly worker: Worker;
  private stopped: Promise<void> | null = null;

  constructor(
    path: string,
    options: {
      intervalMs: number;
      /** Changes per write transaction. */
      unit?: number;
      onError: (message: string) => void;
      onFailed: (err: Error) => void;
    },
  ) {
    const workerData = { path, intervalMs: options.intervalMs, unit: options.unit ?? 500, wants: this.wants };
    this.worker = fromSources()
      ? // Tests and `npm run dev` run the TypeScript sources: the thread loads them through tsx.
        new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(
            new URL('./fold-thread.ts', import.meta.url).href,
          )}); })`,
          { eval: true, workerData },
        )
      : new Worker(new URL('./fold-thread.js', import.meta.url), { workerData });
    this.worker.unref();
    this.worker.on('message', (m: { error?: string }) => {
      if (m?.error) options.onError(m.error);
    });
    const failed = (err: Error) => {
      Atomics.store(this.wants, 0, 0);
      if (!this.stopped) options.onFailed(err);
    };
    this.worker.once('error', failed);
    this.worker.once('exit', (code) => failed(new Error(`the fold thread exited (${code})`)));
  }

  /** True while the thread waits for or holds the write lock: the request thread's writers hold off. */
  wantsLock(): boolean {
    return Atomics.load(this.wants, 0) === 1;
  }

  stop(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      this.worker.once('exit', () => resolve());
      // Held until it has closed its connection: at shutdown nothing else may keep this process up.
      this.worker.ref();
      this.worker.postMessage('stop');
    }).finally(() => Atomics.store(this.wants, 0, 0));
    return this.stopped;
  }
}

const fromSources = () => import.meta.url.endsWith('.ts');
