import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimitStore } from '../../../src/limits/redis-store.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { postJson, type RunningServer, startServer } from '../../support/process.js';
import { hasPostgres, hasRedis, REDIS_URL } from '../../support/services.js';

const ADMIN = 'two-instances-admin-token-0123456789';

/**
 * Two service processes on two ports over one PostgreSQL database and one Redis, as two machines
 * behind a load balancer would be: whichever instance a request reaches, the outcome is the same.
 */
describe.skipIf(!hasPostgres || !hasRedis)('two instances sharing PostgreSQL and Redis', () => {
  const prefix = `test-${randomUUID()}`;
  let db: TestDatabase;
  let a: RunningServer;
  let b: RunningServer;
  let key = '';

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL, REDIS_KEY_PREFIX: prefix, ADMIN_TOKEN: ADMIN };
    // One after the other: the first applies the migrations and stores the generated code secret.
    a = await startServer(env);
    b = await startServer(env);
    const created = await postJson(
      `${a.url}/v1/admin/api-keys`,
      { name: 'two-instances', channels: ['EMAIL', 'SMS', 'WHATSAPP'] },
      ADMIN,
    );
    expect(created.status).toBe(201);
    key = created.body.data.key;
  });

  afterAll(async () => {
    for (const server of [a, b]) {
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
    const cleaner = await RedisRateLimitStore.connect(REDIS_URL, { prefix });
    await cleaner.clear();
    await cleaner.close();
    await db?.drop();
  });

  const send = (server: RunningServer, email: string) =>
    postJson(`${server.url}/v1/contact/send-code`, { channel: 'EMAIL', email }, key);
  const verify = (server: RunningServer, requestId: string, otpCode: string) =>
    postJson(`${server.url}/v1/contact/verify-code`, { requestId, otpCode }, key);
  async function codeFor(server: RunningServer, to: string): Promise<string> {
    const res = await fetch(`${server.url}/v1/admin/outbox?to=${encodeURIComponent(to)}&limit=1`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    const body = (await res.json()) as { data: Array<{ text: string }> };
    const code = /\b(\d{6})\b/.exec(body.data[0]?.text ?? '')?.[1];
    if (!code) throw new Error(`no code for ${to}`);
    return code;
  }

  it('both report PostgreSQL and Redis up', async () => {
    for (const server of [a, b]) {
      const health = (await (await fetch(`${server.url}/health`)).json()) as { services: unknown };
      expect(health.services).toEqual({ database: 'up', rateLimitStore: 'up' });
    }
  });

  it('verifies through one instance a code sent through the other', async () => {
    const sent = await send(a, 'across@example.com');
    expect(sent.status).toBe(200);
    const code = await codeFor(b, 'across@example.com');
    const res = await verify(b, sent.body.data.requestId, code);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ verified: true, status: 'verified', channel: 'EMAIL' });
  });

  it('evaluates at most 5 of 60 parallel wrong guesses spread over both instances', async () => {
    const sent = await send(b, 'guessed@example.com');
    expect(sent.status).toBe(200);
    const requestId = sent.body.data.requestId as string;
    const code = await codeFor(a, 'guessed@example.com');
    // 60 distinct codes, none of them the right one.
    const wrong = Array.from({ length: 61 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    )
      .filter((c) => c !== code)
      .slice(0, 60);
    const answers = await Promise.all(wrong.map((guess, i) => verify(i % 2 === 0 ? a : b, requestId, guess)));

    const evaluated = answers.filter(
      (r) =>
        r.status === 200 &&
        r.body.data.verified === false &&
        ['pending', 'failed'].includes(r.body.data.status),
    );
    const refused = answers.filter((r) => r.status === 429 && r.body.error.code === 'TOO_MANY_ATTEMPTS');
    expect(evaluated.length).toBeLessThanOrEqual(5);
    expect(evaluated.length).toBeGreaterThan(0);
    expect(evaluated.length + refused.length).toBe(60);
    // The budget is spent for good: even the right code is refused now, on either instance.
    expect((await verify(a, requestId, code)).status).toBe(429);
    expect((await verify(b, requestId, code)).status).toBe(429);
  });

  it('holds the resend cooldown across instances', async () => {
    expect((await send(a, 'cooldown@example.com')).status).toBe(200);
    const again = await send(b, 'cooldown@example.com');
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('RATE_LIMITED');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(30);
  });
});
