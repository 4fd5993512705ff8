import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';

const SEND = '/v1/contact/send-code';
const VERIFY = '/v1/contact/verify-code';

describe('rate limits', () => {
  let svc: TestService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  async function start(env: Record<string, string>) {
    svc = await startTestService(env);
    return { svc, key: await svc.createKey() };
  }

  it('holds a resend cooldown per destination and channel, with Retry-After', async () => {
    const { svc, key } = await start({});
    expect((await svc.post(SEND, { channel: 'SMS', phone: '+14155550111' }, key)).status).toBe(200);
    const again = await svc.post(SEND, { channel: 'SMS', phone: '+14155550111' }, key);
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('RATE_LIMITED');
    expect(again.body.error.details).toEqual([expect.objectContaining({ channel: 'SMS', field: 'phone' })]);
    const retryAfter = Number(again.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(29);
    expect(retryAfter).toBeLessThanOrEqual(30);
    // Another channel and another destination are not affected.
    expect((await svc.post(SEND, { channel: 'WHATSAPP', phone: '+14155550111' }, key)).status).toBe(200);
    expect((await svc.post(SEND, { channel: 'SMS', phone: '+14155550112' }, key)).status).toBe(200);
  });

  it('caps sends per destination per hour', async () => {
    const { svc, key } = await start({ RESEND_COOLDOWN_SECONDS: '0', SENDS_PER_DESTINATION_PER_HOUR: '3' });
    for (let i = 0; i < 3; i++)
      expect((await svc.post(SEND, { channel: 'EMAIL', email: 'cap@example.com' }, key)).status).toBe(200);
    const fourth = await svc.post(SEND, { channel: 'EMAIL', email: 'CAP@example.com' }, key);
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(3000);
  });

  it('refuses a dual send whole when either channel is limited, and sends nothing', async () => {
    const { svc, key } = await start({});
    expect((await svc.post(SEND, { channel: 'SMS', phone: '+14155550113' }, key)).status).toBe(200);
    const dual = await svc.post(
      SEND,
      { channels: ['EMAIL', 'SMS'], email: 'whole@example.com', phone: '+14155550113' },
      key,
    );
    expect(dual.status).toBe(429);
    expect(dual.body.error.details.map((d: { channel: string }) => d.channel)).toEqual(['SMS']);
    const outbox = await svc.get('/v1/admin/outbox?to=whole@example.com', ADMIN_TOKEN);
    expect(outbox.body.data).toEqual([]);
    // The email side was not charged: a single email send goes through at once.
    expect((await svc.post(SEND, { channel: 'EMAIL', email: 'whole@example.com' }, key)).status).toBe(200);
  });

  it('limits send-code and verify-code requests per key per second', async () => {
    const { svc, key } = await start({
      KEY_SEND_PER_SECOND: '3',
      KEY_VERIFY_PER_SECOND: '2',
      RESEND_COOLDOWN_SECONDS: '0',
    });
    const sends = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        svc.post(SEND, { channel: 'EMAIL', email: `k${i}@example.com` }, key),
      ),
    );
    expect(sends.filter((r) => r.status === 200).length).toBe(3);
    const limited = sends.find((r) => r.status === 429);
    expect(limited?.body.error.code).toBe('RATE_LIMITED');
    expect(limited?.headers['retry-after']).toBe('1');
    const other = await svc.createKey();
    expect((await svc.post(SEND, { channel: 'EMAIL', email: 'k9@example.com' }, other)).status).toBe(200);

    const requestId = sends.find((r) => r.status === 200)?.body.data.requestId;
    const verifies = await Promise.all(
      Array.from({ length: 4 }, () => svc.post(VERIFY, { requestId, otpCode: '000000' }, key)),
    );
    expect(verifies.filter((r) => r.status === 429 && r.body.error.code === 'RATE_LIMITED').length).toBe(2);
  });

  it('pauses sends to a destination after its daily budget of wrong codes, across requests', async () => {
    const { svc, key } = await start({
      RESEND_COOLDOWN_SECONDS: '0',
      FAILURES_PER_DESTINATION_PER_DAY: '4',
      MAX_ATTEMPTS: '3',
    });
    const guessAll = async () => {
      const res = await svc.post(SEND, { channel: 'EMAIL', email: 'budget@example.com' }, key);
      expect(res.status).toBe(200);
      const code = await svc.lastCode('budget@example.com');
      const bad = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 3; i++)
        await svc.post(VERIFY, { requestId: res.body.data.requestId, otpCode: bad }, key);
    };
    await guessAll(); // 3 failures
    await guessAll(); // a resend does not reset the budget: 6 failures
    const refused = await svc.post(SEND, { channel: 'EMAIL', email: 'budget@example.com' }, key);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(80_000);
  });

  it('applies the country allow-list and the hourly volume per country to SMS and WhatsApp', async () => {
    const { svc, key } = await start({
      ALLOWED_COUNTRIES: 'US,GB',
      COUNTRY_SENDS_PER_HOUR: '2',
      RESEND_COOLDOWN_SECONDS: '0',
    });
    const fr = await svc.post(SEND, { channel: 'SMS', phone: '+33612345678' }, key);
    expect(fr.status).toBe(400);
    expect(fr.body.error.code).toBe('INVALID_DESTINATION');
    expect((await svc.post(SEND, { channel: 'EMAIL', email: 'any@example.fr' }, key)).status).toBe(200);
    expect((await svc.post(SEND, { channel: 'SMS', phone: '+14155550121' }, key)).status).toBe(200);
    expect((await svc.post(SEND, { channel: 'WHATSAPP', phone: '+14155550122' }, key)).status).toBe(200);
    const third = await svc.post(SEND, { channel: 'SMS', phone: '+14155550123' }, key);
    expect(third.status).toBe(429);
    expect(third.body.error.details[0].field).toBe('country');
    expect((await svc.post(SEND, { channel: 'SMS', phone: '+447400123456' }, key)).status).toBe(200);
  });

  it('lets an account narrow the allowed countries', async () => {
    const { svc, key } = await start({});
    const patched = await svc.app.inject({
      method: 'PATCH',
      url: '/v1/admin/accounts/acc_default/settings',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ allowedCountries: ['GB'] }),
    });
    expect(patched.statusCode).toBe(200);
    expect((await svc.post(SEND, { channel: 'SMS', phone: '+14155550131' }, key)).status).toBe(400);
    expect((await svc.post(SEND, { channel: 'SMS', phone: '+447400123456' }, key)).status).toBe(200);
  });
});
