import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterChecks } from '../../../bench/cluster-checks.js';
import { type DelayProxy, startDelayProxy } from '../../../bench/delay-proxy.js';
import { startWebhookSink, type WebhookSink } from '../../../bench/webhook-sink.js';
import { RedisRateLimitStore } from '../../../src/limits/redis-store.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { type RunningServer, startServer } from '../../support/process.js';
import { hasPostgres, hasRedis, REDIS_URL } from '../../support/services.js';

const ADMIN = 'cluster-checks-admin-token-0123456789';
const INSTANCES = 4;
const DELAY_MS = 1;

/**
 * Four service processes over one PostgreSQL database and one Redis, each reaching both through a
 * proxy that adds 1 ms each way (a round trip pays 2 ms, as across a network): the correctness
 * checks of `npm run bench:cluster` (bench/cluster-checks.ts), with small counts. The bench runs
 * the same checks with its instances in network namespaces, on servers of its own.
 */
describe.skipIf(!hasPostgres || !hasRedis)(
  'a cluster of four instances, 1 ms from its database and Redis',
  () => {
    const prefix = `test-${randomUUID()}`;
    let db: TestDatabase;
    let pgProxy: DelayProxy;
    let redisProxy: DelayProxy;
    let sink: WebhookSink;
    const servers: RunningServer[] = [];

    beforeAll(async () => {
      db = await createTestDatabase();
      const pgUrl = new URL(db.url);
      const redisUrl = new URL(REDIS_URL);
      pgProxy = await startDelayProxy({
        hosts: ['127.0.0.1'],
        target: { host: pgUrl.hostname, port: Number(pgUrl.port || 5432) },
        delayMs: DELAY_MS,
      });
      redisProxy = await startDelayProxy({
        hosts: ['127.0.0.1'],
        target: { host: redisUrl.hostname, port: Number(redisUrl.port || 6379) },
        delayMs: DELAY_MS,
      });
      sink = await startWebhookSink(['127.0.0.1']);
      const viaProxy = new URL(REDIS_URL);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(redisProxy.port);
      const env = {
        DATABASE_URL: db.urlVia('127.0.0.1', pgProxy.port),
        REDIS_URL: viaProxy.toString(),
        REDIS_KEY_PREFIX: prefix,
        ADMIN_TOKEN: ADMIN,
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '100',
      };
      // The first applies the migrations; the others start together once it has.
      servers.push(await startServer(env, 60_000));
      servers.push(
        ...(await Promise.all(Array.from({ length: INSTANCES - 1 }, () => startServer(env, 60_000)))),
      );
    }, 180_000);

    afterAll(async () => {
      for (const server of servers) {
        if (server.child.exitCode === null) {
          server.child.kill('SIGTERM');
          await server.exited;
        }
      }
      await sink?.close();
      await pgProxy?.close();
      await redisProxy?.close();
      const cleaner = await RedisRateLimitStore.connect(REDIS_URL, { prefix });
      await cleaner.clear();
      await cleaner.close();
      await db?.drop();
    });

    it('shares limits, keeps one live code per destination, announces each event once, counts what it stored', async () => {
      const results = await clusterChecks({
        urls: servers.map((s) => s.url),
        adminToken: ADMIN,
        databaseUrl: db.url,
        webhook: { url: `http://127.0.0.1:${sink.port}/hooks`, events: async () => sink.events() },
        sends: 120,
        clients: 6,
      });
      const failed = results.filter((r) => !r.passed).map((r) => `${r.name}: ${r.detail}`);
      expect(failed).toEqual([]);
      expect(results.map((r) => r.name)).toEqual([
        'limits shared: a cooldown refused on another instance',
        'one live code per destination',
        'each webhook event once',
        'analytics equal to the stored rows',
        'no send or verify waits on the fold or the webhook publisher',
      ]);
      for (const server of servers) expect(server.output()).not.toMatch(/"level":(50|60)/);
    }, 180_000);
  },
);
