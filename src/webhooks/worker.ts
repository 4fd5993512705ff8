import { randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { DueDelivery, WebhookStore } from '../store/webhooks/interface.js';
import { webhookPayload } from './events.js';
import type { WebhookObserver } from './metrics.js';
import type { SecretBox } from './secrets.js';
import { postWebhook } from './sender.js';
import type { WebhookOptions } from './settings.js';

/**
 * How long a claimed delivery stays with its worker: past the attempt's timeout, with room for
 * recording the outcome. Another instance takes it again only after this (a dead worker).
 */
const leaseMs = (timeoutMs: number) => timeoutMs * 2 + 1000;

export interface WebhookWorkerDeps {
  store: WebhookStore;
  secrets: SecretBox;
  clock: Clock;
  logger: Logger;
  options: WebhookOptions;
  /** Told about every attempt (metrics). */
  observer?: WebhookObserver;
  /** Journal rows and deliveries taken per step (default 100). */
  batchSize?: number;
}

/**
 * The in-process webhook worker every instance runs. Each step turns new journal rows into
 * deliveries and folds them into the analytics buckets (the fan-out), then leases the due deliveries and sends them in parallel. A lease
 * outlives the attempt's timeout, so an instance that dies mid-attempt leaves its deliveries to
 * be taken again once the lease ends: delivery is at least once, and the event id (webhook-id)
 * lets receivers drop a repeat.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly batchSize: number;

  constructor(private readonly deps: WebhookWorkerDeps) {
    this.batchSize = deps.batchSize ?? 100;
  }

  start(): void {
    this.stopped = false;
    this.schedule(this.deps.options.pollIntervalMs);
  }

  /** Stops the timer and waits for a step under way, so the store can be closed after it. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One step now (or the one under way): fan out, then send what is due. */
  runOnce(): Promise<void> {
    this.running ??= this.step().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runOnce().then(() => this.schedule(this.deps.options.pollIntervalMs));
    }, delayMs);
    this.timer.unref();
  }

  private async step(): Promise<void> {
    const { store, clock, logger, options } = this.deps;
    try {
      // A full batch means more may be waiting: keep going, within a bound per step.
      for (let i = 0; i < 20; i++) {
        if ((await store.fanOut(clock.now(), this.batchSize, webhookPayload)) < this.batchSize) break;
      }
      for (let i = 0; i < 20 && !this.stopped; i++) {
        const now = clock.now();
        const due = await store.claimDue(now, now + leaseMs(options.timeoutMs), this.batchSize);
        await Promise.all(due.map((d) => this.deliver(d)));
        if (due.length < this.batchSize) break;
      }
    } catch (err) {
      // The database may be away; the next step tries again.
      logger.warn({ err: (err as Error).message }, 'webhook step failed');
    }
  }

  private async deliver(d: DueDelivery): Promise<void> {
    const { store, clock, logger, options, secrets } = this.deps;
    let secret: string | null = null;
    try {
      secret = secrets.open(d.sealedSecret);
    } catch {
      // Sealed under another CODE_SECRET: every attempt would fail the same way.
    }
    const result = secret
      ? await postWebhook({
          url: d.url,
          eventId: d.eventId,
          payload: d.payload,
          secret,
          at: new Date(clock.now()),
          timeoutMs: options.timeoutMs,
          allowPrivate: options.allowPrivate,
        })
      : { ok: false, status: null, error: 'signing secret unreadable (CODE_SECRET changed?)' };
    const now = clock.now();
    const nextAttemptAt = result.ok ? null : this.nextAttemptAt(d.attempts + 1, now);
    const { endpointDisabled } = await store.recordAttempt({
      deliveryId: d.id,
      endpointId: d.endpointId,
      now,
      ok: result.ok,
      responseStatus: result.status,
      error: result.error,
      nextAttemptAt,
      disableBefore: now - options.disableAfterMs,
      disabledReason: `every attempt failed for ${Math.round(options.disableAfterMs / 3_600_000)} h; last: ${result.error}`,
    });
    if (!result.ok) {
      logger.info(
        {
          endpointId: d.endpointId,
          deliveryId: d.id,
          eventType: d.eventType,
          attempt: d.attempts + 1,
          error: result.error,
        },
        'webhook attempt failed',
      );
    }
    this.deps.observer?.attempt(
      d.eventType,
      result.ok ? 'succeeded' : nextAttemptAt !== null && !endpointDisabled ? 'retrying' : 'failed',
    );
    if (endpointDisabled) {
      this.deps.observer?.endpointDisabled();
      logger.warn(
        { event: 'webhook.endpoint_disabled', endpointId: d.endpointId, lastError: result.error },
        'webhook endpoint disabled after failing for too long',
      );
    }
  }

  /** When to try again after `failures` failed attempts, or null when the schedule is used up. */
  private nextAttemptAt(failures: number, now: number): number | null {
    const delay = this.deps.options.retryDelaysMs[failures - 1];
    if (delay === undefined) return null;
    // ±20 % so that the retries of many deliveries failed at once do not arrive together.
    return now + Math.round((delay * (800 + randomInt(401))) / 1000);
  }
}
