import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose } from '../src/compose.js';
import { defineProvider } from '../src/delivery/providers/module.js';
import { PROVIDERS } from '../src/delivery/providers/registry.js';
import { testConfig } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/postgres.js';
import { hasPostgres, POSTGRES_URL } from './support/services.js';
import { waitFor } from './support/wait.js';

/** A logger that keeps every line it writes. */
function recordingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

/** A provider whose callback routes cannot be mounted: building the HTTP app, the last step, throws. */
const unmountable = defineProvider({
  name: 'unmountable',
  title: 'Unmountable',
  api: 'none',
  channel: 'SMS',
  settings: {},
  configured: () => false,
  create: () => null,
  callbackRoutes() {
    throw new Error('the callback routes of unmountable cannot be mounted');
  },
});

/** The connections open on database `name`, other than the asking one. */
async function connectionsTo(name: string): Promise<number> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

describe.runIf(hasPostgres)('compose, when a step throws', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('closes everything made before it, and starts no worker', async () => {
    const { logger, lines } = recordingLogger();
    const providers = [...PROVIDERS, unmountable];
    const config = testConfig(
      { DATABASE_URL: db.url, FOLD_INTERVAL_MS: '20', LOG_LEVEL: 'debug' },
      providers,
    );
    await expect(compose(config, { logger, providers })).rejects.toThrow(/unmountable cannot be mounted/);
    // The store's pool is closed: no connection of it is left on the database.
    await waitFor(async () => (await connectionsTo(db.name)) === 0, {
      what: "the store's connections to close",
    });
    // No worker was started: none runs on the closed store afterwards (a fold worker would warn
    // every interval that it cannot reach it).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([]);
    expect(await connectionsTo(db.name)).toBe(0);
  });
});

describe('compose, closing', () => {
  it('closes every part even when one of them fails, and says which', async () => {
    const service = await compose(testConfig(), { logger: pino({ level: 'silent' }) });
    const stopFolds = service.folds.stop.bind(service.folds);
    service.folds.stop = async () => {
      await stopFolds();
      throw new Error('the disk is gone');
    };
    const closing = service.close();
    await expect(closing).rejects.toThrow(/closing the fold worker failed: the disk is gone/);
    // Everything after the failing part was closed all the same: the store, which closes last.
    expect(await service.store.check()).toBe(false);
    // A second close is the first one, not a second round of closes.
    await expect(service.close()).rejects.toThrow(/fold worker/);
  });

  it('closes the HTTP server first, the stores last', async () => {
    const { logger } = recordingLogger();
    const service = await compose(testConfig(), { logger });
    const order: string[] = [];
    const track = <T extends object>(name: string, part: T, method: keyof T) => {
      const original = (part[method] as () => Promise<void>).bind(part);
      (part as Record<keyof T, unknown>)[method] = async () => {
        order.push(name);
        await original();
      };
    };
    track('webhooks', service.webhooks, 'stop');
    track('folds', service.folds, 'stop');
    track('counters', service.counters, 'close');
    track('store', service.store, 'close');
    service.app.addHook('onClose', async () => {
      order.push('http');
    });
    await service.close();
    expect(order).toEqual(['http', 'folds', 'webhooks', 'counters', 'store']);
  });
});
