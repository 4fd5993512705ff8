import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twilioSignature } from '../../../src/delivery/providers/twilio/twilio.callback.js';
import { vonageSignature } from '../../../src/delivery/providers/vonage/vonage.callback.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/domain/accounts.js';
import { type FakeProviders, startFakeProviders } from '../../delivery/support/providers.js';
import { metaSignature, telnyxKeys } from '../../delivery/support/signing.js';
import { startTestService, type TestService } from '../../support/app.js';

const PUBLIC = 'https://verify.example.com';

describe('delivery status callbacks', () => {
  const telnyx = telnyxKeys();
  let fakes: FakeProviders;
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    fakes = await startFakeProviders();
    svc = await startTestService({
      ...fakes.env,
      PUBLIC_BASE_URL: PUBLIC,
      SMS_ROUTES: 'US=twilio;GB=vonage;*=telnyx',
      VONAGE_SIGNATURE_SECRET: 'vonage-sig-secret',
      VONAGE_SIGNATURE_METHOD: 'sha256',
      TELNYX_PUBLIC_KEY: telnyx.publicKeyBase64,
      WHATSAPP_APP_SECRET: 'meta-app-secret',
      WHATSAPP_VERIFY_TOKEN: 'meta-verify-token',
    });
    key = await svc.createKey();
  });
  afterAll(async () => {
    await svc.close();
    await fakes.close();
  });

  /** Sends a code and returns the request id and the id the provider gave the message. */
  const sendVia = async (body: Record<string, unknown>) => {
    const res = await svc.post('/v1/contact/send-code', body, key);
    expect(res.status).toBe(200);
    const row = await svc.store.verifications.getVerification(DEFAULT_ACCOUNT_ID, res.body.data.requestId);
    return { requestId: res.body.data.requestId as string, providerMessageId: row!.providerMessageId! };
  };
  const status = async (requestId: string) =>
    (await svc.store.verifications.getVerification(DEFAULT_ACCOUNT_ID, requestId))?.deliveryStatus;
  const inject = (
    method: 'GET' | 'POST',
    url: string,
    payload: string,
    headers: Record<string, string> = {},
  ) => svc.app.inject({ method, url, payload: payload || undefined, headers });

  describe('Twilio', () => {
    const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
    const signed = (body: string, url = '/v1/callbacks/twilio') => ({
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature('twilio-token', `${PUBLIC}${url}`, [
        ...new URLSearchParams(body),
      ]),
    });

    it('asks for status callbacks on the public URL', async () => {
      await sendVia({ channel: 'SMS', phone: '+14155552671' });
      expect(new URLSearchParams(fakes.twilio.sends().at(-1)!.body).get('StatusCallback')).toBe(
        `${PUBLIC}/v1/callbacks/twilio`,
      );
    });

    it('records delivered for a signed message status callback', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'SMS', phone: '+14155552671' });
      expect(await status(requestId)).toBe('sent');
      const body = form({ MessageSid: providerMessageId, MessageStatus: 'delivered', AccountSid: 'AC1' });
      const res = await inject('POST', '/v1/callbacks/twilio', body, signed(body));
      expect(res.statusCode).toBe(200);
      expect(await status(requestId)).toBe('delivered');
    });

    it('records a callback that arrives before the service recorded the message id', async () => {
      const v = await sendVia({ channel: 'SMS', phone: '+14155550103' });
      // Another message, whose id the service learns only after the provider called back.
      const early = await sendVia({ channel: 'SMS', phone: '+14155550104' });
      await svc.store.verifications.recordDelivery(early.requestId, {
        at: Date.now(),
        deliveryStatus: 'queued',
        provider: null,
        providerMessageId: null,
      });
      const body = form({ MessageSid: 'SM-early', MessageStatus: 'delivered' });
      const answered = inject('POST', '/v1/callbacks/twilio', body, signed(body));
      await new Promise((r) => setTimeout(r, 50));
      await svc.store.verifications.recordDelivery(early.requestId, {
        at: Date.now(),
        deliveryStatus: 'sent',
        provider: 'twilio',
        providerMessageId: 'SM-early',
      });
      expect((await answered).statusCode).toBe(200);
      expect(await status(early.requestId)).toBe('delivered');
      expect(await status(v.requestId)).toBe('sent');
    });

    it('records failed for an undelivered message and a call nobody answered', async () => {
      const sms = await sendVia({ channel: 'SMS', phone: '+14155550101' });
      const body = form({
        MessageSid: sms.providerMessageId,
        MessageStatus: 'undelivered',
        ErrorCode: '30003',
      });
      expect((await inject('POST', '/v1/callbacks/twilio', body, signed(body))).statusCode).toBe(200);
      expect(await status(sms.requestId)).toBe('failed');

      const call = await sendVia({ channel: 'WHATSAPP', phone: '+14155550102', deliveryType: 'CALL' });
      const callBody = form({ CallSid: call.providerMessageId, CallStatus: 'no-answer' });
      expect((await inject('POST', '/v1/callbacks/twilio', callBody, signed(callBody))).statusCode).toBe(200);
      expect(await status(call.requestId)).toBe('failed');
    });

    it('refuses unsigned and wrongly signed callbacks with 401 in the error shape', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'SMS', phone: '+14155550103' });
      const body = form({ MessageSid: providerMessageId, MessageStatus: 'failed' });
      const unsigned = await inject('POST', '/v1/callbacks/twilio', body, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(unsigned.statusCode).toBe(401);
      expect(unsigned.json()).toEqual({
        error: { code: 'UNAUTHORIZED', message: expect.stringContaining('X-Twilio-Signature') },
      });
      const forged = await inject('POST', '/v1/callbacks/twilio', body, {
        ...signed(form({ MessageSid: providerMessageId, MessageStatus: 'delivered' })),
      });
      expect(forged.statusCode).toBe(401);
      expect(await status(requestId)).toBe('sent');
    });
  });

  describe('Vonage', () => {
    const signedQuery = (params: Record<string, string>) => {
      const all = { ...params, timestamp: String(Math.floor(Date.now() / 1000)), nonce: 'a1b2' };
      return new URLSearchParams({
        ...all,
        sig: vonageSignature(all, 'vonage-sig-secret', 'sha256'),
      }).toString();
    };

    it('records a signed delivery receipt sent as GET', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'SMS', phone: '+447400123456' });
      expect(new URLSearchParams(fakes.vonage.sends().at(-1)!.body).get('callback')).toBe(
        `${PUBLIC}/v1/callbacks/vonage`,
      );
      const query = signedQuery({
        messageId: providerMessageId,
        status: 'delivered',
        'api-key': 'vonage-key',
      });
      const res = await inject('GET', `/v1/callbacks/vonage?${query}`, '');
      expect(res.statusCode).toBe(200);
      expect(await status(requestId)).toBe('delivered');
    });

    it('records a signed receipt sent as a JSON POST, and refuses a bad sig', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'SMS', phone: '+447400123457' });
      const params = Object.fromEntries(
        new URLSearchParams(signedQuery({ messageId: providerMessageId, status: 'failed', 'err-code': '1' })),
      );
      const bad = await inject(
        'POST',
        '/v1/callbacks/vonage',
        JSON.stringify({ ...params, status: 'delivered' }),
        {
          'content-type': 'application/json',
        },
      );
      expect(bad.statusCode).toBe(401);
      const res = await inject('POST', '/v1/callbacks/vonage', JSON.stringify(params), {
        'content-type': 'application/json',
      });
      expect(res.statusCode).toBe(200);
      expect(await status(requestId)).toBe('failed');
    });
  });

  describe('Telnyx', () => {
    it('records a message.finalized event signed with Ed25519', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'SMS', phone: '+33612345678' });
      expect(JSON.parse(fakes.telnyx.sends().at(-1)!.body).webhook_url).toBe(`${PUBLIC}/v1/callbacks/telnyx`);
      const body = JSON.stringify({
        data: {
          event_type: 'message.finalized',
          payload: { id: providerMessageId, to: [{ phone_number: '+33612345678', status: 'delivered' }] },
        },
      });
      const now = Math.floor(Date.now() / 1000);
      const tampered = await inject(
        'POST',
        '/v1/callbacks/telnyx',
        body.replace('delivered', 'delivery_failed'),
        {
          'content-type': 'application/json',
          ...telnyx.headers(body, now),
        },
      );
      expect(tampered.statusCode).toBe(401);
      const res = await inject('POST', '/v1/callbacks/telnyx', body, {
        'content-type': 'application/json',
        ...telnyx.headers(body, now),
      });
      expect(res.statusCode).toBe(200);
      expect(await status(requestId)).toBe('delivered');
    });
  });

  describe('WhatsApp', () => {
    it('answers the subscription handshake only with the verify token', async () => {
      const ok = await inject(
        'GET',
        '/v1/callbacks/whatsapp?hub.mode=subscribe&hub.verify_token=meta-verify-token&hub.challenge=1158201444',
        '',
      );
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toMatch(/^text\/plain/);
      expect(ok.body).toBe('1158201444');
      const wrong = await inject(
        'GET',
        '/v1/callbacks/whatsapp?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1158201444',
        '',
      );
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error.code).toBe('UNAUTHORIZED');
    });

    it('records statuses of a webhook signed with X-Hub-Signature-256', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'WHATSAPP', phone: '+14155550111' });
      const body = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '1',
            changes: [
              { field: 'messages', value: { statuses: [{ id: providerMessageId, status: 'read' }] } },
            ],
          },
        ],
      });
      const unsigned = await inject('POST', '/v1/callbacks/whatsapp', body, {
        'content-type': 'application/json',
      });
      expect(unsigned.statusCode).toBe(401);
      const res = await inject('POST', '/v1/callbacks/whatsapp', body, {
        'content-type': 'application/json',
        'x-hub-signature-256': metaSignature('meta-app-secret', body),
      });
      expect(res.statusCode).toBe(200);
      expect(await status(requestId)).toBe('delivered');
    });

    it('answers 400 INVALID_JSON for a signed body that is not JSON', async () => {
      const res = await inject('POST', '/v1/callbacks/whatsapp', '{nope', {
        'content-type': 'application/json',
        'x-hub-signature-256': metaSignature('meta-app-secret', '{nope'),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('INVALID_JSON');
    });
  });

  it('documents the callback URLs in the OpenAPI document', async () => {
    const doc = await svc.get('/openapi.json');
    expect(doc.status).toBe(200);
    for (const p of ['twilio', 'vonage', 'telnyx', 'whatsapp'])
      expect(doc.body.paths).toHaveProperty(`/v1/callbacks/${p}`);
  });

  it('keeps the form parser to the callbacks: the public API still answers 415 to a form', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: '/v1/contact/send-code',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'channel=SMS&phone=%2B14155552671',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('callbacks of unconfigured or unsigned providers', () => {
  let svc: TestService;
  let fakes: FakeProviders;
  beforeAll(async () => {
    fakes = await startFakeProviders();
    const { TELNYX_API_KEY, TELNYX_FROM, TELNYX_BASE_URL, WHATSAPP_TOKEN, ...env } = fakes.env;
    const { WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_TEMPLATE, WHATSAPP_BASE_URL, ...rest } = env;
    svc = await startTestService({ ...rest, SMS_ROUTES: '*=vonage' });
  });
  afterAll(async () => {
    await svc.close();
    await fakes.close();
  });

  it('answers 404 NOT_FOUND for a provider that is not configured', async () => {
    for (const url of ['/v1/callbacks/telnyx', '/v1/callbacks/whatsapp']) {
      const res = await svc.app.inject({
        method: 'POST',
        url,
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });

  it('without PUBLIC_BASE_URL checks Twilio signatures against the URL as this server saw it', async () => {
    const body = new URLSearchParams({ MessageSid: 'SMunknown', MessageStatus: 'delivered' }).toString();
    const post = (url: string) =>
      svc.app.inject({
        method: 'POST',
        url: '/v1/callbacks/twilio',
        headers: {
          host: 'verify.internal:8080',
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature('twilio-token', url, [...new URLSearchParams(body)]),
        },
        payload: body,
      });
    expect((await post('http://verify.internal:8080/v1/callbacks/twilio')).statusCode).toBe(200);
    expect((await post('https://verify.internal:8080/v1/callbacks/twilio')).statusCode).toBe(401);
  });

  it('without VONAGE_SIGNATURE_SECRET accepts receipts that carry the account api-key, and no others', async () => {
    const key = await svc.createKey();
    const sent = await svc.post('/v1/contact/send-code', { channel: 'SMS', phone: '+14155552671' }, key);
    const row = await svc.store.verifications.getVerification(DEFAULT_ACCOUNT_ID, sent.body.data.requestId);
    const q = (apiKey: string) =>
      new URLSearchParams({ messageId: row!.providerMessageId!, status: 'delivered', 'api-key': apiKey });
    expect(
      (await svc.app.inject({ method: 'GET', url: `/v1/callbacks/vonage?${q('someone-else')}` })).statusCode,
    ).toBe(401);
    expect(
      (await svc.app.inject({ method: 'GET', url: `/v1/callbacks/vonage?${q('vonage-key')}` })).statusCode,
    ).toBe(200);
    expect(
      (await svc.store.verifications.getVerification(DEFAULT_ACCOUNT_ID, sent.body.data.requestId))
        ?.deliveryStatus,
    ).toBe('delivered');
  });
});
