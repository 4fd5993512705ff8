import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { hasPostgres } from '../../support/services.js';

const backends = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
].filter((b) => !b.postgres || hasPostgres);

describe.each(backends)('Idempotency-Key on send-code ($name)', ({ postgres }) => {
  let service: TestService;
  let db: TestDatabase | undefined;
  let key = '';
  const clock = new ManualClock(Date.parse('2026-11-24T12:00:00Z'));
  let n = 0;
  const email = () => `idem-${Date.now()}-${n++}@example.com`;

  beforeAll(async () => {
    db = postgres ? await createTestDatabase() : undefined;
    service = await startTestService(
      { RESEND_COOLDOWN_SECONDS: '0', ...(db ? { DATABASE_URL: db.url } : {}) },
      { clock },
    );
    key = await service.createKey();
  });
  afterAll(async () => {
    await service?.close();
    await db?.drop();
  });

  const send = (body: unknown, idempotencyKey?: string, token = key) =>
    service.app.inject({
      method: 'POST',
      url: '/v1/contact/send-code',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}),
      },
      payload: JSON.stringify(body),
    });
  const outboxCount = async (to: string) =>
    (await service.get(`/v1/admin/outbox?to=${encodeURIComponent(to)}`, ADMIN_TOKEN)).body.data.length;

  it('replays the first answer for the same key and body, and sends nothing more', async () => {
    const to = email();
    const first = await send({ channel: 'EMAIL', email: to, purpose: 'signup' }, 'k-replay');
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same body with its keys in another order is the same request.
    const again = await send({ purpose: 'signup', email: to, channel: 'EMAIL' }, 'k-replay');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.json().data.requestId).toBe(first.json().data.requestId);
    expect(await outboxCount(to)).toBe(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with another body', async () => {
    expect((await send({ channel: 'EMAIL', email: email() }, 'k-reused')).statusCode).toBe(200);
    const other = await send({ channel: 'EMAIL', email: email() }, 'k-reused');
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('refuses a malformed key with 400 VALIDATION_ERROR', async () => {
    for (const bad of ['', 'x'.repeat(256), 'tab\there']) {
      const res = await send({ channel: 'EMAIL', email: email() }, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.details[0].field).toBe('Idempotency-Key');
    }
    expect((await send({ channel: 'EMAIL', email: email() }, 'x'.repeat(255))).statusCode).toBe(200);
  });

  it('delivers exactly one code for 50 parallel sends with one key', async () => {
    const to = email();
    const body = { channel: 'EMAIL', email: to };
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(body, 'k-parallel')));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const fresh = answers.filter((a) => a.statusCode === 200 && !a.headers['idempotent-replayed']);
    expect(fresh).toHaveLength(1);
    for (const busy of answers.filter((a) => a.statusCode === 409)) {
      expect(busy.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(busy.headers['retry-after']).toBe('1');
    }
    expect(await outboxCount(to)).toBe(1);
    const later = await send(body, 'k-parallel');
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(later.body).toBe(fresh[0]?.body);
  });

  it('keeps keys apart per account and per mode', async () => {
    const testKey = await service.createKey({ test: true });
    const body = { channel: 'EMAIL', email: email() };
    expect((await send(body, 'k-scope')).statusCode).toBe(200);
    const other = await send(body, 'k-scope', testKey);
    expect(other.statusCode).toBe(200);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
  });

  it('does not keep a 429: the retry runs again once the limit allows', async () => {
    const to = email();
    // One send per hour to this destination, then a retry with a key is refused and not stored.
    const account = await service.post(
      '/v1/admin/accounts',
      { name: 'limited', settings: { sendsPerDestinationPerHour: 1 } },
      ADMIN_TOKEN,
    );
    const limitedKey = await service.createKey({ accountId: account.body.data.id });
    expect((await send({ channel: 'EMAIL', email: to }, undefined, limitedKey)).statusCode).toBe(200);
    const limited = await send({ channel: 'EMAIL', email: to }, 'k-429', limitedKey);
    expect(limited.statusCode).toBe(429);
    const retry = await send({ channel: 'EMAIL', email: to }, 'k-429', limitedKey);
    expect(retry.statusCode).toBe(429);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('forgets a key after 24 hours (a new send runs; the sweep deletes it)', async () => {
    const body = { channel: 'EMAIL', email: email() };
    const first = await send(body, 'k-day');
    clock.advance(24 * 3600 * 1000 + 1000);
    const next = await send(body, 'k-day');
    expect(next.statusCode).toBe(200);
    expect(next.headers['idempotent-replayed']).toBeUndefined();
    expect(next.json().data.requestId).not.toBe(first.json().data.requestId);
    clock.advance(24 * 3600 * 1000 + 1000);
    expect(await service.store.idempotency.sweep(clock.now() - 24 * 3600 * 1000, 1000)).toBeGreaterThan(0);
    expect(await service.store.idempotency.sweep(clock.now() - 24 * 3600 * 1000, 1000)).toBe(0);
  });
});
