import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../../src/domain/accounts.js';
import { type FakeProviders, startFakeProviders, TWILIO_SID } from '../../delivery/support/providers.js';
import { vonageKeys } from '../../delivery/support/signing.js';
import { startTestService, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

const US = '+14155552671';
const GB = '+447400123456';

/** The code a Twilio call speaks, read from its TwiML. */
const spokenByTwilio = (body: string) => {
  const twiml = new URLSearchParams(body).get('Twiml') ?? '';
  const digits = /Your Acme verification code is ((?:\d, ){5}\d)\./.exec(twiml)?.[1];
  if (!digits) throw new Error(`no code in ${twiml}`);
  expect(twiml).toContain(`Again, your code is ${digits}.`);
  return digits.replaceAll(', ', '');
};

// VOICE as an integrator meets it: a phone call that reads the code, routed by country with
// failover like SMS, paired with any channel, counted like SMS; on both stores.
eachStore('the VOICE channel', (start) => {
  let fakes: FakeProviders;
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    fakes = await startFakeProviders();
    svc = await start({
      ...fakes.env,
      BRAND_NAME: 'Acme',
      VOICE_ROUTES: 'GB=vonage-voice,twilio-voice',
      TWILIO_TIMEOUT_MS: '400',
      VONAGE_VOICE_TIMEOUT_MS: '400',
    });
    key = await svc.createKey();
  });
  afterEach(() => fakes.reset());
  afterAll(async () => {
    await svc?.close();
    await fakes?.close();
  });

  const send = (body: Record<string, unknown>) => svc.post('/v1/contact/send-code', body, key);
  const row = (requestId: string) => svc.store.verifications.getVerification(DEFAULT_ACCOUNT_ID, requestId);

  it('calls through Twilio Voice by default, and the code it reads verifies', async () => {
    const res = await send({ channel: 'VOICE', phone: US });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ channel: 'VOICE', status: 'pending', to: '+1******2671' });
    expect(res.body.data.deliveryType).toBeUndefined();
    const call = fakes.twilio.sends().at(-1)!;
    expect(call.path).toBe(`/2010-04-01/Accounts/${TWILIO_SID}/Calls.json`);
    expect(new URLSearchParams(call.body).get('To')).toBe(US);
    const code = spokenByTwilio(call.body);
    expect(await row(res.body.data.requestId)).toMatchObject({
      channel: 'VOICE',
      provider: 'twilio-voice',
      deliveryStatus: 'calling',
      deliveryType: null,
    });
    const verified = await svc.post(
      '/v1/contact/verify-code',
      { requestId: res.body.data.requestId, code },
      key,
    );
    expect(verified.body.data).toMatchObject({ verified: true, channel: 'VOICE' });
  });

  it('routes by VOICE_ROUTES: a GB number through Vonage Voice, signed with the application key', async () => {
    const twilioBefore = fakes.twilio.sends().length;
    const res = await send({ channel: 'VOICE', phone: GB });
    expect(res.status).toBe(200);
    expect(fakes.twilio.sends()).toHaveLength(twilioBefore);
    const call = fakes.vonageVoice.sends().at(-1)!;
    expect(vonageKeys.authorizes(call.headers.authorization)).toBe(true);
    const body = JSON.parse(call.body);
    expect(body.to).toEqual([{ type: 'phone', number: GB.slice(1) }]);
    const digits = /is ((?:\d, ){5}\d)\./.exec(body.ncco[0].text)?.[1] ?? '';
    expect(await row(res.body.data.requestId)).toMatchObject({
      provider: 'vonage-voice',
      deliveryStatus: 'calling',
    });
    const verified = await svc.post(
      '/v1/contact/verify-code',
      { requestId: res.body.data.requestId, code: digits.replaceAll(', ', '') },
      key,
    );
    expect(verified.body.data.verified).toBe(true);
  });

  it('fails over to the next voice provider when one fails', async () => {
    fakes.vonageVoice.answer(() => ({ status: 503, json: { title: 'Service Unavailable' } }));
    const res = await send({ channel: 'VOICE', phone: GB });
    expect(res.status).toBe(200);
    expect(await row(res.body.data.requestId)).toMatchObject({
      provider: 'twilio-voice',
      deliveryStatus: 'calling',
    });
  });

  it('answers 502 DELIVERY_FAILED, never 500, when every voice provider fails: 4xx, 5xx, garbage or silence', async () => {
    const failures = [
      { status: 401, json: { code: 20003 } },
      { status: 500, json: {} },
      { status: 200, text: '<html>Bad gateway</html>' },
      { status: 201, hang: true },
    ];
    for (const failure of failures) {
      fakes.twilio.answer(() => failure);
      fakes.vonageVoice.answer(() => failure);
      const res = await send({ channel: 'VOICE', phone: GB });
      expect(res.status, JSON.stringify(res.body)).toBe(502);
      expect(res.body.error.code).toBe('DELIVERY_FAILED');
      expect(res.body.error.details).toEqual([
        { field: 'phone', channel: 'VOICE', message: expect.stringMatching(/^Every provider failed: /) },
      ]);
    }
  });

  it('pairs with any other channel, to the same number or another destination', async () => {
    for (const body of [
      { channels: ['EMAIL', 'VOICE'], email: 'voice@example.com', phone: US },
      { channels: ['SMS', 'VOICE'], phone: '+14155552672' },
      { channels: ['VOICE', 'WHATSAPP'], phone: '+14155552673' },
    ]) {
      const res = await send(body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.map((e: { channel: string; status: string }) => [e.channel, e.status])).toEqual(
        body.channels.map((c) => [c, 'pending']),
      );
    }
    // Either code of a pair verifies it: the one the call read here.
    const res = await send({ channels: ['SMS', 'VOICE'], phone: '+14155552674' });
    const code = spokenByTwilio(
      fakes.twilio.sends().find((r) => r.path.endsWith('/Calls.json') && r.body.includes('2674'))!.body,
    );
    const verified = await svc.post(
      '/v1/contact/verify-code',
      { requestId: res.body.data[0].requestId, code },
      key,
    );
    expect(verified.body.data).toMatchObject({ verified: true, channel: 'VOICE' });
  });

  it('refuses a VOICE send without a phone: 400 VALIDATION_ERROR naming phone', async () => {
    for (const body of [{ channel: 'VOICE' }, { channel: 'VOICE', email: 'voice@example.com' }]) {
      const res = await send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toEqual([
        { field: 'phone', message: expect.stringContaining('required for SMS, WHATSAPP, VOICE and SILENT') },
      ]);
    }
    const noType = await send({ channel: 'VOICE', phone: US, deliveryType: 'CALL' });
    expect(noType.status).toBe(400);
    expect(noType.body.error.details).toEqual([
      { field: 'deliveryType', message: 'deliveryType CALL needs the WHATSAPP channel' },
    ]);
  });
});

describe('VOICE is counted as SMS is', () => {
  it("shares the country's hourly cap with SMS, and its scope is a key's like any channel", async () => {
    const fakes = await startFakeProviders();
    const svc = await startTestService({ ...fakes.env, COUNTRY_SENDS_PER_HOUR: '1' });
    try {
      const key = await svc.createKey();
      const send = (body: Record<string, unknown>, k = key) => svc.post('/v1/contact/send-code', body, k);
      expect((await send({ channel: 'SMS', phone: US })).status).toBe(200);
      const capped = await send({ channel: 'VOICE', phone: '+14155552679' });
      expect(capped.status).toBe(429);
      expect(capped.body.error.details).toEqual([
        { field: 'country', channel: 'VOICE', message: 'the hourly volume of codes to US is used up' },
      ]);
      const smsOnly = await svc.createKey({ channels: ['SMS'] });
      const refused = await send({ channel: 'VOICE', phone: GB }, smsOnly);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('CHANNEL_NOT_ENABLED');
    } finally {
      await svc.close();
      await fakes.close();
    }
  });
});

describe('VOICE without a voice provider', () => {
  it('goes to the outbox with exactly the words the call would speak', async () => {
    const svc = await startTestService({ RESEND_COOLDOWN_SECONDS: '0' });
    try {
      const key = await svc.createKey();
      const res = await svc.post('/v1/contact/send-code', { channel: 'VOICE', phone: US }, key);
      expect(res.status).toBe(200);
      const message = await svc.lastMessage(US);
      expect(message).toMatchObject({ channel: 'VOICE', requestId: res.body.data.requestId });
      expect(message.text).toMatch(
        /^Voice call: "Your Contact Verify verification code is (\d(?:, \d){5})\. Again, your code is \1\."$/,
      );
      const stored = await svc.store.verifications.getVerification(
        DEFAULT_ACCOUNT_ID,
        res.body.data.requestId,
      );
      expect(stored?.deliveryStatus).toBe('outbox');
      const health = await svc.get('/health');
      expect(health.body.channels.VOICE).toMatchObject({
        liveCodes: 'outbox',
        note: expect.stringContaining('Live VOICE codes go to the outbox'),
      });
    } finally {
      await svc.close();
    }
  });
});
