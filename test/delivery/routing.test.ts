import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../src/domain/accounts.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { refusedUrl } from './support/fake-api.js';
import { type FakeProviders, startFakeProviders } from './support/providers.js';

const US = '+14155552671';
const GB = '+447400123456';
const FR = '+33612345678';

describe('SMS routing by country, with failover', () => {
  let fakes: FakeProviders;
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    fakes = await startFakeProviders();
    svc = await startTestService({
      ...fakes.env,
      SMS_ROUTES: 'US=twilio,vonage;GB=vonage,twilio;*=telnyx,twilio',
      // Long enough that a loaded CI machine never times out a healthy fake; the hang test waits it out.
      TWILIO_TIMEOUT_MS: '2000',
    });
    key = await svc.createKey();
  });
  afterEach(() => fakes.reset());
  afterAll(async () => {
    await svc.close();
    await fakes.close();
  });

  const send = (phone: string, extra: Record<string, unknown> = {}) =>
    svc.post('/v1/contact/send-code', { channel: 'SMS', phone, ...extra }, key);
  const counts = () => ({
    twilio: fakes.twilio.sends().length,
    vonage: fakes.vonage.sends().length,
    telnyx: fakes.telnyx.sends().length,
  });
  const delta = (before: ReturnType<typeof counts>) => {
    const now = counts();
    return {
      twilio: now.twilio - before.twilio,
      vonage: now.vonage - before.vonage,
      telnyx: now.telnyx - before.telnyx,
    };
  };
  const record = (requestId: string) =>
    svc.store.verifications.getVerification(DEFAULT_ACCOUNT_ID, requestId);

  it('routes each country to the first provider of its route', async () => {
    for (const [phone, expected] of [
      [US, 'twilio'],
      [GB, 'vonage'],
      [FR, 'telnyx'],
    ] as const) {
      const before = counts();
      const res = await send(phone);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ channel: 'SMS', status: 'pending' });
      expect(delta(before)).toEqual({ twilio: 0, vonage: 0, telnyx: 0, [expected]: 1 });
      const row = await record(res.body.data.requestId);
      expect(row).toMatchObject({ deliveryStatus: 'sent', provider: expected });
    }
  });

  it('nothing reaches the outbox when a provider delivered', async () => {
    const res = await send(US);
    expect(res.status).toBe(200);
    const outbox = await svc.get(`/v1/admin/outbox?to=${encodeURIComponent(US)}`, ADMIN_TOKEN);
    expect(outbox.body.data).toEqual([]);
  });

  it('fails over to the next provider when the first answers 500', async () => {
    fakes.twilio.answer(() => ({ status: 500, json: { code: 20500, message: 'Internal Server Error' } }));
    const before = counts();
    const res = await send(US);
    expect(res.status).toBe(200);
    expect(delta(before)).toEqual({ twilio: 1, vonage: 1, telnyx: 0 });
    expect(await record(res.body.data.requestId)).toMatchObject({
      deliveryStatus: 'sent',
      provider: 'vonage',
    });
  });

  it('fails over when the first provider does not answer within its timeout', async () => {
    fakes.twilio.answer(() => ({ status: 201, hang: true }));
    const before = counts();
    const res = await send(US);
    expect(res.status).toBe(200);
    expect(delta(before)).toEqual({ twilio: 1, vonage: 1, telnyx: 0 });
  });

  it('fails over on 429 from the first provider', async () => {
    fakes.vonage.answer(() => ({ status: 429, json: {} }));
    const before = counts();
    const res = await send(GB);
    expect(res.status).toBe(200);
    expect(delta(before)).toEqual({ twilio: 1, vonage: 1, telnyx: 0 });
  });

  it('does not fail over when the provider refuses the destination: 400 INVALID_DESTINATION', async () => {
    fakes.twilio.answer(() => ({
      status: 400,
      json: {
        code: 21211,
        message: "The 'To' number +14155552671 is not a valid phone number.",
        status: 400,
      },
    }));
    const before = counts();
    const res = await send(US);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_DESTINATION');
    expect(delta(before)).toEqual({ twilio: 1, vonage: 0, telnyx: 0 });
  });

  it('answers 502 DELIVERY_FAILED when every provider of the route fails', async () => {
    fakes.telnyx.answer(() => ({ status: 503, json: {} }));
    fakes.twilio.answer(() => ({ status: 500, json: {} }));
    const res = await send(FR);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('DELIVERY_FAILED');
    expect(JSON.stringify(res.body)).not.toMatch(/\b\d{6}\b/);
  });

  it("keeps a provider's verdict (400 INVALID_DESTINATION, 502 DELIVERY_FAILED) for an Idempotency-Key replay", async () => {
    const idempotent = (phone: string, idempotencyKey: string) =>
      svc.app.inject({
        method: 'POST',
        url: '/v1/contact/send-code',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        },
        payload: JSON.stringify({ channel: 'SMS', phone }),
      });
    fakes.twilio.answer(() => ({ status: 400, json: { code: 21211, message: 'not a valid phone number' } }));
    expect((await idempotent('+14155550177', 'k-provider-400')).statusCode).toBe(400);
    fakes.telnyx.answer(() => ({ status: 503, json: {} }));
    fakes.twilio.answer(() => ({ status: 500, json: {} }));
    expect((await idempotent('+33612345677', 'k-provider-502')).statusCode).toBe(502);
    fakes.reset();
    const before = counts();
    for (const [phone, k, status] of [
      ['+14155550177', 'k-provider-400', 400],
      ['+33612345677', 'k-provider-502', 502],
    ] as const) {
      const replay = await idempotent(phone, k);
      expect(replay.statusCode).toBe(status);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    }
    expect(delta(before)).toEqual({ twilio: 0, vonage: 0, telnyx: 0 });
  });

  it('routes a country without an entry of its own (CA, given in any case) by the * entry', async () => {
    const before = counts();
    const res = await send('+16135550123', { country: 'ca' });
    expect(res.status).toBe(200);
    expect(delta(before)).toEqual({ twilio: 0, vonage: 0, telnyx: 1 });
  });
});

describe('SMS failover on a refused connection', () => {
  it('tries the next provider when the first cannot be reached', async () => {
    const fakes = await startFakeProviders();
    const svc = await startTestService({
      ...fakes.env,
      TWILIO_BASE_URL: await refusedUrl(),
      SMS_ROUTES: '*=twilio,vonage',
    });
    try {
      const res = await svc.post(
        '/v1/contact/send-code',
        { channel: 'SMS', phone: US },
        await svc.createKey(),
      );
      expect(res.status).toBe(200);
      expect(fakes.vonage.sends()).toHaveLength(1);
    } finally {
      await svc.close();
      await fakes.close();
    }
  });
});
