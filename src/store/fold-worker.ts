import type { Logger } from 'pino';
import type { ReadModel } from '../domain/ports/read-model.js';
import type { BackgroundFold, StoreLifecycle } from './lifecycle.js';

export interface FoldWorkerOptions {
  readModel: Pick<ReadModel, 'fold'>;
  logger: Logger;
  intervalMs: number;
  /** Changes per batch (default 5,000): larger batches spread each statement's cost thinner. */
  batchSize?: number;
  /** The store's own fold beside the request path (StoreLifecycle.foldInBackground), run instead of the timer where it can. */
  background?: StoreLifecycle['foldInBackground'];
}

/** Batches per run at most, so a huge backlog does not hold one run for ever. */
const MAX_BATCHES_PER_RUN = 100;

/**
 * Folds the change log (src/store/fold.ts) every `intervalMs`, off the request path: every
 * instance runs one, and they share the work (the store's batches are disjoint). Reads of
 * analytics and contacts fold what is left themselves, so nothing waits for this timer.
 */
export class FoldWorker {
  private timer: NodeJS.Timeout | null = null;
  private background: BackgroundFold | null = null;
  private running: Promise<number> | null = null;
  private readonly batchSize: number;

  constructor(private readonly options: FoldWorkerOptions) {
    this.batchSize = options.batchSize ?? 5_000;
  }

  /** Starts the store's background fold where it has one, else this timer. */
  start(): void {
    if (this.timer || this.background) return;
    const { logger, intervalMs } = this.options;
    this.background =
      this.options.background?.(intervalMs, {
        onError: (message) => logger.warn({ err: message }, 'fold stopped early'),
        onFailed: (err) => {
          logger.warn({ err: err.message }, 'the background fold stopped; folding on the timer');
          this.background = null;
          this.startTimer();
        },
      }) ?? null;
    if (!this.background) this.startTimer();
  }

  private startTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Folds until a batch comes back short (or the one run under way); resolves how many it folded. */
  runOnce(): Promise<number> {
    this.running ??= this.foldAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stops the timer, waits for a run under way, then folds what is left before the store closes. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const background = this.background;
    this.background = null;
    await background?.stop();
    await this.running;
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
