import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VONAGE_VOICES } from '../../../../src/delivery/providers/vonage/vonage.voices.js';
import { VonageVoiceProvider } from '../../../../src/delivery/providers/vonage-voice/vonage-voice.provider.js';
import {
  type VonageVoiceOptions,
  vonageVoiceOptions,
} from '../../../../src/delivery/providers/vonage-voice/vonage-voice.settings.js';
import { testConfig } from '../../../support/app.js';
import { type FakeApi, refusedUrl, startFakeApi } from '../../support/fake-api.js';
import { ok } from '../../support/providers.js';
import { deliveryRequest } from '../../support/request.js';
import { VONAGE_APPLICATION_ID, vonageKeys } from '../../support/signing.js';

const call = (overrides: Parameters<typeof deliveryRequest>[0] = {}) =>
  deliveryRequest({ channel: 'VOICE', ...overrides });

describe('Vonage Voice (POST /v1/calls with an NCCO)', () => {
  let api: FakeApi;
  let options: VonageVoiceOptions;
  beforeAll(async () => {
    let n = 0;
    api = await startFakeApi((r) => ok.vonageVoice(r, ++n));
    const configured = vonageVoiceOptions(
      testConfig({
        VONAGE_APPLICATION_ID,
        VONAGE_PRIVATE_KEY: vonageKeys.privateKeyEnv,
        VONAGE_VOICE_FROM: '+447700900000',
        VONAGE_SIGNATURE_SECRET: 'vonage-sig-secret',
        VONAGE_VOICE_BASE_URL: api.url,
      }),
      'https://verify.example.com',
    );
    if (!configured) throw new Error('Vonage Voice not configured');
    options = { ...configured, timeoutMs: 1000 };
  });
  afterAll(() => api.close());

  it("places the call with the application's JWT and two talk actions in the request's language", async () => {
    const outcome = await new VonageVoiceProvider(options).send(call({ locale: 'es' }));
    expect(outcome).toMatchObject({ ok: true, providerMessageId: expect.stringMatching(/^63f61863-/) });
    const r = api.sends().at(-1)!;
    expect(r.path).toBe('/v1/calls');
    // The fake checks the JWT as Vonage does: RS256 under the application's key, naming it.
    expect(vonageKeys.authorizes(r.headers.authorization)).toBe(true);
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({
      to: [{ type: 'phone', number: '14155550123' }],
      from: { type: 'phone', number: '447700900000' },
      event_url: ['https://verify.example.com/v1/callbacks/vonage-voice'],
      event_method: 'POST',
      ringing_timer: 30,
    });
    // Vonage's language for the locale (VONAGE_VOICES), each sentence a talk action.
    expect(body.ncco).toEqual([
      {
        action: 'talk',
        text: expect.stringContaining('0, 4, 8, 2, 1, 3'),
        language: VONAGE_VOICES.es?.language,
      },
      {
        action: 'talk',
        text: expect.stringContaining('0, 4, 8, 2, 1, 3'),
        language: VONAGE_VOICES.es?.language,
      },
    ]);
    expect(body.ncco[0].text).not.toBe(body.ncco[1].text);
    expect(JSON.stringify(body.ncco)).toMatch(/verificaci/);
  });

  it('fails over on 4xx, 5xx, an answer without a uuid, a hang and a refused connection; never shows the code', async () => {
    const p = new VonageVoiceProvider(options);
    for (const answer of [
      { status: 401, json: { title: 'Unauthorized' } },
      { status: 400, json: { title: 'Bad Request', invalid_parameters: [{ name: 'to' }] } },
      { status: 429, json: {} },
      { status: 500, json: {} },
      { status: 201, json: { status: 'started' } },
    ]) {
      api.answer(() => answer);
      const outcome = await p.send(call());
      expect(outcome).toMatchObject({ ok: false, retryable: true });
      expect(JSON.stringify(outcome)).not.toContain('048213');
    }
    api.answer(() => ({ status: 201, hang: true }));
    expect(await new VonageVoiceProvider({ ...options, timeoutMs: 100 }).send(call())).toMatchObject({
      ok: false,
      retryable: true,
    });
    const away = new VonageVoiceProvider({ ...options, baseUrl: await refusedUrl() });
    expect(await away.send(call())).toMatchObject({ ok: false, retryable: true });
    expect(await away.check()).toBe('down');
  });

  it('check() lists a call without placing one', async () => {
    const before = api.sends().length;
    expect(await new VonageVoiceProvider(options).check()).toBe('up');
    expect(api.received.at(-1)).toMatchObject({ method: 'GET', path: '/v1/calls' });
    expect(api.sends()).toHaveLength(before);
  });

  it('takes no event URL without a signature secret to check the events with, and refuses a key that is not one', () => {
    const env = {
      VONAGE_APPLICATION_ID,
      VONAGE_PRIVATE_KEY: vonageKeys.privateKeyEnv,
      VONAGE_VOICE_FROM: '447700900000',
    };
    expect(vonageVoiceOptions(testConfig(env), 'https://verify.example.com')?.eventUrl).toBeNull();
    // The account's signature secret serves Vonage Voice alone: no half-configured Vonage SMS.
    expect(() => testConfig({ ...env, VONAGE_SIGNATURE_SECRET: 's' })).not.toThrow();
    expect(() => testConfig({ ...env, VONAGE_PRIVATE_KEY: 'not a key' })).toThrow(
      /VONAGE_PRIVATE_KEY: not a PEM private key/,
    );
    expect(() => testConfig({ ...env, VONAGE_PRIVATE_KEY: 'not a key' })).not.toThrow(/not a key$/);
    expect(() => testConfig({ VONAGE_APPLICATION_ID })).toThrow(
      /VONAGE_PRIVATE_KEY: required by vonage-application/,
    );
    expect(() => testConfig({ VONAGE_VOICE_FROM: '447700900000' })).toThrow(
      /VONAGE_VOICE_FROM: set, but Vonage Voice also needs VONAGE_APPLICATION_ID and VONAGE_PRIVATE_KEY/,
    );
  });
});
