import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { KeysAndAccounts } from '../domain/ports/keys-and-accounts.js';

/** How often the last uses of API keys are written: a key's lastUsedAt is at most this old. */
export const KEY_USE_FLUSH_MS = 60_000;

/**
 * Remembers when each API key last authenticated a request and writes those times in one batch
 * per interval, off the request path: a request costs a Map write, never a database write, and
 * a key is written at most once per interval however busy it is. The last batch is written when
 * the service stops; a crash loses at most one interval of uses (lastUsedAt is a hint, not a log).
 */
export class KeyUseRecorder {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly keys: Pick<KeysAndAccounts, 'recordApiKeyUses'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly intervalMs = KEY_USE_FLUSH_MS,
  ) {}

  record(keyId: string): void {
    this.pending.set(keyId, this.clock.now());
  }

  /** Flushes every interval; the timer never keeps the process alive. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** Writes the uses recorded since the last flush (waits for a flush under way first). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.keys.recordApiKeyUses(batch).then(
      () => undefined,
      (err: Error) => {
        // The database may be away: keep the uses for the next flush, unless newer ones came in.
        for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
        this.logger.warn({ err: err.message, keys: batch.size }, 'recording API key uses failed');
      },
    );
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  /** Stops the timer and writes what is left, so the store can be closed after it. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
