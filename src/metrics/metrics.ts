import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DeliveryResult } from '../delivery/interface.js';
import type { VerificationEvents } from '../domain/verification-service.js';
import { clusterMetrics, joinClusterMetrics } from './cluster.js';

/**
 * The service's Prometheus metrics, in a registry of its own (one per service, so tests can start
 * several). Labels are closed sets (channel, provider name, outcome, route pattern, limit name):
 * destinations, codes, keys and raw URLs never become labels.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  private readonly sends = new Counter({
    name: 'contact_verify_sends_total',
    help: 'Codes handed to delivery, by channel, provider and outcome (sent, outbox, failed, refused).',
    labelNames: ['channel', 'provider', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly verifications = new Counter({
    name: 'contact_verify_verifications_total',
    help: 'verify-code answers by channel and outcome.',
    labelNames: ['channel', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly deliveryDuration = new Histogram({
    name: 'contact_verify_delivery_duration_seconds',
    help: 'Time to deliver one code, failover included, by channel and the provider that answered last.',
    labelNames: ['channel', 'provider'] as const,
    buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  private readonly httpDuration = new Histogram({
    name: 'contact_verify_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  private readonly refusals = new Counter({
    name: 'contact_verify_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by limit name.',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  private readonly breakerTrips = new Counter({
    name: 'contact_verify_pumping_breaker_trips_total',
    help: 'Times an SMS-pumping breaker tripped, by country (refusals count under rate_limit_refusals, limit "pumping-breaker").',
    labelNames: ['country'] as const,
    registers: [this.registry],
  });

  private readonly lookups = new Counter({
    name: 'contact_verify_number_lookups_total',
    help: "Carrier lookups of sends, by outcome: provider (answered by the provider, which bills it; concurrent sends for one number share one request), cache, test (a test key's test numbers) or failed (lookup_unavailable).",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly silentChecks = new Counter({
    name: 'contact_verify_silent_checks_total',
    help: 'SILENT checks asked of the provider by verify-code, by what it concluded (verified, pending, rejected, invalid_number, unavailable, code, needs_code).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly silentFallbacks = new Counter({
    name: 'contact_verify_silent_fallbacks_total',
    help: "SILENT requests that fell back to a code, by the code's channel and why (provider_failed, rejected, timeout).",
    labelNames: ['channel', 'reason'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    joinClusterMetrics(this.registry);
  }

  /** Hooks for the verification service and the rate-limit policy. */
  readonly events: VerificationEvents = {
    sent: (channel, result: DeliveryResult, durationMs) => {
      const provider = result.provider ?? 'none';
      const outcome = result.ok
        ? result.outbox
          ? 'outbox'
          : 'sent'
        : result.permanent
          ? 'refused'
          : 'failed';
      this.sendsBy(channel, provider, outcome).inc();
      this.deliveryDurationBy(channel, provider).observe(durationMs / 1000);
    },
    verified: (channel, outcome) => this.verificationsBy(channel, outcome).inc(),
    limited: (limit) => this.refusals.inc({ limit }),
    breakerTripped: (country) => this.breakerTrips.inc({ country }),
    lookedUp: (outcome) => this.lookups.inc({ outcome }),
    silentChecked: (outcome) => this.silentChecks.inc({ outcome }),
    silentFallback: (channel, reason) => this.silentFallbacks.inc({ channel, reason }),
  };

  /** A gauge of the SMS-pumping breakers tripped now, read from the shared state at each scrape. */
  watchBreakers(countTripped: () => Promise<number>): void {
    new Gauge({
      name: 'contact_verify_pumping_breakers_tripped',
      help: 'SMS-pumping breakers tripped now (every account, country and mode).',
      registers: [this.registry],
      async collect() {
        this.set(await countTripped().catch(() => 0));
      },
    });
  }

  private readonly sendsBy = childPerLabels((...v) => this.sends.labels(...v));
  private readonly deliveryDurationBy = childPerLabels((...v) => this.deliveryDuration.labels(...v));
  private readonly verificationsBy = childPerLabels((...v) => this.verifications.labels(...v));

  /**
   * An onResponse hook for the route with pattern `route` (`/v1/admin/api-keys/:id`), never the raw
   * URL. Made once per route, so a request neither builds `request.routeOptions` nor hashes its
   * labels.
   */
  observeRoute = (route: string): ((request: FastifyRequest, reply: FastifyReply) => void) => {
    const durationBy = childPerLabels((method, status) =>
      this.httpDuration.labels(method as string, route, status as string),
    );
    return (request, reply) =>
      durationBy(request.method, String(reply.statusCode)).observe(reply.elapsedTime / 1000);
  };

  /** The text a scrape receives; in a node:cluster worker, the sum over every worker. */
  render(): Promise<string> {
    return clusterMetrics() ?? this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/**
 * A metric's child per label values (in the metric's label order), kept once made: given an
 * object, prom-client sorts and joins the label names on every call. The label sets are closed,
 * so the map stays small.
 */
function childPerLabels<C>(make: (...values: string[]) => C): (...values: string[]) => C {
  const children = new Map<string, C>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = children.get(key);
    if (!child) {
      child = make(...values);
      children.set(key, child);
    }
    return child;
  };
}
