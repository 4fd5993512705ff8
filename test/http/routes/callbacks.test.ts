import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twilioSignature } from '../../../src/delivery/providers/twilio/twilio.callback.js';
import { vonageSignature } from '../../../src/delivery/providers/vonage/vonage.callback.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/domain/accounts.js';
import { type FakeProviders, startFakeProviders } from '../../delivery/support/providers.js';
import { metaSignature, telnyxKeys, vonageKeys } from '../../delivery/support/signing.js';
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
      TELNYX_VOICE_CONNECTION_ID: '1684641123236054244',
      TELNYX_VOICE_FROM: '+15550001112',
      VOICE_ROUTES: 'US=twilio-voice;GB=vonage-voice;*=telnyx-voice',
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

    it('records failed for an undelivered message', async () => {
      const sms = await sendVia({ channel: 'SMS', phone: '+14155550101' });
      const body = form({
        MessageSid: sms.providerMessageId,
        MessageStatus: 'undelivered',
        ErrorCode: '30003',
      });
      expect((await inject('POST', '/v1/callbacks/twilio', body, signed(body))).statusCode).toBe(200);
      expect(await status(sms.requestId)).toBe('failed');
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

  describe('Twilio Voice', () => {
    const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
    const url = '/v1/callbacks/twilio-voice';
    const signed = (body: string) => ({
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature('twilio-token', `${PUBLIC}${url}`, [
        ...new URLSearchParams(body),
      ]),
    });
    const report = (callSid: string, callStatus: string) => {
      const body = form({ CallSid: callSid, CallStatus: callStatus, AccountSid: 'AC1' });
      return inject('POST', url, body, signed(body));
    };

    it('follows a call from calling to answered to completed; a late report never moves it back', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'VOICE', phone: '+14155550105' });
      expect(new URLSearchParams(fakes.twilio.sends().at(-1)!.body).get('StatusCallback')).toBe(
        `${PUBLIC}${url}`,
      );
      expect(await status(requestId)).toBe('calling');
      expect((await report(providerMessageId, 'ringing')).statusCode).toBe(200);
      expect(await status(requestId)).toBe('calling');
      expect((await report(providerMessageId, 'in-progress')).statusCode).toBe(200);
      expect(await status(requestId)).toBe('answered');
      expect((await report(providerMessageId, 'completed')).statusCode).toBe(200);
      expect(await status(requestId)).toBe('completed');
      expect((await report(providerMessageId, 'in-progress')).statusCode).toBe(200);
      expect(await status(requestId)).toBe('completed');
    });

    it('records a call nobody answered, or busy, as failed with the reason', async () => {
      for (const ended of ['no-answer', 'busy']) {
        const { requestId, providerMessageId } = await sendVia({ channel: 'VOICE', phone: '+14155550106' });
        expect((await report(providerMessageId, ended)).statusCode).toBe(200);
        expect(await status(requestId)).toBe('failed');
      }
    });

    it('refuses a call status signed for another URL (the SMS route) or not signed', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'VOICE', phone: '+14155550107' });
      const body = form({ CallSid: providerMessageId, CallStatus: 'completed' });
      const forOther = {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature('twilio-token', `${PUBLIC}/v1/callbacks/twilio`, [
          ...new URLSearchParams(body),
        ]),
      };
      expect((await inject('POST', url, body, forOther)).statusCode).toBe(401);
      expect(
        (await inject('POST', url, body, { 'content-type': 'application/x-www-form-urlencoded' })).statusCode,
      ).toBe(401);
      expect(await status(requestId)).toBe('calling');
    });
  });

  describe('Vonage Voice', () => {
    const url = '/v1/callbacks/vonage-voice';
    const event = (uuid: string, callStatus: string) =>
      JSON.stringify({
        uuid,
        conversation_uuid: 'CON-1',
        status: callStatus,
        direction: 'outbound',
        timestamp: new Date().toISOString(),
      });
    const post = (body: string, secret = 'vonage-sig-secret') =>
      inject('POST', url, body, {
        'content-type': 'application/json',
        authorization: vonageKeys.webhookAuthorization(secret, body, Math.floor(Date.now() / 1000)),
      });

    it('asks for the events on the public URL, and records them from a signed webhook', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'VOICE', phone: '+447400123470' });
      expect(JSON.parse(fakes.vonageVoice.sends().at(-1)!.body).event_url).toEqual([`${PUBLIC}${url}`]);
      expect((await post(event(providerMessageId, 'ringing'))).statusCode).toBe(200);
      expect((await post(event(providerMessageId, 'answered'))).statusCode).toBe(200);
      expect(await status(requestId)).toBe('answered');
      expect((await post(event(providerMessageId, 'completed'))).statusCode).toBe(200);
      expect(await status(requestId)).toBe('completed');

      const unanswered = await sendVia({ channel: 'VOICE', phone: '+447400123471' });
      expect((await post(event(unanswered.providerMessageId, 'unanswered'))).statusCode).toBe(200);
      expect(await status(unanswered.requestId)).toBe('failed');
    });

    it('refuses an event signed with another secret, or altered after signing', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'VOICE', phone: '+447400123472' });
      expect((await post(event(providerMessageId, 'completed'), 'not-the-secret')).statusCode).toBe(401);
      const body = event(providerMessageId, 'answered');
      const altered = await inject('POST', url, body.replace('answered', 'completed'), {
        'content-type': 'application/json',
        authorization: vonageKeys.webhookAuthorization(
          'vonage-sig-secret',
          body,
          Math.floor(Date.now() / 1000),
        ),
      });
      expect(altered.statusCode).toBe(401);
      expect(await status(requestId)).toBe('calling');
    });
  });

  describe('Telnyx Call Control', () => {
    const url = '/v1/callbacks/telnyx-voice';
    const event = (type: string, callControlId: string, payload: Record<string, unknown> = {}) =>
      JSON.stringify({
        data: {
          record_type: 'event',
          event_type: type,
          id: `ev-${Math.random()}`,
          occurred_at: new Date().toISOString(),
          payload: { call_control_id: callControlId, connection_id: '1684641123236054244', ...payload },
        },
        meta: { attempt: 1, delivered_to: `${PUBLIC}${url}` },
      });
    const post = (body: string) =>
      inject('POST', url, body, {
        'content-type': 'application/json',
        ...telnyx.headers(body, Math.floor(Date.now() / 1000)),
      });
    const commands = (callControlId: string) =>
      fakes.telnyx
        .sends()
        .filter((r) => r.path.startsWith(`/v2/calls/${encodeURIComponent(callControlId)}/actions/`));

    it('speaks the code once the call is answered, hangs up once it is spoken, and records the call completed', async () => {
      const { requestId, providerMessageId } = await sendVia({
        channel: 'VOICE',
        phone: '+33612345679',
        locale: 'fr',
      });
      const dial = JSON.parse(
        fakes.telnyx.sends().find((r) => r.path === '/v2/calls' && r.body.includes('+33612345679'))!.body,
      );
      expect(dial).toMatchObject({
        connection_id: '1684641123236054244',
        from: '+15550001112',
        webhook_url: `${PUBLIC}${url}`,
      });
      expect(await status(requestId)).toBe('calling');

      const clientState = dial.client_state;
      expect(
        (await post(event('call.initiated', providerMessageId, { client_state: clientState }))).statusCode,
      ).toBe(200);
      expect(commands(providerMessageId)).toHaveLength(0);

      expect(
        (await post(event('call.answered', providerMessageId, { client_state: clientState }))).statusCode,
      ).toBe(200);
      expect(await status(requestId)).toBe('answered');
      const [speak] = commands(providerMessageId);
      expect(speak?.path).toBe(`/v2/calls/${encodeURIComponent(providerMessageId)}/actions/speak`);
      expect(speak?.headers.authorization).toBe('Bearer KEYtelnyx');
      const spoken = JSON.parse(speak!.body);
      // The French voice of Telnyx's table (an Azure neural voice carries its language).
      expect(spoken).toMatchObject({ voice: expect.stringMatching(/^Azure\.fr-FR-/), payload_type: 'text' });
      const digits = /((?:\d, ){5}\d)/.exec(spoken.payload)?.[1] ?? '';
      const verified = await svc.post(
        '/v1/contact/verify-code',
        { requestId, code: digits.replaceAll(', ', '') },
        key,
      );
      expect(verified.body.data.verified).toBe(true);

      expect(
        (
          await post(
            event('call.speak.ended', providerMessageId, { client_state: clientState, status: 'completed' }),
          )
        ).statusCode,
      ).toBe(200);
      expect(commands(providerMessageId).map((r) => r.path.split('/').at(-1))).toEqual(['speak', 'hangup']);
      expect(
        (
          await post(
            event('call.hangup', providerMessageId, {
              hangup_cause: 'normal_clearing',
              hangup_source: 'caller',
            }),
          )
        ).statusCode,
      ).toBe(200);
      expect(await status(requestId)).toBe('completed');
    });

    it('records a call that was not answered as failed with its cause', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'VOICE', phone: '+33612345680' });
      expect(
        (await post(event('call.hangup', providerMessageId, { hangup_cause: 'timeout' }))).statusCode,
      ).toBe(200);
      expect(await status(requestId)).toBe('failed');
    });

    it('hangs up a call whose client_state is not one it sealed, rather than leave it silent', async () => {
      const { providerMessageId } = await sendVia({ channel: 'VOICE', phone: '+33612345681' });
      const forged = Buffer.from('{"text":"Your code is 1, 2, 3"}').toString('base64');
      expect(
        (await post(event('call.answered', providerMessageId, { client_state: forged }))).statusCode,
      ).toBe(200);
      expect(commands(providerMessageId).map((r) => r.path.split('/').at(-1))).toEqual(['hangup']);
    });

    it('answers 503 when Telnyx does not take the speak command, so that it delivers the event again', async () => {
      const { providerMessageId } = await sendVia({ channel: 'VOICE', phone: '+33612345682' });
      const dial = JSON.parse(
        fakes.telnyx.sends().find((r) => r.path === '/v2/calls' && r.body.includes('+33612345682'))!.body,
      );
      fakes.telnyx.answer(() => ({ status: 500, json: {} }));
      try {
        const answered = event('call.answered', providerMessageId, { client_state: dial.client_state });
        const res = await post(answered);
        expect(res.statusCode).toBe(503);
        expect(res.json().error.code).toBe('UNAVAILABLE');
        fakes.reset();
        expect((await post(answered)).statusCode).toBe(200);
        const speaks = commands(providerMessageId).filter((r) => r.path.endsWith('/speak'));
        // One command id for both tries: Telnyx runs it once.
        expect(new Set(speaks.map((r) => JSON.parse(r.body).command_id)).size).toBe(1);
      } finally {
        fakes.reset();
      }
    });

    it('refuses an unsigned or tampered event', async () => {
      const { requestId, providerMessageId } = await sendVia({ channel: 'VOICE', phone: '+33612345683' });
      const body = event('call.hangup', providerMessageId, { hangup_cause: 'normal_clearing' });
      const now = Math.floor(Date.now() / 1000);
      expect((await inject('POST', url, body, { 'content-type': 'application/json' })).statusCode).toBe(401);
      const tampered = await inject('POST', url, body.replace('normal_clearing', 'user_busy'), {
        'content-type': 'application/json',
        ...telnyx.headers(body, now),
      });
      expect(tampered.statusCode).toBe(401);
      expect(await status(requestId)).toBe('calling');
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
    for (const p of [
      'twilio',
      'vonage',
      'telnyx',
      'whatsapp',
      'twilio-voice',
      'vonage-voice',
      'telnyx-voice',
    ])
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
