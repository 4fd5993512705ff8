import type { Logger } from 'pino';
import { type Clock, DAY_MS } from '../domain/clock.js';
import { PeriodicRun } from '../domain/periodic-run.js';
import type { SweepResult, Verifications } from '../domain/ports/verifications.js';

export interface SweeperOptions {
  verifications: Pick<Verifications, 'sweep'>;
  clock: Clock;
  logger: Logger;
  /** Requests and outbox messages older than this are deleted. */
  retentionDays: number;
  intervalSeconds: number;
  /** Rows per statement, so a large backlog never holds locks for long (default 500). */
  batchSize?: number;
  /**
   * Other tables with rows to drop on the same schedule (idempotency keys, webhook deliveries):
   * each deletes up to `batchSize` rows due at `now` and says how many.
   */
  extraSweeps?: ExtraSweep[];
}

export interface ExtraSweep {
  name: string;
  sweep(now: number, batchSize: number): Promise<number>;
}

// A bound on batches per run, so one run cannot spin forever on a store that keeps reporting full
// batches; the next run picks up where this one stopped.
const MAX_BATCHES_PER_RUN = 10_000;

/**
 * The retention sweeper: marks overdue pending requests expired and deletes rows past the
 * retention, batch after batch until a batch comes back short. Every instance runs one; the
 * store's batches are idempotent (and take disjoint rows on PostgreSQL), so they never conflict.
 */
export class Sweeper {
  private readonly periodic = new PeriodicRun(() => this.sweepAll());
  private readonly batchSize: number;

  constructor(private readonly options: SweeperOptions) {
    this.batchSize = options.batchSize ?? 500;
  }

  /** Runs a sweep every `intervalSeconds`; the timer never keeps the process alive. */
  start(): void {
    this.periodic.start(this.options.intervalSeconds * 1000);
  }

  /** Sweeps now, unless a sweep is under way already (then resolves with that one's result). */
  run(): Promise<SweepResult> {
    return this.periodic.run();
  }

  /** Stops the timer and waits for a sweep under way, so the store can be closed after it. */
  async stop(): Promise<void> {
    await this.periodic.stop();
  }

  private async sweepAll(): Promise<SweepResult> {
    const { verifications, clock, logger, retentionDays } = this.options;
    const total: SweepResult = { expired: 0, deleted: 0 };
    let batches = 0;
    try {
      while (batches < MAX_BATCHES_PER_RUN) {
        const r = await verifications.sweep(clock.now(), retentionDays * DAY_MS, this.batchSize);
        batches++;
        total.expired += r.expired;
        total.deleted += r.deleted;
        // `deleted` adds two tables' batches: it stays below one batch only when both came back short.
        if (r.expired < this.batchSize && r.deleted < this.batchSize) break;
      }
    } catch (err) {
      // The database may be away (503 for requests meanwhile); the next run tries again.
      logger.warn({ err: (err as Error).message, ...total }, 'retention sweep stopped early');
      return total;
    }
    // Counts only: destinations never reach the logs.
    if (total.expired > 0 || total.deleted > 0) logger.info({ ...total, batches }, 'retention sweep');
    for (const extra of this.options.extraSweeps ?? []) await this.sweepExtra(extra);
    return total;
  }

  private async sweepExtra(extra: ExtraSweep): Promise<void> {
    let deleted = 0;
    try {
      for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
        const n = await extra.sweep(this.options.clock.now(), this.batchSize);
        deleted += n;
        if (n < this.batchSize) break;
      }
    } catch (err) {
      this.options.logger.warn(
        { err: (err as Error).message, table: extra.name, deleted },
        'sweep stopped early',
      );
      return;
    }
    if (deleted > 0) this.options.logger.info({ table: extra.name, deleted }, 'retention sweep');
  }
}
