import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config/schema.js';
import { buildDelivery, deliveryWarnings } from './delivery/factory.js';
import type { Delivery } from './delivery/interface.js';
import { AccountAdmin } from './domain/accounts.js';
import { type Clock, systemClock } from './domain/clock.js';
import { DEFAULT_BRANDING, deploymentDefaults } from './domain/settings.js';
import { VerificationService } from './domain/verification-service.js';
import { callbackRoutes } from './http/routes/callbacks.js';
import type { RateLimitStore } from './limits/interface.js';
import { MemoryRateLimitStore } from './limits/memory-store.js';
import { RateLimitPolicy } from './limits/policy.js';
import { ServiceMetrics } from './metrics/metrics.js';
import { metricsRoute } from './metrics/route.js';
import { openStore } from './store/factory.js';
import type { Store } from './store/interface.js';
import { Sweeper } from './store/sweeper.js';

export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

export interface Service {
  app: FastifyInstance;
  store: Store;
  counters: RateLimitStore;
  delivery: Delivery;
  admin: AccountAdmin;
  /** Set when this start generated the admin token: the only time it can be shown. */
  generatedAdminToken: string | null;
  /** Closes the HTTP server (in-flight requests finish), then the stores. */
  close(): Promise<void>;
}

export interface ComposeOptions {
  logger: Logger;
  clock?: Clock;
}

/** Builds the whole service from its configuration: store, limits, providers, domain, HTTP. */
export async function compose(config: Config, options: ComposeOptions): Promise<Service> {
  const clock = options.clock ?? systemClock;
  const store = await openStore(config.databaseUrl, { poolSize: config.databasePoolSize });
  const counters = await openCounters(config);
  const admin = new AccountAdmin(store, clock);
  await admin.ensureDefaultAccount();

  const codeSecret = Buffer.from(
    config.codeSecret ??
      (await store.getOrCreateSetting('code_secret', randomBytes(32).toString('base64url'))).value,
  );
  const { adminTokenHash, generatedAdminToken } = await resolveAdminToken(config, store);

  const delivery = buildDelivery(config, store, clock);
  for (const warning of deliveryWarnings(config)) options.logger.warn(warning);
  const metrics = new ServiceMetrics();
  metrics.watchBreakers(async () => (await store.listBreakers({ trippedOnly: true })).length);
  const service = new VerificationService({
    store,
    limits: new RateLimitPolicy(counters, metrics.events),
    delivery,
    clock,
    codeSecret,
    defaults: deploymentDefaults(config, {
      ...DEFAULT_BRANDING,
      brandName: config.brandName ?? DEFAULT_BRANDING.brandName,
    }),
    logger: options.logger,
    events: metrics.events,
  });
  const sweeper = new Sweeper({
    store,
    clock,
    logger: options.logger,
    retentionDays: config.retentionDays,
    intervalSeconds: config.sweepIntervalSeconds,
  });
  sweeper.start();
  const app = await buildApp({
    store,
    counters,
    service,
    admin,
    delivery,
    clock,
    adminTokenHash,
    logger: options.logger,
    version: VERSION,
    trustProxy: config.trustProxy,
    plugins: [
      metricsRoute(metrics, config.metricsToken),
      callbackRoutes({ config, store, clock, logger: options.logger }),
    ],
    observeRoute: metrics.observeRoute,
  });

  return {
    app,
    store,
    counters,
    delivery,
    admin,
    generatedAdminToken,
    async close() {
      await app.close();
      await sweeper.stop();
      await counters.close();
      await store.close();
    },
  };
}

async function openCounters(config: Config): Promise<RateLimitStore> {
  if (!config.redisUrl) return new MemoryRateLimitStore();
  const { RedisRateLimitStore } = await import('./limits/redis-store.js');
  return RedisRateLimitStore.connect(config.redisUrl, { prefix: config.redisKeyPrefix });
}

/**
 * ADMIN_TOKEN from the configuration, or one generated on first start: only its SHA-256 is
 * stored, so it is printed once and never again.
 */
async function resolveAdminToken(config: Config, store: Store) {
  const sha256 = (s: string) => createHash('sha256').update(s).digest();
  if (config.adminToken) return { adminTokenHash: sha256(config.adminToken), generatedAdminToken: null };
  const candidate = `cva_${randomBytes(32).toString('base64url')}`;
  const stored = await store.getOrCreateSetting('admin_token_sha256', sha256(candidate).toString('hex'));
  return {
    adminTokenHash: Buffer.from(stored.value, 'hex'),
    generatedAdminToken: stored.created ? candidate : null,
  };
}
