import type { Clock } from '../domain/clock.js';
import type { LookupCacheStore } from '../domain/ports/number-lookup.js';
import { lookupKeySecret } from './keys.js';
import { lookupProviderNamed } from './registry.js';
import { type CacheOperation, LookupService } from './service.js';
import type { LookupConfig } from './settings.js';

/** What building the lookups reads of the configuration besides their own settings. */
export type LookupDeploymentConfig = LookupConfig & {
  redisUrl?: string;
  redisKeyPrefix: string;
  circuitBreakerFailures: number;
  circuitBreakerCooldownSeconds: number;
};

export interface BuiltLookup {
  lookup: LookupService;
  /** Where the cache lives: `redis` or `database`. */
  cacheIn: 'redis' | 'database';
  close(): Promise<void>;
}

/**
 * The deployment's NumberLookup: the LOOKUP_PROVIDER's provider (none when unset: test keys still
 * get the test numbers' answers), its cache in Redis when REDIS_URL is set (every instance shares
 * it, each part expiring by itself), else in the database (`store`, shared by the instances of a
 * PostgreSQL database, by one SQLite file's processes). The cache's keys are HMACs under a secret
 * derived from CODE_SECRET. Redis is connected only when there is a provider to cache for.
 */
export async function buildNumberLookup(
  config: LookupDeploymentConfig,
  deps: {
    store: LookupCacheStore;
    codeSecret: Buffer;
    clock: Clock;
    onCacheError?: (err: unknown, operation: CacheOperation) => void;
    /** Whether other instances serve on the same cache now (LookupServiceOptions.sharing). */
    sharing?: () => boolean;
  },
): Promise<BuiltLookup> {
  const module = config.lookupProvider ? lookupProviderNamed(config.lookupProvider) : undefined;
  const provider =
    module && module.missing(config as never).length === 0
      ? module.create(config as never, {
          simSwapWindowHours: config.lookupSimSwapWindowHours,
          clock: deps.clock,
        })
      : null;
  let cache = deps.store;
  let cacheIn: BuiltLookup['cacheIn'] = 'database';
  let closeCache = async () => {};
  if (provider && config.redisUrl) {
    // Loaded here: a deployment without Redis never loads its client (as compose.ts does for the limits).
    const [{ redisConnection }, { RedisLookupCache }] = await Promise.all([
      import('../redis-connection.js'),
      import('./redis-cache.js'),
    ]);
    // A command slower than the lookup's budget is of no use to it.
    const redis = redisConnection(config.redisUrl, config.lookupTimeoutMs);
    await redis.connect();
    cache = new RedisLookupCache(redis, config.redisKeyPrefix, deps.clock);
    cacheIn = 'redis';
    closeCache = async () => {
      await redis.quit().catch(() => redis.disconnect());
    };
  }
  const lookup = new LookupService({
    provider,
    cache,
    keySecret: lookupKeySecret(deps.codeSecret),
    clock: deps.clock,
    budgetMs: config.lookupTimeoutMs,
    lineTtlMs: config.lookupLineCacheSeconds * 1000,
    simTtlMs: config.lookupSimCacheSeconds * 1000,
    breaker: {
      failures: config.circuitBreakerFailures,
      cooldownMs: config.circuitBreakerCooldownSeconds * 1000,
    },
    onCacheError: deps.onCacheError,
    sharing: deps.sharing,
  });
  const close = async () => {
    // The cache writes no lookup waited for land before the cache closes.
    await lookup.settled();
    await closeCache();
  };
  return { lookup, cacheIn, close };
}
