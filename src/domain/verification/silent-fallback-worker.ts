import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { SilentFallbacks } from '../ports/silent-fallbacks.js';
import type { EffectiveSettings } from '../settings.js';
import { FALLBACK_LEASE_MS, type SilentFallbackSender } from './silent-fallback.js';

export interface SilentFallbackWorkerOptions {
  fallbacks: Pick<SilentFallbacks, 'claimDue'>;
  sender: Pick<SilentFallbackSender, 'fire'>;
  /** The settings an account's requests run under (null: the account is gone, its fallbacks are dropped). */
  settingsFor(accountId: string): Promise<EffectiveSettings | null>;
  clock: Clock;
  logger: Logger;
  /** How often due fallbacks are looked for (default 1 s: a timeout fires at most this late). */
  intervalMs?: number;
  /** Fallbacks claimed per run at most. */
  batchSize?: number;
}

/**
 * Fires the fallbacks whose silent check timed out (the account's silentTimeoutSeconds). The
 * fallbacks are rows of the database, claimed with a lease: every instance runs a worker, each
 * due fallback fires on one of them, and one scheduled before a restart fires after it.
 */
export class SilentFallbackWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly options: SilentFallbackWorkerOptions) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.options.intervalMs ?? 1000);
    this.timer.unref();
  }

  /** Fires what is due now (or joins the run under way); resolves how many it claimed. */
  runOnce(): Promise<number> {
    this.running ??= this.fireDue().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async fireDue(): Promise<number> {
    const { fallbacks, sender, settingsFor, clock, logger } = this.options;
    let claimed: Awaited<ReturnType<typeof fallbacks.claimDue>>;
    try {
      claimed = await fallbacks.claimDue(clock.now(), this.options.batchSize ?? 50, FALLBACK_LEASE_MS);
    } catch (err) {
      logger.error({ err }, 'silent fallbacks could not be claimed');
      return 0;
    }
    for (const f of claimed) {
      try {
        const s = await settingsFor(f.accountId);
        if (s) await sender.fire(f, 'timeout', s);
      } catch (err) {
        // Its lease ends and a later run (on any instance) tries it again.
        logger.error({ err, requestId: f.requestId }, 'a silent fallback could not be fired');
      }
    }
    return claimed.length;
  }
}
