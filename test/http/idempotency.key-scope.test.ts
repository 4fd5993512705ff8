import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../src/domain/accounts.js';
import { ManualClock } from '../../src/domain/clock.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';

const SEND = '/v1/contact/send-code';
const VERIFY = '/v1/contact/verify-code';

const backends = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
].filter((b) => !b.postgres || hasPostgres);

/**
 * A key's channels hold everywhere: a key not enabled for a request's channel cannot verify it
 * (404, as an unknown request), and an Idempotency-Key replays only to the API key that sent it,
 * only answers of sends that ran.
 */
describe.each(backends)("a key's channel scope and its Idempotency-Keys ($name)", ({ postgres }) => {
  let svc: TestService;
  let db: TestDatabase | undefined;
  let full = '';
  let smsOnly = '';
  let n = 0;
  const email = () => `scope-${n++}@example.com`;
  const phone = () => `+1415555${String(1000 + n++).padStart(4, '0')}`;
  const clock = new ManualClock(Date.parse('2026-11-27T12:00:00Z'));

  beforeAll(async () => {
    db = postgres ? await createTestDatabase() : undefined;
    svc = await startTestService(
      { RESEND_COOLDOWN_SECONDS: '0', ...(db ? { DATABASE_URL: db.url } : {}) },
      { clock },
    );
    full = await svc.createKey();
    smsOnly = await svc.createKey({ channels: ['SMS'], name: 'sms-only' });
  });
  afterAll(async () => {
    await svc?.close();
    await db?.drop();
  });

  const send = (body: unknown, token: string, idempotencyKey?: string) =>
    svc.app.inject({
      method: 'POST',
      url: SEND,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      payload: JSON.stringify(body),
    });
  const verify = (requestId: string, otpCode: string, token: string) =>
    svc.post(VERIFY, { requestId, otpCode }, token);
  const codeOf = async (requestId: string, to: string) => {
    const messages = (await svc.get(`/v1/admin/outbox?to=${encodeURIComponent(to)}`, ADMIN_TOKEN)).body
      .data as Array<{ requestId: string; text: string }>;
    const text = messages.find((m) => m.requestId === requestId)?.text ?? '';
    return /\b(\d{4,10})\b/.exec(text)?.[1] as string;
  };

  describe('verify-code', () => {
    it('answers 404 NOT_FOUND, as for an unknown request, to a key not enabled for its channel; no attempt counted', async () => {
      const to = email();
      const sent = await send({ channel: 'EMAIL', email: to }, full);
      const requestId = sent.json().data.requestId as string;
      const code = await codeOf(requestId, to);

      const scoped = await verify(requestId, code, smsOnly);
      const unknown = await verify(randomUUID(), code, smsOnly);
      expect(scoped.status).toBe(404);
      expect(scoped.body).toEqual(unknown.body);
      expect(scoped.body.error.code).toBe('NOT_FOUND');

      // The code still verifies for a key enabled for EMAIL, with every attempt left.
      const right = await verify(requestId, code, full);
      expect(right.body.data).toMatchObject({ verified: true, attemptsRemaining: 4 });
    });

    it('in a dual pair, the channel of the request named by requestId counts', async () => {
      const to = email();
      const number = phone();
      const sent = await send({ channels: ['EMAIL', 'SMS'], email: to, phone: number }, full);
      expect(sent.statusCode).toBe(200);
      const [byEmail, bySms] = sent.json().data as Array<{ requestId: string }>;
      const emailCode = await codeOf(byEmail!.requestId, to);
      const smsCode = await codeOf(bySms!.requestId, number);

      expect((await verify(byEmail!.requestId, smsCode, smsOnly)).status).toBe(404);
      expect((await verify(byEmail!.requestId, emailCode, smsOnly)).status).toBe(404);
      const ok = await verify(bySms!.requestId, smsCode, smsOnly);
      expect(ok.body.data).toMatchObject({ verified: true, channel: 'SMS', attemptsRemaining: 4 });
    });
  });

  describe('Idempotency-Key', () => {
    it('belongs to the API key: another key of the account never gets its answer replayed', async () => {
      const body = { channel: 'EMAIL', email: email() };
      const first = await send(body, full, 'shared-key');
      expect(first.statusCode).toBe(200);
      const other = await send(body, smsOnly, 'shared-key');
      expect(other.statusCode).toBe(403);
      expect(other.json().error.code).toBe('CHANNEL_NOT_ENABLED');
      expect(other.headers['idempotent-replayed']).toBeUndefined();
      expect(other.body).not.toContain(first.json().data.requestId);

      // And the same key of another API key runs afresh.
      const anotherFull = await svc.createKey({ name: 'another' });
      const fresh = await send(body, anotherFull, 'shared-key');
      expect(fresh.statusCode).toBe(200);
      expect(fresh.headers['idempotent-replayed']).toBeUndefined();
      expect(fresh.json().data.requestId).not.toBe(first.json().data.requestId);
    });

    it('never keeps a 403: the refused key cannot hand it to a key that may send', async () => {
      const body = { channel: 'EMAIL', email: email() };
      expect((await send(body, smsOnly, 'k-403')).statusCode).toBe(403);
      const retry = await send(body, smsOnly, 'k-403');
      expect(retry.statusCode).toBe(403);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      const allowed = await send(body, full, 'k-403');
      expect(allowed.statusCode).toBe(200);
      expect(allowed.headers['idempotent-replayed']).toBeUndefined();
    });

    it('never keeps a 403 CONTACT_BLOCKED: once unblocked, the retry sends', async () => {
      const to = email();
      expect((await send({ channel: 'EMAIL', email: to }, full)).statusCode).toBe(200);
      const [contact] = (
        await svc.get(
          `/v1/admin/contacts?accountId=${DEFAULT_ACCOUNT_ID}&q=${encodeURIComponent(to)}`,
          ADMIN_TOKEN,
        )
      ).body.data;
      await svc.post(`/v1/admin/contacts/${contact.id}/block`, { reason: 'test' }, ADMIN_TOKEN);
      const refused = await send({ channel: 'EMAIL', email: to }, full, 'k-blocked');
      expect(refused.json().error.code).toBe('CONTACT_BLOCKED');
      await svc.post(`/v1/admin/contacts/${contact.id}/unblock`, {}, ADMIN_TOKEN);
      const retry = await send({ channel: 'EMAIL', email: to }, full, 'k-blocked');
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
    });

    it('never keeps a 400 the service decided before sending (a country outside the allow-list)', async () => {
      const account = (await svc.post('/v1/admin/accounts', { name: `allow-${n++}` }, ADMIN_TOKEN)).body.data;
      const key = await svc.createKey({ accountId: account.id, channels: ['SMS'] });
      const narrow = await svc.app.inject({
        method: 'PATCH',
        url: `/v1/admin/accounts/${account.id}/settings`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ allowedCountries: ['GB'] }),
      });
      expect(narrow.statusCode).toBe(200);
      const body = { channel: 'SMS', phone: phone() };
      const refused = await send(body, key, 'k-country');
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('INVALID_DESTINATION');
      const widen = await svc.app.inject({
        method: 'PATCH',
        url: `/v1/admin/accounts/${account.id}/settings`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ allowedCountries: null }),
      });
      expect(widen.statusCode).toBe(200);
      const retry = await send(body, key, 'k-country');
      expect(retry.statusCode).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
    });
  });
});
