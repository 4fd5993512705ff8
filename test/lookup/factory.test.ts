import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/schema.js';
import { systemClock } from '../../src/domain/clock.js';
import { type BuiltLookup, buildNumberLookup } from '../../src/lookup/factory.js';
import { openStore, type Store } from '../../src/store/factory.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres, hasRedis, REDIS_URL } from '../support/services.js';
import { type FakeLookupApi, startFakeLookupApi } from './support/fake-lookup-api.js';

// Two instances of a deployment share the lookups' cache: what one looked up, the other answers
// without asking the provider, and a number both miss at once is asked once (the claim). On SQLite
// (one file, two processes' stores), PostgreSQL and Redis.

const CODE_SECRET = randomBytes(32);
const PARTS = { line: true, sim: true };

describe('buildNumberLookup: a cache every instance shares', () => {
  let api: FakeLookupApi;
  const dir = mkdtempSync(join(tmpdir(), 'cv-lookup-'));
  beforeAll(async () => {
    api = await startFakeLookupApi(() => ({
      json: {
        country_code: 'GB',
        valid: true,
        line_type_intelligence: { error_code: null, carrier_name: 'EE', type: 'nonFixedVoip' },
        sim_swap: { last_sim_swap: { last_sim_swap_date: '2026-01-01T00:00:00Z' }, error_code: null },
      },
    }));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const configOf = (env: Record<string, string> = {}) =>
    loadConfig({
      LOOKUP_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC0123',
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_LOOKUP_BASE_URL: api.url,
      ...env,
    });

  const newNumber = () => `+4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;

  /**
   * Two instances on `stores` (one each), each knowing of the other: looking a new number up one
   * after the other, then another new number both at once.
   */
  async function sharedBy(stores: [Store, Store], env: Record<string, string> = {}): Promise<BuiltLookup[]> {
    const built = await Promise.all(
      stores.map((store) =>
        buildNumberLookup(configOf(env), {
          store: store.lookups,
          codeSecret: CODE_SECRET,
          clock: systemClock,
          sharing: () => true,
        }),
      ),
    );
    const number = newNumber();
    const before = api.received.length;
    const [a, b] = built as [BuiltLookup, BuiltLookup];
    const first = await a.lookup.lookup({ e164: number, mode: 'live', parts: PARTS });
    expect(first).toMatchObject({ ok: true, from: 'provider', facts: { lineType: 'voip', carrier: 'EE' } });
    // The answer does not wait for the shared cache's write; the other instance reads it once landed.
    await a.lookup.settled();
    const second = await b.lookup.lookup({ e164: number, mode: 'live', parts: PARTS });
    expect(second).toEqual({ ...first, from: 'cache' });
    expect(api.received.length - before).toBe(1);
    // Both at once: one claims the number and asks, the other waits for its answer in the cache.
    const other = newNumber();
    const both = await Promise.all(
      [a, b].map((x) => x.lookup.lookup({ e164: other, mode: 'live', parts: PARTS })),
    );
    expect(both.map((o) => o.ok && o.from).sort()).toEqual(['cache', 'provider']);
    expect(api.received.length - before).toBe(2);
    await Promise.all(built.map((x) => x.lookup.settled()));
    return built;
  }

  it('SQLite: two stores on one file', async () => {
    const file = join(dir, 'shared.db');
    const stores: [Store, Store] = [await openStore(`sqlite:${file}`), await openStore(`sqlite:${file}`)];
    try {
      const built = await sharedBy(stores);
      expect(built.map((b) => b.cacheIn)).toEqual(['database', 'database']);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it.runIf(hasPostgres)('PostgreSQL: two instances on one database', async () => {
    const db: TestDatabase = await createTestDatabase();
    const stores: [Store, Store] = [await openStore(db.url), await openStore(db.url)];
    try {
      await sharedBy(stores);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await db.drop();
    }
  });

  it.runIf(hasRedis)(
    'Redis: two instances with their own databases share the cache, each part with its TTL',
    async () => {
      const prefix = `cvtest-lookup-${randomBytes(4).toString('hex')}`;
      const stores: [Store, Store] = [await openStore('sqlite::memory:'), await openStore('sqlite::memory:')];
      const built = await sharedBy(stores, { REDIS_URL, REDIS_KEY_PREFIX: prefix });
      try {
        expect(built.map((b) => b.cacheIn)).toEqual(['redis', 'redis']);
        const redis = new Redis(REDIS_URL);
        // Two numbers' parts (the claims, each lasting its holder's budget, are apart).
        const keys = (await redis.keys(`${prefix}:lookup:*`))
          .filter((k) => !k.includes(':lookup:claim:'))
          .sort();
        expect(keys).toHaveLength(4);
        expect(keys[0]).toMatch(new RegExp(`^${prefix}:lookup:line:[A-Za-z0-9_-]{22}$`));
        const simKey = keys.find((k) => k.includes(':lookup:sim:'));
        const [lineTtl, simTtl] = [await redis.pttl(keys[0]!), await redis.pttl(simKey!)];
        expect(lineTtl).toBeGreaterThan(604_000_000);
        expect(simTtl).toBeGreaterThan(3_590_000);
        expect(simTtl).toBeLessThanOrEqual(3_600_000);
        // Neither the number nor its digits are in Redis.
        for (const key of keys) expect(await redis.get(key)).not.toMatch(/\+4477009/);
        await redis.quit();
        // Nothing was written to the databases.
        expect(await stores[0].lookups.sweep(Number.MAX_SAFE_INTEGER, 10)).toBe(0);
      } finally {
        await Promise.all(built.map((b) => b.close()));
        await Promise.all(stores.map((s) => s.close()));
        const redis = new Redis(REDIS_URL);
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      }
    },
  );

  it('without a provider, connects to no Redis and keeps the database cache', async () => {
    const store = await openStore('sqlite::memory:');
    const built = await buildNumberLookup(loadConfig({ REDIS_URL: 'redis://127.0.0.1:1' }), {
      store: store.lookups,
      codeSecret: CODE_SECRET,
      clock: systemClock,
    });
    expect(built.cacheIn).toBe('database');
    expect(built.lookup.providerName).toBeNull();
    expect(await built.lookup.lookup({ e164: '+447700900002', mode: 'test', parts: PARTS })).toMatchObject({
      ok: true,
      facts: { lineType: 'landline' },
    });
    await built.close();
    await store.close();
  });
});
