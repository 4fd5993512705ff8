import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWith, freshNumber, SEND } from '../../lookup/support/lookup-service.js';
import { type ProviderFake, startProviderFake } from '../../lookup/support/provider-fakes.js';
import { startTestService, type TestService } from '../../support/app.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { hasPostgres, hasRedis, REDIS_URL } from '../../support/services.js';

// Two instances of one deployment share the lookups' cache through the send: a number instance A
// looked up is not looked up again by instance B, whether the cache is the PostgreSQL database
// both use or the Redis both use (each then on a database of its own); and a number both send to
// at once is looked up once, by whichever claims it first.

/**
 * A send answers without waiting for the shared cache's write of its lookup (src/lookup/service.ts):
 * the other instance's send waits until the cache holds one more number than `before`.
 */
async function landed(cached: () => Promise<number>, before: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await cached()) <= before) {
    if (Date.now() > deadline) throw new Error('the lookup never reached the shared cache');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function sendOnBoth(
  a: TestService,
  b: TestService,
  fake: ProviderFake,
  /** How many numbers the shared cache holds. */
  cached: () => Promise<number>,
) {
  const settings = { lookup: 'sms_voice', simSwapHours: 24, refuseLineTypes: ['voip'] };
  const onA = await accountWith(a, settings);
  const onB = await accountWith(b, settings);
  const phone = freshNumber();
  fake.say(phone, { lineType: 'landline', simChangedHoursAgo: 5 });
  const before = await cached();
  const first = await a.post(SEND, { channel: 'SMS', phone }, onA.key);
  expect(first.status).toBe(200);
  await landed(cached, before);
  const second = await b.post(SEND, { channel: 'SMS', phone }, onB.key);
  expect(second.status).toBe(200);
  for (const res of [first, second])
    expect(
      Object.fromEntries(
        res.body.data.risk.signals.map((s: { name: string; weight: number }) => [s.name, s.weight]),
      ),
    ).toEqual({ line_type: 15, sim_swap: 40 });
  expect(fake.lookupsOf(phone)).toHaveLength(1);

  // A voip number B looked up is refused by A from the cache.
  const voip = freshNumber();
  fake.say(voip, { lineType: 'voip' });
  const beforeVoip = await cached();
  expect((await b.post(SEND, { channel: 'SMS', phone: voip }, onB.key)).status).toBe(400);
  await landed(cached, beforeVoip);
  expect((await a.post(SEND, { channel: 'SMS', phone: voip }, onA.key)).status).toBe(400);
  expect(fake.lookupsOf(voip)).toHaveLength(1);
}

describe.runIf(hasPostgres)(
  'two instances on one PostgreSQL database share the lookup cache (number_lookups)',
  () => {
    let db: TestDatabase;
    let fake: ProviderFake;
    let a: TestService;
    let b: TestService;
    beforeAll(async () => {
      fake = await startProviderFake('twilio');
      db = await createTestDatabase();
      // Heartbeats every 100 ms: each instance learns of the other at once rather than in 10 s.
      const env = { DATABASE_URL: db.url, ...fake.env };
      a = await startTestService(env, { instanceHeartbeatMs: 100 });
      b = await startTestService(env, { instanceHeartbeatMs: 100 });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await db?.drop();
      await fake?.close();
    });

    it('B does not look up again what A looked up', () =>
      sendOnBoth(a, b, fake, async () => {
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        try {
          return Number((await client.query('SELECT count(*) AS n FROM number_lookups')).rows[0].n);
        } finally {
          await client.end();
        }
      }));

    it('a number both send to at the same moment is looked up once (the claim in number_lookup_claims)', async () => {
      const deadline = Date.now() + 10_000;
      for (const svc of [a, b])
        while ((await svc.get('/health')).body.instances.live < 2) {
          if (Date.now() > deadline) throw new Error('the instances never saw each other');
          await new Promise((r) => setTimeout(r, 50));
        }
      const settings = { lookup: 'sms_voice' };
      const [onA, onB] = [await accountWith(a, settings), await accountWith(b, settings)];
      for (let i = 0; i < 3; i++) {
        const phone = freshNumber();
        fake.say(phone, { lineType: 'mobile' });
        const sends = await Promise.all([
          a.post(SEND, { channel: 'SMS', phone }, onA.key),
          b.post(SEND, { channel: 'SMS', phone }, onB.key),
        ]);
        expect(sends.map((r) => r.status)).toEqual([200, 200]);
        expect(fake.lookupsOf(phone)).toHaveLength(1);
      }
    });
  },
);

describe.runIf(hasRedis)('two instances sharing a Redis share the lookup cache', () => {
  const prefix = `cv-test-lookup-${randomBytes(6).toString('hex')}`;
  let fake: ProviderFake;
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    fake = await startProviderFake('vonage');
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, ...fake.env };
    a = await startTestService(env);
    b = await startTestService(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await fake?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('B does not look up again what A looked up', async () => {
    const redis = new Redis(REDIS_URL);
    try {
      await sendOnBoth(a, b, fake, async () => (await redis.keys(`${prefix}:lookup:*`)).length);
      const keys = await redis.keys(`${prefix}:lookup:*`);
      expect(keys.length).toBeGreaterThan(0);
      // Keyed by HMAC, never by the number.
      for (const k of keys) expect(k).not.toMatch(/\+?44740/);
    } finally {
      await redis.quit();
    }
  });
});
