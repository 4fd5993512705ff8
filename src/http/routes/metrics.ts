import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ServiceMetrics } from '../../metrics/metrics.js';
import { ApiError } from '../errors.js';

/**
 * GET /metrics in Prometheus text format. Open when no token is configured (scrapers usually sit
 * on a private network and the metrics carry no destinations, codes or keys); with METRICS_TOKEN,
 * a scrape must send `Authorization: Bearer <METRICS_TOKEN>`.
 */
export const metricsRoute =
  (metrics: ServiceMetrics, token?: string) =>
  async (app: FastifyInstance): Promise<void> => {
    const expected = token ? sha256(token) : null;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (expected) {
        const presented = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
        if (!presented || !timingSafeEqual(sha256(presented), expected)) {
          reply.header('www-authenticate', 'Bearer realm="contact-verify-metrics"');
          throw new ApiError(
            'UNAUTHORIZED',
            'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".',
          );
        }
      }
      const text = await metrics.render();
      return reply.type(metrics.contentType).send(text);
    });
  };

const sha256 = (s: string) => createHash('sha256').update(s).digest();
