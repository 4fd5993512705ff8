import type { Clock } from '../domain/clock.js';
import type { Store } from './interface.js';
import { SqliteStore } from './sqlite/sqlite-store.js';

/**
 * Opens the store named by DATABASE_URL: `sqlite:<path>` or `postgres://…`. `poolSize`: the
 * PostgreSQL connections of this process (DATABASE_POOL_SIZE); `clock` times what the fold makes.
 */
export async function openStore(
  databaseUrl: string,
  options: { poolSize?: number; clock?: Clock } = {},
): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) {
    return new SqliteStore(databaseUrl.slice('sqlite:'.length) || './data/verify.db', {
      clock: options.clock,
    });
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // Loaded only when asked for, so an SQLite deployment never loads the pg driver.
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    const store = new PostgresStore(databaseUrl, { max: options.poolSize, clock: options.clock });
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
