import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateSeal } from '../../../../src/delivery/providers/state-seal.js';
import { TELNYX_VOICES } from '../../../../src/delivery/providers/telnyx/telnyx.voices.js';
import { TelnyxVoiceProvider } from '../../../../src/delivery/providers/telnyx-voice/telnyx-voice.provider.js';
import { openScript } from '../../../../src/delivery/providers/telnyx-voice/telnyx-voice.script.js';
import type { TelnyxVoiceOptions } from '../../../../src/delivery/providers/telnyx-voice/telnyx-voice.settings.js';
import { testConfig } from '../../../support/app.js';
import { type FakeApi, refusedUrl, startFakeApi } from '../../support/fake-api.js';
import { ok } from '../../support/providers.js';
import { deliveryRequest } from '../../support/request.js';

const call = (overrides: Parameters<typeof deliveryRequest>[0] = {}) =>
  deliveryRequest({ channel: 'VOICE', ...overrides });
const seal = stateSeal([Buffer.from('telnyx-voice-test-secret')]);
const NOW = 1_700_000_000_000;

describe('Telnyx Call Control (POST /v2/calls)', () => {
  let api: FakeApi;
  let options: TelnyxVoiceOptions;
  beforeAll(async () => {
    let n = 0;
    api = await startFakeApi((r) => ok.telnyx(r, ++n));
    options = {
      apiKey: 'KEYtelnyx',
      connectionId: '1684641123236054244',
      from: '+15550001111',
      baseUrl: api.url,
      timeoutMs: 1000,
      webhookUrl: 'https://verify.example.com/v1/callbacks/telnyx-voice',
    };
  });
  afterAll(() => api.close());

  it('dials with its webhook and the script sealed in client_state: no code in clear on the way', async () => {
    const outcome = await new TelnyxVoiceProvider(options, seal, () => NOW).send(call({ locale: 'fr' }));
    expect(outcome).toMatchObject({ ok: true, providerMessageId: expect.stringMatching(/^v3:call-/) });
    const r = api.sends().at(-1)!;
    expect(r.path).toBe('/v2/calls');
    expect(r.headers.authorization).toBe('Bearer KEYtelnyx');
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({
      connection_id: '1684641123236054244',
      to: '+14155550123',
      from: '+15550001111',
      webhook_url: 'https://verify.example.com/v1/callbacks/telnyx-voice',
      webhook_url_method: 'POST',
      timeout_secs: 30,
    });
    expect(r.body).not.toMatch(/0, 4, 8|048213/);
    expect(Buffer.from(body.client_state, 'base64').toString('base64')).toBe(body.client_state);
    const script = openScript(seal, body.client_state, NOW);
    expect(script).toEqual({
      text: expect.stringMatching(/0, 4, 8, 2, 1, 3.*0, 4, 8, 2, 1, 3/),
      voice: TELNYX_VOICES.fr?.voice,
      expiresAt: NOW + 600_000,
    });
    expect(script?.text).toMatch(/Acme/);
    // Only this service opens it, and only until the code expires.
    expect(openScript(stateSeal([Buffer.from('another secret')]), body.client_state, NOW)).toBeNull();
    expect(openScript(seal, body.client_state, NOW + 600_000)).toBeNull();
  });

  it('fails over on 4xx, 5xx, an answer without a call id, a hang and a refused connection', async () => {
    const p = new TelnyxVoiceProvider(options, seal);
    for (const answer of [
      { status: 401, json: { errors: [{ code: '10009', title: 'Authentication failed' }] } },
      { status: 422, json: { errors: [{ code: '90015', title: 'Invalid value for connection_id' }] } },
      { status: 503, json: {} },
      { status: 200, json: { data: {} } },
    ]) {
      api.answer(() => answer);
      expect(await p.send(call())).toMatchObject({ ok: false, retryable: true });
    }
    api.answer(() => ({ status: 200, hang: true }));
    expect(await new TelnyxVoiceProvider({ ...options, timeoutMs: 100 }, seal).send(call())).toMatchObject({
      ok: false,
      retryable: true,
    });
    expect(await new TelnyxVoiceProvider({ ...options, baseUrl: await refusedUrl() }, seal).check()).toBe(
      'down',
    );
  });

  it('is refused at start when its calls could not be driven: no public URL, no webhook key, no caller ID', () => {
    const base = { TELNYX_API_KEY: 'KEYtelnyx', TELNYX_VOICE_CONNECTION_ID: '1684641123236054244' };
    const full = {
      ...base,
      TELNYX_VOICE_FROM: '+15550001111',
      TELNYX_PUBLIC_KEY: 'a2V5',
      PUBLIC_BASE_URL: 'https://v.example.com',
    };
    expect(() => testConfig(full)).not.toThrow();
    expect(() => testConfig({ ...full, PUBLIC_BASE_URL: '' })).toThrow(
      /TELNYX_VOICE_CONNECTION_ID: .*PUBLIC_BASE_URL/,
    );
    const { TELNYX_PUBLIC_KEY: _, ...noKey } = full;
    expect(() => testConfig(noKey)).toThrow(/TELNYX_PUBLIC_KEY/);
    const { TELNYX_VOICE_FROM: __, ...noCaller } = full;
    expect(() => testConfig(noCaller)).toThrow(/TELNYX_VOICE_FROM/);
    expect(() => testConfig({ ...noCaller, TELNYX_FROM: '+15550001111' })).not.toThrow();
    // Without TELNYX_FROM the calls alone are configured; the key alone is a half-configured SMS.
    expect(() => testConfig({ TELNYX_API_KEY: 'KEYtelnyx' })).toThrow(/TELNYX_FROM: required by telnyx/);
  });
});
