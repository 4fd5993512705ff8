import type { Logger } from 'pino';
import { PeriodicRun } from '../domain/periodic-run.js';
import type { ReadModel } from '../domain/ports/read-model.js';

export interface FoldWorkerOptions {
  readModel: Pick<ReadModel, 'fold'>;
  logger: Logger;
  intervalMs: number;
  /** Changes per batch (default 5,000): larger batches spread each statement's cost thinner. */
  batchSize?: number;
}

/** Batches per run at most, so a huge backlog does not hold one run for ever. */
const MAX_BATCHES_PER_RUN = 100;

/**
 * Folds the change log (src/store/fold.ts) every `intervalMs`, off the request path: every
 * instance runs one, and they share the work (the store's batches are disjoint). Reads of
 * analytics and contacts fold what is left themselves, so nothing waits for this timer.
 *
 * On SQLite the fold runs on the request thread's own connection. On a second connection (a
 * worker thread) it was slower: each time the writer changes, SQLite empties the other
 * connection's page cache, so on a file of a million requests every fold unit cost the request
 * thread its cache, and send-code fell to 0.6-0.85x of folding here.
 */
export class FoldWorker {
  private readonly periodic = new PeriodicRun(() => this.foldAll());
  private readonly batchSize: number;

  constructor(private readonly options: FoldWorkerOptions) {
    this.batchSize = options.batchSize ?? 5_000;
  }

  start(): void {
    this.periodic.start(this.options.intervalMs);
  }

  /** Folds until a batch comes back short (or the one run under way); resolves how many it folded. */
  runOnce(): Promise<number> {
    return this.periodic.run();
  }

  /** Stops the timer, waits for a run under way, then folds what is left before the store closes. */
  async stop(): Promise<void> {
    await this.periodic.stop();
    await this.runOnce();
  }

  private async foldAll(): Promise<number> {
    let folded = 0;
    try {
      for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
        const n = await this.options.readModel.fold(this.batchSize);
        folded += n;
        if (n < this.batchSize) break;
      }
    } catch (err) {
      // The database may be away; the next run takes up where this one stopped.
      this.options.logger.warn({ err: (err as Error).message }, 'fold stopped early');
    }
    return folded;
  }
}
