/**
 * Measures a carrier lookup's own cost, run once by hand (`npx tsx scripts/measure-lookup.ts`):
 * the CPU of a lookup answered from a warm cache (the process's own, and the shared one: SQLite in
 * memory, and Redis when REDIS_URL is set), and the latency of cold lookups, 50 at a time, against a Twilio Lookup fake on loopback
 * that answers in 100 ms. Not a benchmark of sends: part B's wiring is measured with the send.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { HOUR_MS, systemClock } from '../src/domain/clock.js';
import type { LookupCacheStore } from '../src/domain/ports/number-lookup.js';
import { TwilioLookup } from '../src/lookup/providers/twilio/twilio-lookup.js';
import { RedisLookupCache } from '../src/lookup/redis-cache.js';
import { LookupService } from '../src/lookup/service.js';
import { openStore } from '../src/store/factory.js';

const ANSWER = JSON.stringify({
  country_code: 'GB',
  valid: true,
  line_type_intelligence: {
    error_code: null,
    carrier_name: 'EE',
    type: 'mobile',
    mobile_country_code: '234',
    mobile_network_code: '30',
  },
  sim_swap: { last_sim_swap: { last_sim_swap_date: '2025-01-01T00:00:00Z' }, error_code: null },
});

const server = createServer((_req, res) => {
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(ANSWER);
  }, 100);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const serviceOn = (cache: LookupCacheStore) =>
  new LookupService({
    provider: new TwilioLookup({ accountSid: 'AC1', authToken: 't', baseUrl: url }),
    cache,
    keySecret: Buffer.alloc(32, 1),
    clock: systemClock,
    budgetMs: 1500,
    lineTtlMs: 7 * 24 * HOUR_MS,
    simTtlMs: HOUR_MS,
    breaker: { failures: 5, cooldownMs: 30_000 },
  });
const number = (i: number) => `+4477009${String(i).padStart(5, '0')}`;
const parts = { line: true, sim: true };
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function warm(name: string, cache: LookupCacheStore) {
  const lookups = serviceOn(cache);
  const numbers = 200;
  for (let i = 0; i < numbers; i++) await lookups.lookup({ e164: number(i), mode: 'live', parts });
  const rounds = 20_000;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) {
    const outcome = await lookups.lookup({ e164: number(i % numbers), mode: 'live', parts });
    if (!outcome.ok || outcome.from !== 'cache') throw new Error('not from the cache');
  }
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  console.log(
    `${name}: warm lookup ${((used.user + used.system) / rounds).toFixed(1)} µs CPU, ${((wall * 1000) / rounds).toFixed(1)} µs wall (${rounds} sequential lookups)`,
  );
  // The first lookup of a number by a process (another instance looked it up): a shared-cache read.
  const services = 100;
  const cpu2 = process.cpuUsage();
  const started2 = performance.now();
  for (let s = 0; s < services; s++) {
    const fresh = serviceOn(cache);
    for (let i = 0; i < numbers; i++) {
      const outcome = await fresh.lookup({ e164: number(i), mode: 'live', parts });
      if (!outcome.ok || outcome.from !== 'cache') throw new Error('not from the cache');
    }
  }
  const used2 = process.cpuUsage(cpu2);
  const reads = services * numbers;
  console.log(
    `${name}: shared-cache read ${((used2.user + used2.system) / reads).toFixed(1)} µs CPU, ${(((performance.now() - started2) * 1000) / reads).toFixed(1)} µs wall (${reads} first lookups by a process)`,
  );
}

async function cold(cache: LookupCacheStore) {
  const lookups = serviceOn(cache);
  const total = 1000;
  const concurrency = 50;
  const latencies: number[] = [];
  // A first round, not counted: the HTTP client's connections and the JIT warm up.
  await Promise.all(
    Array.from({ length: concurrency }, (_, i) =>
      lookups.lookup({ e164: number(90_000 + i), mode: 'live', parts }),
    ),
  );
  let next = 100_000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (latencies.length < total) {
        const t = performance.now();
        const outcome = await lookups.lookup({ e164: number(next++ % 100_000), mode: 'live', parts });
        if (!outcome.ok) throw new Error(outcome.error);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const sorted = latencies.sort((a, b) => a - b);
  console.log(
    `cold lookups (fake answering in 100 ms, ${concurrency} at a time, ${latencies.length}): p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms, ${((latencies.length / (performance.now() - started)) * 1000).toFixed(0)} lookups/s`,
  );
}

const store = await openStore('sqlite::memory:');
await warm('SQLite (in memory)', store.lookups);
await cold(store.lookups);
if (process.env.REDIS_URL) {
  const redis = new Redis(process.env.REDIS_URL);
  const prefix = `cv-measure-${process.pid}`;
  await warm('Redis', new RedisLookupCache(redis, prefix, systemClock));
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}
await store.close();
server.close();
