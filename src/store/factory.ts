import { randomBytes } from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import type { IdempotencyStore } from '../domain/ports/idempotency.js';
import type { KeysAndAccounts } from '../domain/ports/keys-and-accounts.js';
import type { ReadModel } from '../domain/ports/read-model.js';
import type { SessionStore } from '../domain/ports/sessions.js';
import type { Verifications } from '../domain/ports/verifications.js';
import type { WebhookStore } from '../domain/ports/webhooks.js';
import { type DestinationFilter, KnownDestinations } from './known-destinations.js';
import type { StoreLifecycle } from './lifecycle.js';
import { SqliteStore } from './sqlite/sqlite-store.js';

/**
 * One database (SQLite or PostgreSQL) as its aggregates, each the interface the domain owns
 * (src/domain/ports). Each method is one atomic unit: its promise settles only once its effects
 * are durable, so a caller may acknowledge a request on resolution.
 */
export interface Store extends StoreLifecycle {
  /** Verification requests and their attempts: the request path. */
  readonly verifications: Verifications;
  /** Accounts, their settings and logos, and their API keys. */
  readonly accounts: KeysAndAccounts;
  /** Analytics, contacts and breakers, folded from the requests' changes. */
  readonly readModel: ReadModel;
  /** Webhook endpoints and their delivery queue, fed by the fold. */
  readonly webhooks: WebhookStore;
  /** Sessions of the operator dashboard. */
  readonly sessions: SessionStore;
  /** Idempotency-Key claims of send-code. */
  readonly idempotency: IdempotencyStore;
}

/**
 * Opens the store named by DATABASE_URL: `sqlite:<path>` or `postgres://…`. `poolSize`: the
 * PostgreSQL connections of this process (DATABASE_POOL_SIZE); `clock` times what the fold makes.
 * `filter`: where the store remembers every destination it holds, so that the risk screen
 * answers a new email address without a query (DestinationFilter): in this process when it is the
 * only one that sends on the database (one instance, no REDIS_URL), in Redis when instances share
 * a Redis and a PostgreSQL database, nowhere otherwise.
 */
export async function openStore(
  databaseUrl: string,
  options: { poolSize?: number; clock?: Clock; filter?: FilterPlace } = {},
): Promise<Store> {
  const filter = await destinationFilter(options.filter, databaseUrl.startsWith('sqlite:'));
  let store: Store;
  try {
    store = await openDatabase(databaseUrl, { ...options, known: filter?.filter });
  } catch (err) {
    filter?.filter.stop();
    throw err;
  }
  if (!filter?.identify) return store;
  try {
    // The shared filter's secret stays in the database: Redis alone tells nothing of an address.
    const secret = randomBytes(32).toString('base64url');
    filter.identify((await store.getOrCreateSetting('destination_filter_key', secret)).value);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/** Where the destination filter lives (see openStore). */
export type FilterPlace = { in: 'process' } | { in: 'redis'; url: string; prefix: string };

async function destinationFilter(
  place: FilterPlace | undefined,
  sqlite: boolean,
): Promise<{ filter: DestinationFilter; identify?: (secret: string) => void } | null> {
  if (!place) return null;
  if (place.in === 'process') return { filter: new KnownDestinations() };
  // SQLite's read is in process: skipping it altogether measured no gain, so a Redis command to
  // skip it is pure cost. PostgreSQL's is server time, which the instances share: the shared
  // filter takes about 30 % of the server's CPU off a send.
  if (sqlite) return null;
  // Loaded only when asked for, like the Redis rate-limit store.
  const { SharedKnownDestinations } = await import('./shared-known-destinations.js');
  const shared = new SharedKnownDestinations(place.url, { prefix: place.prefix });
  await shared.connect();
  return { filter: shared, identify: (id) => shared.identify(id) };
}

async function openDatabase(
  databaseUrl: string,
  options: { poolSize?: number; clock?: Clock; known?: DestinationFilter },
): Promise<Store> {
  const { clock, known } = options;
  if (databaseUrl.startsWith('sqlite:'))
    return new SqliteStore(databaseUrl.slice('sqlite:'.length) || './data/verify.db', { clock, known });
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // Loaded only when asked for, so an SQLite deployment never loads the pg driver.
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    const store = new PostgresStore(databaseUrl, { max: options.poolSize, clock, known });
    try {
      await store.migrate();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${databaseUrl.split(':')[0]}:…)`);
}
