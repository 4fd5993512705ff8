import type { Clock } from '../domain/clock.js';
import type { IdempotencyStore } from '../domain/ports/idempotency.js';
import type { Instances } from '../domain/ports/instances.js';
import type { KeysAndAccounts } from '../domain/ports/keys-and-accounts.js';
import type { LookupCacheStore } from '../domain/ports/number-lookup.js';
import type { ReadModel } from '../domain/ports/read-model.js';
import type { SessionStore } from '../domain/ports/sessions.js';
import type { SilentFallbacks } from '../domain/ports/silent-fallbacks.js';
import type { Verifications } from '../domain/ports/verifications.js';
import type { WebhookStore } from '../domain/ports/webhooks.js';
import type { WhatsAppCalls } from '../domain/ports/whatsapp-calls.js';
import type { DestinationFilter } from './known-destinations.js';
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
  /** The fallbacks of SILENT requests, fired at once or by the timeout worker. */
  readonly silentFallbacks: SilentFallbacks;
  /** Idempotency-Key claims of send-code. */
  readonly idempotency: IdempotencyStore;
  /** The instances serving on this database (src/store/instances/registry.ts). */
  readonly instances: Instances;
  /** The carrier lookups' cache, where no Redis keeps it (src/lookup). */
  readonly lookups: LookupCacheStore;
  /** WhatsApp calls that speak codes, and the users' call permissions (src/delivery/providers/whatsapp). */
  readonly whatsappCalls: WhatsAppCalls;
}

/**
 * Opens the store named by DATABASE_URL: `sqlite:<path>` or `postgres://…`. `poolSize`: the
 * PostgreSQL connections of this process (DATABASE_POOL_SIZE), `sendPoolSize` those of the send's
 * write and the verify's statements (DATABASE_SEND_POOL_SIZE); `clock` times what the fold makes.
 * `filter`: where the store remembers every destination it holds, so that the risk screen reads
 * no history for a new email address (DestinationFilter): only for a process that is the only one
 * writing on its database (compose.ts).
 */
export async function openStore(
  databaseUrl: string,
  options: { poolSize?: number; sendPoolSize?: number; clock?: Clock; filter?: DestinationFilter } = {},
): Promise<Store> {
  const { clock, filter: known } = options;
  if (databaseUrl.startsWith('sqlite:'))
    return new SqliteStore(databaseUrl.slice('sqlite:'.length) || './data/verify.db', { clock, known });
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // Loaded only when asked for, so an SQLite deployment never loads the pg driver.
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    const store = new PostgresStore(databaseUrl, {
      max: options.poolSize,
      plannedOnceMax: options.sendPoolSize,
      clock,
      known,
    });
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
