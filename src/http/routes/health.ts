import type { FastifyInstance } from 'fastify';
import { ACCOUNT_LIMITS } from '../../domain/account-limits.js';
import { sharedWithoutRedis } from '../../domain/ports/instances.js';
import type { AppDeps } from '../deps.js';
import { openToAnyone } from '../openapi.js';
import { answer, Health } from '../schemas.js';

/** GET /health: no key needed; 503 when the database cannot be reached. */
export const healthRoutes = (deps: AppDeps) => async (app: FastifyInstance) => {
  const started = Date.now();
  const rotation = codeSecretRotation(deps.previousCodeSecrets ?? 0, started);
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        operationId: 'getHealth',
        summary: 'Service, dependency and channel health',
        ...openToAnyone('It names no account: load balancers and monitors call it.'),
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
      const instances = deps.instances.report();
      const lookups = deps.lookups?.health() ?? null;
      const status = !database
        ? 'down'
        : rateLimitStore &&
            allChannels &&
            breakers.length === 0 &&
            !sharedWithoutRedis(instances) &&
            lookups?.state !== 'down'
          ? 'ok'
          : 'degraded';
      reply.code(database ? 200 : 503);
      return {
        status,
        version: deps.version,
        uptimeSeconds: Math.floor((Date.now() - started) / 1000),
        services: { database: database ? 'up' : 'down', rateLimitStore: rateLimitStore ? 'up' : 'down' },
        channels,
        ...(lookups ? { lookups } : {}),
        instances,
        // Degraded while an SMS-pumping breaker holds sends to a country (docs/analytics.md).
        pumpingBreakers: countByCountry(breakers),
        ...(rotation ? { codeSecretRotation: rotation } : {}),
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

/**
 * A rotation of CODE_SECRET in progress (CODE_SECRET_PREVIOUS set), as an operator can act on it:
 * how many previous secrets are accepted, since when this instance accepts them, and from when no
 * code it could have sent under them is still alive (the longest lifetime an account may give a
 * code after this start). Never the secret; absent when no previous secret is accepted.
 */
function codeSecretRotation(previousSecrets: number, started: number) {
  if (previousSecrets === 0) return null;
  return {
    previousSecrets,
    since: new Date(started).toISOString(),
    removableAfter: new Date(started + ACCOUNT_LIMITS.codeTtlSeconds.max * 1000).toISOString(),
  };
}
