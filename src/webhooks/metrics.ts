import { Counter, type Registry } from 'prom-client';

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed';

/** What the webhook worker reports, for metrics. */
export interface WebhookObserver {
  attempt(eventType: string, outcome: AttemptOutcome): void;
  endpointDisabled(): void;
}

/**
 * Webhook counters in the service's registry. Labels are closed sets (event type, outcome):
 * endpoint ids and URLs never become labels.
 */
export function webhookMetrics(registry: Registry): WebhookObserver {
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
  return {
    attempt: (eventType, outcome) => attempts.inc({ event_type: eventType, outcome }),
    endpointDisabled: () => disabled.inc(),
  };
}
