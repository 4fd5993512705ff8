import { Counter, Gauge, type Registry } from 'prom-client';

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed';

/** What the webhook worker reports, for metrics. */
export interface WebhookObserver {
  attempt(eventType: string, outcome: AttemptOutcome): void;
  endpointDisabled(): void;
  /** Reads, at each scrape, the attempts this instance has in flight in each lane. */
  watchInFlight(read: () => { main: number; slow: number }): void;
}

/**
 * Webhook metrics in the service's registry. Labels are closed sets (event type, outcome, lane):
 * endpoint ids and URLs never become labels. `countSlowEndpoints` reads the shared state at each
 * scrape.
 */
export function webhookMetrics(
  registry: Registry,
  countSlowEndpoints: () => Promise<number>,
): WebhookObserver {
  const attempts = new Counter({
    name: 'contact_verify_webhook_attempts_total',
    help: 'Webhook attempts by event type and outcome (succeeded; retrying: failed with a retry scheduled; failed: no retry left).',
    labelNames: ['event_type', 'outcome'] as const,
    registers: [registry],
  });
  const disabled = new Counter({
    name: 'contact_verify_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints disabled after failing for WEBHOOK_DISABLE_AFTER_SECONDS.',
    registers: [registry],
  });
  let readInFlight = () => ({ main: 0, slow: 0 });
  new Gauge({
    name: 'contact_verify_webhook_in_flight',
    help: 'Webhook attempts in flight now, by lane (main: the pool of WEBHOOK_CONCURRENCY; slow: endpoints that keep timing out).',
    labelNames: ['lane'] as const,
    registers: [registry],
    // Read at the scrape: setting a gauge on every attempt would cost more than the count.
    collect() {
      const { main, slow } = readInFlight();
      this.set({ lane: 'main' }, main);
      this.set({ lane: 'slow' }, slow);
    },
  });
  new Gauge({
    name: 'contact_verify_webhook_slow_endpoints',
    help: 'Enabled webhook endpoints in the slow lane now (WEBHOOK_SLOW_AFTER_TIMEOUTS slow attempts in a row, no prompt success since), over every instance.',
    registers: [registry],
    // Read from the database by each worker process: the same figure, not to be summed.
    aggregator: 'max',
    async collect() {
      this.set(await countSlowEndpoints().catch(() => 0));
    },
  });
  return {
    attempt: (eventType, outcome) => attempts.inc({ event_type: eventType, outcome }),
    endpointDisabled: () => disabled.inc(),
    watchInFlight: (read) => {
      readInFlight = read;
    },
  };
}
