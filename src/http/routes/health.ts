import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { answer, Health } from '../schemas.js';

/** GET /health: no key needed; 503 when the database cannot be reached. */
export const healthRoutes = (deps: AppDeps) => async (app: FastifyInstance) => {
  const started = Date.now();
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        operationId: 'getHealth',
        summary: 'Service, dependency and channel health',
        response: {
          200: answer(Health, '`ok` or `degraded`.'),
          503: answer(Health, '`down`: the database cannot be reached.'),
        },
      },
    },
    async (_request, reply) => {
      const [database, rateLimitStore, channels, breakers] = await Promise.all([
        deps.database.check(),
        deps.counters.check(),
        deps.delivery.health(),
        deps.breakers.tripped().catch(() => []),
      ]);
      const allChannels = Object.values(channels).every((c) => c.operational);
      const status = !database
        ? 'down'
        : rateLimitStore && allChannels && breakers.length === 0
          ? 'ok'
          : 'degraded';
      reply.code(database ? 200 : 503);
      return {
        status,
        version: deps.version,
        uptimeSeconds: Math.floor((Date.now() - started) / 1000),
        services: { database: database ? 'up' : 'down', rateLimitStore: rateLimitStore ? 'up' : 'down' },
        channels,
        // Degraded while an SMS-pumping breaker holds sends to a country (docs/analytics.md).
        pumpingBreakers: countByCountry(breakers),
      };
    },
  );
};

/**
 * Tripped breakers as a count per country: /health needs no key, so it names no account (which
 * accounts and modes, and since when, is on GET /v1/admin/breakers).
 */
function countByCountry(breakers: Array<{ country: string }>): Array<{ country: string; count: number }> {
  const counts = new Map<string, number>();
  for (const b of breakers) counts.set(b.country, (counts.get(b.country) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([country, count]) => ({ country, count }));
}
