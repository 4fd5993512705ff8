import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwilioSmsProvider } from '../../../../src/delivery/providers/twilio/twilio.provider.js';
import type { TwilioOptions } from '../../../../src/delivery/providers/twilio/twilio.settings.js';
import { type FakeApi, refusedUrl, startFakeApi } from '../../support/fake-api.js';
import { deliveryRequest } from '../../support/request.js';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-test-token';

describe('Twilio (the Messages resource of the 2010-04-01 REST API)', () => {
  let api: FakeApi;
  let options: TwilioOptions;
  beforeAll(async () => {
    api = await startFakeApi(() => ({ status: 201, json: { sid: 'SM123', status: 'queued' } }));
    options = {
      accountSid: SID,
      authToken: TOKEN,
      from: '+15005550006',
      baseUrl: api.url,
      timeoutMs: 1000,
      statusCallbackUrl: 'https://verify.example.com/v1/callbacks/twilio',
    };
  });
  afterAll(() => api.close());

  it('POSTs a form with To, From, Body and StatusCallback, authenticated with Basic SID:token', async () => {
    api.answer(() => ({ status: 201, json: { sid: 'SMabc', status: 'queued' } }));
    const outcome = await new TwilioSmsProvider(options, 'example.com').send(deliveryRequest());
    expect(outcome).toEqual({ ok: true, providerMessageId: 'SMabc' });
    const r = api.sends().at(-1)!;
    expect(r.method).toBe('POST');
    expect(r.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(r.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(r.body);
    expect(form.get('To')).toBe('+14155550123');
    expect(form.get('From')).toBe('+15005550006');
    expect(form.get('Body')).toBe('048213 is your Acme verification code.\n\n@example.com #048213');
    expect(form.get('StatusCallback')).toBe('https://verify.example.com/v1/callbacks/twilio');
  });

  it('sends from a Messaging Service when TWILIO_FROM is an MG SID', async () => {
    const mg = 'MG0123456789abcdef0123456789abcdef';
    await new TwilioSmsProvider({ ...options, from: mg }).send(deliveryRequest());
    const form = new URLSearchParams(api.sends().at(-1)!.body);
    expect(form.get('MessagingServiceSid')).toBe(mg);
    expect(form.has('From')).toBe(false);
  });

  it('classifies error 21211 (invalid To) as a refusal of the destination', async () => {
    api.answer(() => ({
      status: 400,
      json: { code: 21211, message: "The 'To' number is not valid", status: 400 },
    }));
    const outcome = await new TwilioSmsProvider(options).send(deliveryRequest());
    expect(outcome).toMatchObject({ ok: false, retryable: false });
    expect(JSON.stringify(outcome)).not.toContain('048213');
  });

  it('classifies 5xx, 429, bad credentials and timeouts as retryable', async () => {
    const p = new TwilioSmsProvider(options);
    for (const answer of [
      { status: 500, json: {} },
      { status: 429, json: { code: 20429 } },
      { status: 401, json: { code: 20003 } },
      { status: 400, json: { code: 21606 } },
    ]) {
      api.answer(() => answer);
      expect(await p.send(deliveryRequest())).toMatchObject({ ok: false, retryable: true });
    }
    api.answer(() => ({ status: 201, hang: true }));
    const slow = await new TwilioSmsProvider({ ...options, timeoutMs: 100 }).send(deliveryRequest());
    expect(slow).toMatchObject({ ok: false, retryable: true, error: expect.stringContaining('100 ms') });
  });

  it('treats a refused connection as retryable and reports down', async () => {
    const p = new TwilioSmsProvider({ ...options, baseUrl: await refusedUrl() });
    expect(await p.send(deliveryRequest())).toMatchObject({ ok: false, retryable: true });
    expect(await p.check()).toBe('down');
  });

  it('check() reads the Account resource without sending anything', async () => {
    const before = api.sends().length;
    expect(await new TwilioSmsProvider(options).check()).toBe('up');
    const probe = api.received.at(-1)!;
    expect(probe.method).toBe('GET');
    expect(probe.path).toBe(`/2010-04-01/Accounts/${SID}.json`);
    expect(api.sends().length).toBe(before);
  });
});
