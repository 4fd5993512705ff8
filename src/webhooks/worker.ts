import { randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import { type Clock, HOUR_MS } from '../domain/clock.js';
import type { DueDelivery, WebhookStore } from '../domain/ports/webhooks.js';
import type { WebhookObserver } from './metrics.js';
import type { SecretBox } from './secrets.js';
import { postWebhook, WebhookAgents } from './sender.js';
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
  /** Told about every attempt and the attempts in flight (metrics). */
  observer?: WebhookObserver;
}

type Lane = 'main' | 'slow';

/**
 * The in-process webhook worker every instance runs. Each step (every WEBHOOK_POLL_INTERVAL_MS)
 * fills the free slots of its pools with due deliveries (the fold queues them: see
 * src/store/fold.ts). Deliveries are not sent in batches:
 * each attempt holds one slot, and the moment it is recorded its slot takes the next due delivery,
 * so a receiver that hangs holds only its own slots, never the others' turn.
 *
 * Two pools: the main one (WEBHOOK_CONCURRENCY), and the slow lane
 * (WEBHOOK_SLOW_LANE_CONCURRENCY) for endpoints whose last WEBHOOK_SLOW_AFTER_TIMEOUTS attempts
 * were slow (no answer in time, or an answer after WEBHOOK_SLOW_ATTEMPT_PERCENT of the timeout):
 * one attempt in flight each, apart from the main pool, until a prompt success. In the main pool
 * an endpoint has at most WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT attempts in flight over every
 * instance, and at most a fair share of this instance's pool, one share being kept free for an
 * endpoint that has none in flight: a healthy endpoint's event never waits for a slot that slow
 * endpoints hold, even before they are found slow. The store counts the caps over every
 * instance's leases, and the shares over the attempts this worker holds, which it tells each claim.
 *
 * A lease outlives the attempt's timeout, so an instance that dies mid-attempt leaves its
 * deliveries to be taken again once the lease ends: delivery is at least once, and the event id
 * (webhook-id) lets receivers drop a repeat.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  private stepping: Promise<void> | null = null;
  private stopped = false;
  private readonly active: Record<Lane, number> = { main: 0, slow: 0 };
  /** This worker's attempts in flight in the main pool, by endpoint id (its share of the pool). */
  private readonly held = new Map<string, number>();
  private readonly attempts = new Set<Promise<void>>();
  /** The claim under way; one at a time, run again when slots freed meanwhile. */
  private claiming: Promise<void> | null = null;
  private claimAgain = false;
  /** A claim asked for by finished attempts, run once for all those of one turn of the loop. */
  private fillQueued = false;
  private idleWaiters: Array<() => void> = [];
  private readonly agents = new WebhookAgents();

  constructor(private readonly deps: WebhookWorkerDeps) {
    deps.observer?.watchInFlight(() => ({ ...this.active }));
  }

  start(): void {
    this.stopped = false;
    this.schedule(this.deps.options.pollIntervalMs);
  }

  /**
   * Stops the timer and claims no more; waits for the step and the attempts under way (each ends
   * within WEBHOOK_TIMEOUT_MS), so the store can be closed after it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.stepping;
    await this.idle();
    this.agents.destroy();
  }

  /**
   * One step now (or the one under way), then waits until nothing is in flight: the attempts it
   * started are recorded, and so are those their freed slots took after them.
   */
  async runOnce(): Promise<void> {
    await this.step();
    await this.idle();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.step().then(() => this.schedule(this.deps.options.pollIntervalMs));
    }, delayMs);
    this.timer.unref();
  }

  /**
   * Fills the free slots with due deliveries (the fold queues them); does not wait for the
   * attempts it starts.
   */
  private step(): Promise<void> {
    this.stepping ??= this.fill().finally(() => {
      this.stepping = null;
    });
    return this.stepping;
  }

  private fill(): Promise<void> {
    if (this.claiming) {
      this.claimAgain = true;
      return this.claiming;
    }
    this.claiming = this.claimForFreeSlots().finally(() => {
      this.claiming = null;
      this.settleIdle();
    });
    return this.claiming;
  }

  /** Claims due deliveries for the free slots of both pools and starts them. */
  private async claimForFreeSlots(): Promise<void> {
    const { store, clock, logger, options } = this.deps;
    do {
      this.claimAgain = false;
      if (this.stopped) return;
      const main = options.concurrency - this.active.main;
      const slow = options.slowLaneConcurrency - this.active.slow;
      if (main <= 0 && slow <= 0) return;
      const now = clock.now();
      let due: DueDelivery[];
      try {
        due = await store.claimDue({
          now,
          leaseUntil: now + leaseMs(options.timeoutMs),
          main: Math.max(main, 0),
          held: Object.fromEntries(this.held),
          slow: Math.max(slow, 0),
          perEndpoint: options.maxInFlightPerEndpoint,
          slowAfter: options.slowAfterTimeouts,
        });
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'webhook claim failed');
        return;
      }
      for (const d of due) this.launch(d);
      // Fewer than the free slots: nothing else is due (or every due endpoint is at its cap) until
      // an attempt ends, which asks again, or the next step.
    } while (this.claimAgain);
  }

  private launch(d: DueDelivery): void {
    const lane: Lane = d.slow ? 'slow' : 'main';
    this.active[lane]++;
    if (lane === 'main') this.held.set(d.endpointId, (this.held.get(d.endpointId) ?? 0) + 1);
    const attempt: Promise<void> = this.deliver(d)
      .catch((err) => {
        // Not recorded (the database may be away): the lease runs out and the delivery is sent again.
        this.deps.logger.warn(
          { err: (err as Error).message, deliveryId: d.id, endpointId: d.endpointId },
          'webhook attempt not recorded',
        );
      })
      .finally(() => {
        this.active[lane]--;
        if (lane === 'main') {
          const held = (this.held.get(d.endpointId) ?? 1) - 1;
          if (held > 0) this.held.set(d.endpointId, held);
          else this.held.delete(d.endpointId);
        }
        this.attempts.delete(attempt);
        this.queueFill();
      });
    this.attempts.add(attempt);
  }

  /** A slot freed: claim for it on the next turn of the loop, with the others freed by then. */
  private queueFill(): void {
    if (this.fillQueued || this.stopped) {
      this.settleIdle();
      return;
    }
    this.fillQueued = true;
    setImmediate(() => {
      this.fillQueued = false;
      void this.fill();
    });
  }

  private isIdle(): boolean {
    return this.attempts.size === 0 && this.claiming === null && !this.fillQueued;
  }

  private settleIdle(): void {
    if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Resolves once no attempt is in flight and no claim is under way or queued. */
  private idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async deliver(d: DueDelivery): Promise<void> {
    const { store, clock, logger, options, secrets } = this.deps;
    let secret: string | null = null;
    try {
      secret = secrets.open(d.sealedSecret);
    } catch {
      // Sealed under another CODE_SECRET: every attempt would fail the same way.
    }
    const started = performance.now();
    const result = secret
      ? await postWebhook({
          url: d.url,
          eventId: d.eventId,
          payload: d.payload,
          secret,
          at: new Date(clock.now()),
          timeoutMs: options.timeoutMs,
          allowPrivate: options.allowPrivate,
          agents: this.agents,
        })
      : { ok: false, status: null, error: 'signing secret unreadable (CODE_SECRET changed?)' };
    // What the attempt cost its slot, answered or not: a receiver that answers just inside the
    // timeout holds slots as long as one that times out.
    const slow = result.timedOut === true || performance.now() - started > options.slowAttemptMs;
    const now = clock.now();
    const nextAttemptAt = result.ok ? null : this.nextAttemptAt(d.attempts + 1, now);
    const { endpointDisabled } = await store.recordAttempt({
      deliveryId: d.id,
      endpointId: d.endpointId,
      now,
      ok: result.ok,
      responseStatus: result.status,
      error: result.error,
      slow,
      nextAttemptAt,
      disableBefore: now - options.disableAfterMs,
      disabledReason: `every attempt failed for ${Math.round(options.disableAfterMs / HOUR_MS)} h; last: ${result.error}`,
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
