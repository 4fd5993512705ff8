import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimitStore } from '../../src/limits/redis-store.js';
import { startTestService, type TestService } from '../support/app.js';
import { type FlakyProxy, startFlakyProxy } from '../support/flaky-proxy.js';
import { hasRedis, REDIS_URL } from '../support/services.js';
import { waitFor } from '../support/wait.js';

/**
 * Redis goes away under a running service: it fails closed (503 UNAVAILABLE with Retry-After for
 * sends and verifies), /health says degraded, and it recovers by itself when Redis is back. The
 * machine's Redis is shared, so the outage is a proxy between the service and Redis being cut.
 */
describe.skipIf(!hasRedis)('Redis outage', () => {
  const prefix = `test-${randomUUID()}`;
  let proxy: FlakyProxy;
  let svc: TestService;
  let key: string;

  const send = (email: string) => svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);
  const verify = (requestId: string, otpCode: string) =>
    svc.post('/v1/contact/verify-code', { requestId, otpCode }, key);
  const untilHealthy = () =>
    waitFor(async () => (await svc.get('/health')).body.services.rateLimitStore === 'up', {
      what: 'the rate-limit store to come back',
    });

  beforeAll(async () => {
    const { hostname, port } = new URL(REDIS_URL);
    proxy = await startFlakyProxy({ host: hostname, port: Number(port || 6379) });
    svc = await startTestService({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: prefix,
    });
    key = await svc.createKey();
  });
  afterAll(async () => {
    await svc?.close();
    await proxy?.close();
    const cleaner = await RedisRateLimitStore.connect(REDIS_URL, { prefix });
    await cleaner.clear();
    await cleaner.close();
  });

  it('uses Redis while it is there', async () => {
    expect((await svc.get('/health')).body).toMatchObject({
      status: expect.any(String),
      services: { rateLimitStore: 'up' },
    });
    expect((await send('before@example.com')).status).toBe(200);
  });

  it('answers 503 for sends and verifies while Redis is cut, and /health says degraded', async () => {
    const sent = await send('pending@example.com');
    expect(sent.status).toBe(200);
    const code = await svc.lastCode('pending@example.com');

    proxy.cut();
    const refused = await send('during@example.com');
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('UNAVAILABLE');
    expect(refused.headers['retry-after']).toBe('1');

    const unverified = await verify(sent.body.data.requestId, code);
    expect(unverified.status).toBe(503);
    expect(unverified.body.error.code).toBe('UNAVAILABLE');

    const health = await svc.get('/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('degraded');
    expect(health.body.services).toEqual({ database: 'up', rateLimitStore: 'down' });

    // Nothing was lost: once Redis is back the same code verifies, with no restart.
    proxy.restore();
    await untilHealthy();
    const verified = await verify(sent.body.data.requestId, code);
    expect(verified.status).toBe(200);
    expect(verified.body.data.verified).toBe(true);
    expect((await send('after@example.com')).status).toBe(200);
    // The counters are Redis's own again: the cooldown set before the cut still holds.
    expect((await send('before@example.com')).status).toBe(429);
  });

  it('answers 503 within the command timeout when Redis hangs, then recovers', async () => {
    proxy.hang();
    const started = performance.now();
    const refused = await send('hung@example.com');
    expect(refused.status).toBe(503);
    expect(performance.now() - started).toBeLessThan(5000);
    proxy.restore();
    await untilHealthy();
    expect((await send('unhung@example.com')).status).toBe(200);
  });
});

describe.skipIf(!hasRedis)('Redis away at start', () => {
  const prefix = `test-${randomUUID()}`;

  it('starts degraded, answers 503, and connects by itself once Redis is there', async () => {
    const { hostname, port } = new URL(REDIS_URL);
    const proxy = await startFlakyProxy({ host: hostname, port: Number(port || 6379) });
    proxy.cut();
    const svc = await startTestService({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: prefix,
    });
    try {
      const key = await svc.createKey();
      expect((await svc.get('/health')).body.status).toBe('degraded');
      const send = () =>
        svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'late@example.com' }, key);
      expect((await send()).status).toBe(503);
      proxy.restore();
      let status = 0;
      await waitFor(
        async () => {
          status = (await send()).status;
          return status === 200;
        },
        { what: 'a send to succeed once Redis is reachable' },
      ).catch(() => undefined);
      expect(status).toBe(200);
      expect((await svc.get('/health')).body.services.rateLimitStore).toBe('up');
    } finally {
      await svc.close();
      await proxy.close();
      const cleaner = await RedisRateLimitStore.connect(REDIS_URL, { prefix });
      await cleaner.clear();
      await cleaner.close();
    }
  });
});

describe.skipIf(!hasRedis)('Redis restart under traffic', () => {
  const prefix = `test-${randomUUID()}`;

  it('answers only 200, 429 or 503 while Redis drops out, and everything works after', async () => {
    const { hostname, port } = new URL(REDIS_URL);
    const proxy = await startFlakyProxy({ host: hostname, port: Number(port || 6379) });
    const svc = await startTestService({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: prefix,
      RESEND_COOLDOWN_SECONDS: '0',
      SENDS_PER_DESTINATION_PER_HOUR: '1000',
    });
    try {
      const key = await svc.createKey();
      const statuses = new Map<number, number>();
      let running = true;
      let n = 0;
      const client = async () => {
        while (running) {
          const email = `traffic-${n++ % 8}@example.com`;
          const sent = await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);
          statuses.set(sent.status, (statuses.get(sent.status) ?? 0) + 1);
          if (sent.status !== 200) continue;
          const res = await svc.post(
            '/v1/contact/verify-code',
            { requestId: sent.body.data.requestId, otpCode: await svc.lastCode(email) },
            key,
          );
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      };
      const clients = Array.from({ length: 4 }, client);
      const count = (status: number) => statuses.get(status) ?? 0;
      await waitFor(() => count(200) >= 10, { what: 'traffic answered while Redis is there' });
      proxy.cut();
      // A command in flight at the cut waits for its 1 s timeout; then sends are refused.
      await waitFor(() => count(503) > 0, { what: 'a 503 while Redis is cut' });
      proxy.restore();
      const answeredBefore = count(200);
      await waitFor(() => count(200) >= answeredBefore + 10, {
        what: 'traffic answered after Redis is back',
      });
      running = false;
      await Promise.all(clients);

      expect([...statuses.keys()].every((s) => [200, 429, 503].includes(s))).toBe(true);
      // The traffic may have used up this second's per-key send rate: a 429 until the next one.
      const send = () =>
        svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'after-traffic@example.com' }, key);
      let sent = await send();
      await waitFor(
        async () => {
          if (sent.status === 429) sent = await send();
          return sent.status !== 429;
        },
        { what: 'the per-second send rate to refill' },
      );
      expect(sent.status).toBe(200);
      const code = await svc.lastCode('after-traffic@example.com');
      const res = await svc.post(
        '/v1/contact/verify-code',
        { requestId: sent.body.data.requestId, otpCode: code },
        key,
      );
      expect(res.body.data.verified).toBe(true);
    } finally {
      await svc.close();
      await proxy.close();
      const cleaner = await RedisRateLimitStore.connect(REDIS_URL, { prefix });
      await cleaner.clear();
      await cleaner.close();
    }
  });
});
