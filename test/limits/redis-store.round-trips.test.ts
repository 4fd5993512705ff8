import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ScratchRedis } from '../../scripts/chaos/peers.js';
import type {
  CounterPlan,
  CounterRef,
  CounterSpec,
  PlanOutcome,
} from '../../src/domain/ports/rate-limits.js';
import { RateLimitPolicy, type SendTarget } from '../../src/domain/rate-limit-policy.js';
import { MemoryRateLimitStore } from '../../src/limits/memory-store.js';
import { RedisRateLimitStore } from '../../src/limits/redis-store.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { settingsWith } from '../support/settings.js';
import { recordSkip } from '../support/skips.js';

/**
 * One Redis round trip per send, and per verify: every counter a send checks and charges is one
 * script call (src/limits/redis-store.ts, PLAN_SCRIPT). Counted with MONITOR on a redis-server of
 * this test's own (its own port, nothing saved), so that no other client's commands are counted;
 * the commands the script runs inside show as `lua` and are not round trips.
 */
const hasRedisServer = (process.env.PATH ?? '')
  .split(':')
  .some((dir) => dir !== '' && existsSync(join(dir, 'redis-server')));
if (!hasRedisServer) recordSkip('no redis-server on PATH to start a Redis of the test’s own');

describe.skipIf(!hasRedisServer)('Redis round trips per request', () => {
  let dir: string;
  let redis: ScratchRedis;
  let url: string;
  let control: Redis;
  let monitor: Redis;
  /** The commands clients sent (not those a script ran), as the monitor saw them. */
  const seen: string[][] = [];
  let fences = 0;

  beforeAll(async () => {
    // Waits for PING before any client connects: an ioredis client whose first connect was
    // refused reconnects by itself, and a second connect() then only says "already connecting".
    dir = mkdtempSync(join(tmpdir(), 'cv-redis-rt-'));
    redis = await ScratchRedis.start(dir, await freePort());
    url = redis.url;
    control = new Redis(url, { maxRetriesPerRequest: 0 });
    monitor = await new Redis(url).monitor();
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua') seen.push(args);
    });
  });
  afterAll(async () => {
    monitor?.disconnect();
    control?.disconnect();
    await redis?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The client commands since the last fence (the fence's own ECHO excluded). */
  async function commandsOf(work: () => Promise<unknown>): Promise<string[][]> {
    await fence();
    seen.length = 0;
    await work();
    await fence();
    return seen.filter((c) => !(c[0]?.toLowerCase() === 'echo' && c[1]?.startsWith('fence-')));
  }
  async function fence(): Promise<void> {
    const mark = `fence-${++fences}`;
    await control.echo(mark);
    for (let i = 0; !seen.some((c) => c[1] === mark); i++) {
      if (i > 400) throw new Error('the monitor did not see the fence');
      await sleep(5);
    }
  }
  const names = (commands: string[][]) => commands.map((c) => (c[0] ?? '').toLowerCase());

  describe('through the service', () => {
    let svc: TestService;
    let key: string;
    const SEND = '/v1/contact/send-code';
    const VERIFY = '/v1/contact/verify-code';

    beforeAll(async () => {
      svc = await startTestService({ REDIS_URL: url, REDIS_KEY_PREFIX: 'rt' });
      key = await svc.createKey();
      // The first call of each script loads it (EVALSHA, NOSCRIPT, EVAL): not what is counted.
      await svc.post(SEND, { channel: 'EMAIL', email: 'warm@example.com' }, key);
      await svc.post(VERIFY, { requestId: 'vr_warm', otpCode: '000000' }, key);
    });
    afterAll(async () => {
      await svc?.close();
    });

    it('an email send is one EVALSHA', async () => {
      const commands = await commandsOf(async () => {
        expect((await svc.post(SEND, { channel: 'EMAIL', email: 'one@example.com' }, key)).status).toBe(200);
      });
      expect(names(commands)).toEqual(['evalsha']);
    });

    it('an SMS send (its country window read, charged and counted) is one EVALSHA', async () => {
      const commands = await commandsOf(async () => {
        expect((await svc.post(SEND, { channel: 'SMS', phone: '+14155550131' }, key)).status).toBe(200);
      });
      expect(names(commands)).toEqual(['evalsha']);
    });

    it('a dual send is one EVALSHA, and so is its refusal by a cooldown, refused whole', async () => {
      const dual = { channels: ['EMAIL', 'SMS'], email: 'dual@example.com', phone: '+14155550132' };
      const sent = await commandsOf(async () => expect((await svc.post(SEND, dual, key)).status).toBe(200));
      expect(names(sent)).toEqual(['evalsha']);
      const refused = await commandsOf(async () => {
        const again = await svc.post(SEND, { ...dual, email: 'other@example.com' }, key);
        expect(again.status).toBe(429);
        expect(again.body.error.details.map((d: { channel: string }) => d.channel)).toEqual(['SMS']);
      });
      expect(names(refused)).toEqual(['evalsha']);
      // The email side was given back in that call: a send to it goes through.
      expect((await svc.post(SEND, { channel: 'EMAIL', email: 'other@example.com' }, key)).status).toBe(200);
    });

    it('a verify of the right code is one EVALSHA', async () => {
      const sent = await svc.post(SEND, { channel: 'EMAIL', email: 'right@example.com' }, key);
      const code = await svc.lastCode('right@example.com');
      const commands = await commandsOf(async () => {
        const res = await svc.post(VERIFY, { requestId: sent.body.data.requestId, otpCode: code }, key);
        expect(res.body.data.verified).toBe(true);
      });
      expect(names(commands)).toEqual(['evalsha']);
    });

    it('a wrong code is one call before its answer; with no other request after it, its point goes alone (10 ms later); verifies of one turn share that call', async () => {
      const sent = await svc.post(SEND, { channel: 'EMAIL', email: 'wrong@example.com' }, key);
      const code = await svc.lastCode('wrong@example.com');
      const wrong = code === '000000' ? '111111' : '000000';
      const one = await commandsOf(async () => {
        const res = await svc.post(VERIFY, { requestId: sent.body.data.requestId, otpCode: wrong }, key);
        expect(res.body.data.verified).toBe(false);
        await sleep(100);
      });
      expect(names(one)).toEqual(['evalsha', 'evalsha']);

      const requests = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          svc.post(SEND, { channel: 'EMAIL', email: `wrong${i}@example.com` }, key),
        ),
      );
      const four = await commandsOf(async () => {
        await Promise.all(
          requests.map((r) => svc.post(VERIFY, { requestId: r.body.data.requestId, otpCode: wrong }, key)),
        );
        await sleep(100);
      });
      expect(names(four).every((n) => n === 'evalsha')).toBe(true);
      expect(four.length).toBeGreaterThanOrEqual(5);
      expect(four.length).toBeLessThanOrEqual(8);
    });
  });

  describe("a verify's outcome carried by the next call", () => {
    let store: RedisRateLimitStore;
    let policy: RateLimitPolicy;
    const settings = settingsWith({ failuresPerDestinationPerDay: 2 });
    const refusing = { ...settings, keyVerifyPerSecond: 0 };
    const target: SendTarget = {
      channel: 'EMAIL',
      destination: 'carried@example.com',
      address: 'carried@example.com',
      country: null,
    };
    beforeAll(async () => {
      store = await RedisRateLimitStore.connect(url, { prefix: 'carry' });
      policy = new RateLimitPolicy(store, Buffer.alloc(32, 7));
      await store.run({}); // the script is on this connection already
    });
    afterAll(async () => {
      await store?.close();
    });

    it("rides on the next request's call, even one its key's rate refuses", async () => {
      const commands = await commandsOf(async () => {
        const failure = policy.recordFailure('acct', target.destination, settings);
        await policy.checkKeyRate('verify', 'key-1', settings);
        // A key with a verify rate of 0 is refused every time, and carries the point all the same.
        const refused = policy.recordFailure('acct', target.destination, settings);
        await expect(policy.checkKeyRate('verify', 'key-1', refusing)).rejects.toMatchObject({
          code: 'RATE_LIMITED',
        });
        await Promise.all([failure, refused]);
      });
      // Each point went with the call after it: no call of its own.
      expect(names(commands)).toEqual(['evalsha', 'evalsha']);
      // Both points were counted: the destination's budget of 2 is used up for a send.
      const charge = await policy.chargeSend('key-2', 'acct', [target], settings, Date.now());
      expect(charge.refusal()?.message).toMatch(/wrong codes/);
    });

    it('goes by itself when no call comes within 10 ms', async () => {
      const commands = await commandsOf(async () => {
        await policy.recordFailure('acct', 'alone@example.com', settings);
        await sleep(100);
      });
      expect(names(commands)).toEqual(['evalsha']);
    });
  });

  describe('a send the screen refuses', () => {
    let svc: TestService;
    let key: string;
    beforeAll(async () => {
      svc = await startTestService({
        REDIS_URL: url,
        REDIS_KEY_PREFIX: 'rt-screen',
        RESEND_COOLDOWN_SECONDS: '0',
        SENDS_PER_DESTINATION_PER_HOUR: '2',
      });
      key = await svc.createKey();
    });
    afterAll(async () => {
      await svc?.close();
    });

    it('gives back what its one call charged (a second call): its limits are as if never asked', async () => {
      const send = () =>
        svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'screen@example.com' }, key);
      expect((await send()).status).toBe(200);
      const accountId = (await svc.get('/v1/admin/accounts', ADMIN_TOKEN)).body.data[0].id;
      const [contact] = (
        await svc.get(`/v1/admin/contacts?accountId=${accountId}&q=screen@example.com`, ADMIN_TOKEN)
      ).body.data;
      await svc.post(`/v1/admin/contacts/${contact.id}/block`, { reason: 'test' }, ADMIN_TOKEN);
      const refused = await commandsOf(async () => expect((await send()).status).toBe(403));
      // The give-back script's first call in this process sends the script itself (EVAL).
      expect(names(refused)).toEqual(['evalsha', expect.stringMatching(/^eval(sha)?$/)]);
      await svc.post(`/v1/admin/contacts/${contact.id}/unblock`, {}, ADMIN_TOKEN);
      // The hourly cap of 2 was not charged by the refused send: one more goes through, then none.
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(429);
    });
  });

  describe('the plan script against the step-by-step run', () => {
    let redis: RedisRateLimitStore;
    let memory: MemoryRateLimitStore;
    beforeAll(async () => {
      redis = await RedisRateLimitStore.connect(url, { prefix: 'plan' });
      memory = new MemoryRateLimitStore();
    });
    afterAll(async () => {
      await redis?.close();
      await memory?.close();
    });

    // A small random world: few counters, small limits, so that refusals are frequent.
    const specs: CounterSpec[] = [
      { name: 'a', limit: 1, windowSeconds: 60 },
      { name: 'b', limit: 2, windowSeconds: 60 },
      { name: 'c', limit: 3, windowSeconds: 3600 },
    ];
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const ref = (): CounterRef => ({ spec: specs[rand(specs.length)] as CounterSpec, key: `k${rand(4)}` });
    const refs = (max: number) => Array.from({ length: rand(max + 1) }, ref);
    const plan = (): CounterPlan => ({
      addsFirst: refs(2),
      reads: refs(3),
      ...(rand(3) > 0 ? { rate: ref() } : {}),
      budgets: refs(2),
      takes: Array.from({ length: rand(3) }, () => refs(3)),
      adds: refs(2),
    });
    const comparable = (o: PlanOutcome) => ({
      ...o,
      rate: o.rate && { ...o.rate, retryAfterSeconds: o.rate.retryAfterSeconds > 0 },
      budget: o.budget && { ...o.budget, retryAfterSeconds: o.budget.retryAfterSeconds > 0 },
      refused: o.refused.map((r) => ({ ...r, retryAfterSeconds: r.retryAfterSeconds > 0 })),
    });

    it('answers and counts alike over 300 random plans, give-backs among them', async () => {
      for (let i = 0; i < 300; i++) {
        const p = plan();
        const [fromRedis, fromMemory] = [await redis.run(p), await memory.run(p)];
        expect(comparable(fromRedis), `plan ${i}: ${JSON.stringify(p)}`).toEqual(comparable(fromMemory));
        if (rand(4) === 0) {
          await redis.giveBack(fromRedis.charged);
          await memory.giveBack(fromMemory.charged);
        }
      }
      for (const spec of specs)
        for (let k = 0; k < 4; k++)
          expect(await redis.count(spec, `k${k}`)).toBe(await memory.count(spec, `k${k}`));
    });

    it("sends the plans of one event-loop turn in one write: 50 concurrent sends' plans cost Redis one read, not 50", async () => {
      // The store's own connection (ioredis, auto-pipelining): its socket's writes, counted.
      const socket = (redis as unknown as { redis: { stream: { write: (...a: unknown[]) => boolean } } })
        .redis.stream;
      const write = socket.write;
      let writes = 0;
      socket.write = function (this: unknown, ...args: unknown[]) {
        writes++;
        return write.apply(this, args);
      };
      // Redis's own count of the reads it made from its clients' sockets; only this store's
      // connection sends between the two INFO commands, each of which is one read itself.
      const reads = async () => Number(/total_reads_processed:(\d+)/.exec(await control.info('stats'))?.[1]);
      const turn = (tag: string) =>
        Array.from({ length: 50 }, (_, i) =>
          redis.run({ adds: [{ spec: specs[2] as CounterSpec, key: `${tag}${i}` }] }),
        );
      try {
        await Promise.all(turn('warm')); // the script is on this connection already
        writes = 0;
        const before = await reads();
        const outcomes = await Promise.all(turn('pipelined'));
        const after = await reads();
        expect(outcomes.every((o) => o.refused.length === 0)).toBe(true);
        expect(writes).toBe(1);
        expect(after - before - 1).toBeLessThanOrEqual(2);
      } finally {
        socket.write = write;
      }
    });

    it('counts addsFirst before the reads, and when the rate refuses, without charging them to the plan', async () => {
      const spec = { name: 'first', limit: 1, windowSeconds: 60 };
      const first = { spec: specs[2] as CounterSpec, key: 'first' };
      for (const store of [redis, memory]) {
        await store.run({ rate: { spec, key: 'r' } });
        const outcome = await store.run({ addsFirst: [first], reads: [first], rate: { spec, key: 'r' } });
        expect(outcome.reads).toEqual([1]);
        expect(outcome.rate?.allowed).toBe(false);
        expect(outcome.charged).toEqual([]);
        expect(await store.count(first.spec, first.key)).toBe(1);
      }
    });

    it('loads its script again when Redis forgot it (NOSCRIPT)', async () => {
      await control.script('FLUSH');
      const outcome = await redis.run({
        rate: { spec: { name: 'noscript', limit: 1, windowSeconds: 60 }, key: 'x' },
      });
      expect(outcome.rate?.allowed).toBe(true);
    });
  });
});
