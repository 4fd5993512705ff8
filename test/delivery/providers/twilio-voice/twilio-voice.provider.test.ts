import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwilioVoiceProvider } from '../../../../src/delivery/providers/twilio-voice/twilio-voice.provider.js';
import {
  type TwilioVoiceOptions,
  twilioVoiceOptions,
} from '../../../../src/delivery/providers/twilio-voice/twilio-voice.settings.js';
import { testConfig } from '../../../support/app.js';
import { type FakeApi, refusedUrl, startFakeApi } from '../../support/fake-api.js';
import { deliveryRequest } from '../../support/request.js';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-test-token';
const call = (overrides: Parameters<typeof deliveryRequest>[0] = {}) =>
  deliveryRequest({ channel: 'VOICE', ...overrides });

describe('Twilio Voice (the Calls resource of the 2010-04-01 REST API)', () => {
  let api: FakeApi;
  let options: TwilioVoiceOptions;
  beforeAll(async () => {
    api = await startFakeApi(() => ({ status: 201, json: { sid: 'CA1', status: 'queued' } }));
    options = {
      accountSid: SID,
      authToken: TOKEN,
      voiceFrom: '+15005550006',
      voiceLanguage: 'en-US',
      baseUrl: api.url,
      timeoutMs: 1000,
      statusCallbackUrl: 'https://verify.example.com/v1/callbacks/twilio-voice',
    };
  });
  afterAll(() => api.close());

  it('places the call with inline TwiML that says the code twice, digit by digit, and asks for its progress', async () => {
    api.answer(() => ({ status: 201, json: { sid: 'CA42', status: 'queued' } }));
    const outcome = await new TwilioVoiceProvider(options).send(call());
    expect(outcome).toEqual({ ok: true, providerMessageId: 'CA42' });
    const r = api.sends().at(-1)!;
    expect(r.path).toBe(`/2010-04-01/Accounts/${SID}/Calls.json`);
    expect(r.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    const form = new URLSearchParams(r.body);
    expect(form.get('To')).toBe('+14155550123');
    expect(form.get('From')).toBe('+15005550006');
    expect(form.get('Timeout')).toBe('30');
    expect(form.get('Twiml')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Say language="en-US">Your Acme verification code is 0, 4, 8, 2, 1, 3.</Say><Pause length="1"/>' +
        '<Say language="en-US">Again, your code is 0, 4, 8, 2, 1, 3.</Say></Response>',
    );
    expect(form.get('StatusCallback')).toBe('https://verify.example.com/v1/callbacks/twilio-voice');
    expect(form.getAll('StatusCallbackEvent')).toEqual(['answered', 'completed']);
  });

  it("speaks the request's language: TWILIO_VOICE_LANGUAGE's variant for its own, the locale's voice for another", async () => {
    const p = new TwilioVoiceProvider({ ...options, voiceLanguage: 'en-GB' });
    await p.send(call({ locale: 'de' }));
    expect(new URLSearchParams(api.sends().at(-1)!.body).get('Twiml')).toContain(
      '<Say language="de-DE" voice="Polly.Vicki">Ihr Bestätigungscode für Acme lautet 0, 4, 8, 2, 1, 3.</Say>',
    );
    await p.send(call({ locale: 'he' }));
    expect(new URLSearchParams(api.sends().at(-1)!.body).get('Twiml')).toContain(
      '<Say language="he-IL" voice="Google.he-IL-Standard-A">קוד האימות ל-Acme הוא 0, 4, 8, 2, 1, 3.</Say>',
    );
    // Twilio has no Persian voice: the call is read in English rather than by a voice of another language.
    await p.send(call({ locale: 'fa' }));
    expect(new URLSearchParams(api.sends().at(-1)!.body).get('Twiml')).toContain(
      '<Say language="en-GB">Your Acme verification code is 0, 4, 8, 2, 1, 3.</Say>',
    );
    await p.send(call({ locale: 'en' }));
    expect(new URLSearchParams(api.sends().at(-1)!.body).get('Twiml')).toContain(
      '<Say language="en-GB">Your Acme',
    );
  });

  it('escapes the brand name in TwiML', async () => {
    await new TwilioVoiceProvider(options).send(call({ branding: { brandName: 'A&B <Co>', color: '#000' } }));
    expect(new URLSearchParams(api.sends().at(-1)!.body).get('Twiml')).toContain(
      'Your A&amp;B &lt;Co&gt; verification',
    );
  });

  it('refuses an unreachable number (21214, 21217) and fails over on anything else, the code never in the outcome', async () => {
    const p = new TwilioVoiceProvider(options);
    api.answer(() => ({
      status: 400,
      json: { code: 21217, message: 'Phone number does not appear to be valid' },
    }));
    expect(await p.send(call())).toMatchObject({ ok: false, retryable: false });
    for (const answer of [
      { status: 500, json: {} },
      { status: 401, json: { code: 20003 } },
      { status: 200, json: {} },
    ]) {
      api.answer(() => answer);
      const outcome = await p.send(call());
      expect(outcome).toMatchObject({ ok: false, retryable: true });
      expect(JSON.stringify(outcome)).not.toContain('048213');
    }
    api.answer(() => ({ status: 201, hang: true }));
    expect(await new TwilioVoiceProvider({ ...options, timeoutMs: 100 }).send(call())).toMatchObject({
      ok: false,
      retryable: true,
      error: expect.stringContaining('100 ms'),
    });
    expect(await new TwilioVoiceProvider({ ...options, baseUrl: await refusedUrl() }).check()).toBe('down');
  });

  it('is configured by the account and a phone-number caller ID, with or without Twilio SMS', () => {
    const account = { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN };
    const of = (env: Record<string, string>) => twilioVoiceOptions(testConfig(env), null)?.voiceFrom ?? null;
    expect(of({ ...account, TWILIO_VOICE_FROM: '+15005550007' })).toBe('+15005550007');
    expect(of({ ...account, TWILIO_FROM: '+15005550006' })).toBe('+15005550006');
    // An alphanumeric SMS sender cannot call.
    expect(() => testConfig({ ...account, TWILIO_FROM: 'Acme' })).not.toThrow();
    expect(of({ ...account, TWILIO_FROM: 'Acme' })).toBeNull();
    // The account alone is a half-configured Twilio SMS; with a voice caller ID it is Twilio Voice.
    expect(() => testConfig(account)).toThrow(/TWILIO_FROM: required by twilio/);
    expect(() => testConfig({ ...account, TWILIO_VOICE_FROM: '+15005550007' })).not.toThrow();
    expect(() => testConfig({ TWILIO_VOICE_FROM: '+15005550007' })).toThrow(
      /TWILIO_VOICE_FROM: set, but Twilio Voice also needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN/,
    );
  });
});
