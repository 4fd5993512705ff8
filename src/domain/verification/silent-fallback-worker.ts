import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { PeriodicRun } from '../periodic-run.js';
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
  private readonly periodic = new PeriodicRun(() => this.fireDue());

  constructor(private readonly options: SilentFallbackWorkerOptions) {}

  start(): void {
    this.periodic.start(this.options.intervalMs ?? 1000);
  }

  /** Fires what is due now (or joins the run under way); resolves how many it claimed. */
  runOnce(): Promise<number> {
    return this.periodic.run();
  }

  async stop(): Promise<void> {
    await this.periodic.stop();
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
