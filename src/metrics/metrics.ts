import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
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
      this.sends.inc({ channel, provider, outcome });
      this.deliveryDuration.observe({ channel, provider }, durationMs / 1000);
    },
    verified: (channel, outcome) => this.verifications.inc({ channel, outcome }),
    limited: (limit) => this.refusals.inc({ limit }),
  };

  /**
   * An onResponse hook for the route with pattern `route` (`/v1/admin/api-keys/:id`), never the raw
   * URL. Made once per route, so a request neither builds `request.routeOptions` nor hashes its
   * labels: the histogram's child per method and status is looked up in a small map.
   */
  observeRoute = (route: string): ((request: FastifyRequest, reply: FastifyReply) => void) => {
    const children = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
    return (request, reply) => {
      const { method } = request;
      const status = reply.statusCode;
      const key = `${method} ${status}`;
      let child = children.get(key);
      if (!child) {
        child = this.httpDuration.labels({ method, route, status: String(status) });
        children.set(key, child);
      }
      child.observe(reply.elapsedTime / 1000);
    };
  };

  /** The text a scrape receives; in a node:cluster worker, the sum over every worker. */
  render(): Promise<string> {
    return clusterMetrics() ?? this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
