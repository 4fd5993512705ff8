import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';

const SEND = '/v1/contact/send-code';
const VERIFY = '/v1/contact/verify-code';
/** requestIds are UUIDv7: time-ordered, with 74 random bits. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('send-code', () => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await startTestService({ RESEND_COOLDOWN_SECONDS: '0', SENDS_PER_DESTINATION_PER_HOUR: '1000' });
    key = await svc.createKey();
  });
  afterAll(() => svc.close());

  it('answers a single send with one object in data', async () => {
    const res = await svc.post(
      SEND,
      { channel: 'EMAIL', email: 'Single@Example.com', purpose: 'login' },
      key,
    );
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.body.data;
    expect(data.requestId).toMatch(UUID);
    expect(data).toMatchObject({ channel: 'EMAIL', status: 'pending', to: 's*****@example.com' });
    expect(data.deliveryType).toBeUndefined();
    const ttl = Date.parse(data.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  it('answers a dual send with an array in the order of channels', async () => {
    const res = await svc.post(
      SEND,
      { channels: ['WHATSAPP', 'EMAIL'], email: 'dual@example.com', whatsappNumber: '+14155550101' },
      key,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { channel: string }) => e.channel)).toEqual(['WHATSAPP', 'EMAIL']);
    const [wa, email] = res.body.data;
    expect(wa).toMatchObject({ status: 'pending', deliveryType: 'TEXT', to: '+1******0101' });
    expect(email).toMatchObject({ status: 'pending', to: 'd***@example.com' });
    expect(wa.requestId).not.toBe(email.requestId);
    // Both codes were delivered, and they differ in their request binding.
    expect((await svc.lastMessage('+14155550101')).requestId).toBe(wa.requestId);
    expect((await svc.lastMessage('dual@example.com')).requestId).toBe(email.requestId);
  });

  it('delivers the email with the code, the purpose and the custom message escaped', async () => {
    await svc.post(
      SEND,
      {
        channel: 'EMAIL',
        email: 'body@example.com',
        purpose: 'password reset',
        customMessage: '<script>alert(1)</script> & bye',
      },
      key,
    );
    const message = await svc.lastMessage('body@example.com');
    const code = await svc.lastCode('body@example.com');
    expect(code).toMatch(/^\d{6}$/);
    expect(message.subject).toContain(code);
    expect(message.text).toContain(code);
    expect(message.text).toContain('password reset');
    expect(message.html).toContain(code);
    expect(message.html).toContain('password reset');
    expect(message.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; bye');
    expect(message.html).not.toContain('<script>');
  });

  it('infers the country from the number and routes SMS text with the code', async () => {
    const res = await svc.post(SEND, { channel: 'SMS', phoneNumber: '+33612345678' }, key);
    expect(res.status).toBe(200);
    const message = await svc.lastMessage('+33612345678');
    expect(message.channel).toBe('SMS');
    // Written in the language of the number's country (no locale given): French.
    expect(message.text).toMatch(/^\d{6} est votre code de vérification /);
  });

  it('supersedes the earlier pending code for the same destination and channel', async () => {
    const first = await svc.post(SEND, { channel: 'EMAIL', email: 'again@example.com' }, key);
    const firstCode = await svc.lastCode('again@example.com');
    const second = await svc.post(SEND, { channel: 'EMAIL', email: 'again@example.com' }, key);
    const secondCode = await svc.lastCode('again@example.com');

    const old = await svc.post(VERIFY, { requestId: first.body.data.requestId, otpCode: firstCode }, key);
    expect(old.body.data).toMatchObject({ verified: false, status: 'canceled' });
    const fresh = await svc.post(VERIFY, { requestId: second.body.data.requestId, otpCode: secondCode }, key);
    expect(fresh.body.data).toMatchObject({ verified: true, status: 'verified' });
  });

  it('does not supersede other channels or other accounts', async () => {
    const sms = await svc.post(SEND, { channel: 'SMS', phone: '+14155550102' }, key);
    const smsCode = await svc.lastCode('+14155550102');
    await svc.post(SEND, { channel: 'WHATSAPP', phone: '+14155550102' }, key);
    const res = await svc.post(VERIFY, { requestId: sms.body.data.requestId, code: smsCode }, key);
    expect(res.body.data.verified).toBe(true);
  });

  it('refuses a channel the key is not enabled for with 403 CHANNEL_NOT_ENABLED', async () => {
    const emailOnly = await svc.createKey({ channels: ['EMAIL'] });
    const res = await svc.post(SEND, { channel: 'SMS', phone: '+14155550103' }, emailOnly);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CHANNEL_NOT_ENABLED');
    const dual = await svc.post(
      SEND,
      { channels: ['EMAIL', 'WHATSAPP'], email: 'x@example.com', phone: '+14155550103' },
      emailOnly,
    );
    expect(dual.status).toBe(403);
    expect(dual.body.error.details).toEqual([expect.objectContaining({ channel: 'WHATSAPP' })]);
    // Nothing was sent for the permitted channel either.
    const outbox = await svc.get('/v1/admin/outbox?to=x@example.com', ADMIN_TOKEN);
    expect(outbox.body.data).toEqual([]);
  });

  it("CHANNEL_NOT_ENABLED's message tells how to enable the channel, and following it works", async () => {
    const emailOnly = await svc.createKey({ channels: ['EMAIL'], name: 'widen-me' });
    const body = { channel: 'SMS', phone: '+14155550104' };
    const refused = await svc.post(SEND, body, emailOnly);
    expect(refused.status).toBe(403);
    // A key's channels can change (PATCH /v1/admin/api-keys/{id}): the message says so.
    expect(refused.body.error.message).not.toMatch(/fixed|at creation/);
    expect(refused.body.error.message).toContain('PATCH /v1/admin/api-keys/{id}');
    const keys = await svc.get('/v1/admin/api-keys', ADMIN_TOKEN);
    const id = keys.body.data.find((k: { prefix: string }) => emailOnly.startsWith(k.prefix)).id;
    const widened = await svc.app.inject({
      method: 'PATCH',
      url: `/v1/admin/api-keys/${id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: { channels: ['EMAIL', 'SMS'] },
    });
    expect(widened.statusCode, widened.body).toBe(200);
    expect((await svc.post(SEND, body, emailOnly)).status).toBe(200);
  });

  it('answers 401 with WWW-Authenticate for a missing, malformed, unknown or revoked key', async () => {
    const body = { channel: 'EMAIL', email: 'auth@example.com' };
    const revoked = await svc.createKey();
    const keys = await svc.get('/v1/admin/api-keys', ADMIN_TOKEN);
    const revokedId = keys.body.data.find((k: { prefix: string }) => revoked.startsWith(k.prefix)).id;
    expect(
      (
        await svc.app.inject({
          method: 'DELETE',
          url: `/v1/admin/api-keys/${revokedId}`,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        })
      ).statusCode,
    ).toBe(200);

    for (const token of [undefined, 'garbage', `cvk_live_${'A'.repeat(43)}`, revoked, ADMIN_TOKEN]) {
      const res = await svc.post(SEND, body, token);
      expect(res.status, String(token)).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
      expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer/);
    }
    const basic = await svc.app.inject({
      method: 'POST',
      url: SEND,
      headers: {
        authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify(body),
    });
    expect(basic.statusCode).toBe(401);
  });

  it('checks the key first, then the body, then the channel scope, then limits', async () => {
    const emailOnly = await svc.createKey({ channels: ['EMAIL'] });
    // Bad key and bad body: 401.
    expect((await svc.post(SEND, { channel: 'FAX' }, 'garbage')).status).toBe(401);
    const notJson = await svc.app.inject({
      method: 'POST',
      url: SEND,
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(notJson.statusCode).toBe(401);
    // Bad body and a channel the key lacks: 400.
    expect((await svc.post(SEND, { channel: 'SMS', phone: 'nope' }, emailOnly)).status).toBe(400);
  });

  it('gives every request its own UUID', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await svc.post(SEND, { channel: 'EMAIL', email: `many${i}@example.com` }, key);
      ids.add(res.body.data.requestId);
    }
    expect(ids.size).toBe(20);
  });
});
