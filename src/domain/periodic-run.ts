/**
 * A job run every interval and never twice at once: a run asked for while one is under way joins
 * it. The timer never keeps the process alive; `stop()` waits for the run under way, so what the
 * job uses (a store, a connection) can be closed right after it.
 */
export class PeriodicRun<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  constructor(private readonly job: () => Promise<T>) {}

  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.run(), intervalMs);
    this.timer.unref();
  }

  /** Runs the job now, unless it runs already (then resolves with that run's result). */
  run(): Promise<T> {
    this.running ??= this.job().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stops the timer and waits for a run under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
