import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliverySettingsTable, providersTable, settingsPage } from '../../../scripts/settings-page.js';
import { PROVIDERS } from '../../../src/delivery/providers/registry.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/domain/accounts.js';
import { startTestService, type TestService, testConfig } from '../../support/app.js';
import { type FakeApi, refusedUrl, startFakeApi } from '../support/fake-api.js';
import { fakesms } from '../support/fakesms/index.js';
import { ok, TWILIO_SID } from '../support/providers.js';

/** The registry with one more SMS provider: the one line a new provider adds. */
const REGISTRY = [...PROVIDERS, fakesms];

const US = '+14155552671';
const GB = '+447400123456';

describe('a fourth SMS provider: one folder and one registry line', () => {
  let twilioApi: FakeApi;
  let fakesmsApi: FakeApi;
  let twilioEnv: Record<string, string>;
  let fakesmsEnv: Record<string, string>;
  const services: TestService[] = [];

  const fakesmsOk = () => {
    let n = 0;
    fakesmsApi.answer(() => ({ status: 201, json: { id: `fs-${++n}` } }));
  };
  beforeAll(async () => {
    let n = 0;
    twilioApi = await startFakeApi((r) => ok.twilio(r, ++n));
    fakesmsApi = await startFakeApi(() => ({ status: 201, json: { id: 'unset' } }));
    fakesmsOk();
    twilioEnv = {
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: 'twilio-token',
      TWILIO_FROM: '+15005550006',
      TWILIO_BASE_URL: twilioApi.url,
      RESEND_COOLDOWN_SECONDS: '0',
      SENDS_PER_DESTINATION_PER_HOUR: '1000',
    };
    fakesmsEnv = { FAKESMS_API_KEY: 'fs-key', FAKESMS_FROM: 'Acme', FAKESMS_BASE_URL: fakesmsApi.url };
  });
  afterEach(async () => {
    twilioApi.answer((r) => ok.twilio(r, Date.now()));
    fakesmsOk();
    await Promise.all(services.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await Promise.all([twilioApi.close(), fakesmsApi.close()]);
  });

  const start = async (env: Record<string, string>) => {
    const svc = await startTestService(env, { providers: REGISTRY });
    services.push(svc);
    return { svc, key: await svc.createKey({ channels: ['SMS'] }) };
  };
  const sendSms = async (s: { svc: TestService; key: string }, phone: string) => {
    const res = await s.svc.post('/v1/contact/send-code', { channel: 'SMS', phone }, s.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return s.svc.store.verifications.getVerification(DEFAULT_ACCOUNT_ID, res.body.data.requestId);
  };
  const counts = () => ({ twilio: twilioApi.sends().length, fakesms: fakesmsApi.sends().length });

  it('is routed to by SMS_ROUTES, and speaks its own API', async () => {
    const s = await start({ ...twilioEnv, ...fakesmsEnv, SMS_ROUTES: 'GB=fakesms,twilio;*=twilio' });
    const before = counts();
    expect(await sendSms(s, GB)).toMatchObject({ deliveryStatus: 'sent', provider: 'fakesms' });
    expect(counts()).toEqual({ twilio: before.twilio, fakesms: before.fakesms + 1 });
    const call = fakesmsApi.sends().at(-1)!;
    expect(call.path).toBe('/v1/sms');
    expect(call.headers.authorization).toBe('Bearer fs-key');
    expect(JSON.parse(call.body)).toMatchObject({
      from: 'Acme',
      to: GB,
      text: expect.stringMatching(/\d{6}/),
    });

    expect(await sendSms(s, US)).toMatchObject({ provider: 'twilio' });
    expect(counts()).toEqual({ twilio: before.twilio + 1, fakesms: before.fakesms + 1 });
  });

  it('is in the default route, after the SMS providers listed before it', async () => {
    const alone = await start(fakesmsEnv);
    expect(await sendSms(alone, US)).toMatchObject({ deliveryStatus: 'sent', provider: 'fakesms' });

    const both = await start({ ...twilioEnv, ...fakesmsEnv });
    const before = counts();
    expect(await sendSms(both, GB)).toMatchObject({ provider: 'twilio' });
    expect(counts()).toEqual({ twilio: before.twilio + 1, fakesms: before.fakesms });
    // Failover runs in the registry's order: twilio first, then the provider added last.
    twilioApi.answer(() => ({ status: 500, json: { code: 20500, message: 'Internal Server Error' } }));
    expect(await sendSms(both, GB)).toMatchObject({ deliveryStatus: 'sent', provider: 'fakesms' });
    expect(counts()).toEqual({ twilio: before.twilio + 2, fakesms: before.fakesms + 1 });
  });

  it('appears in /health under SMS with the state of its own check', async () => {
    const up = await start({ ...twilioEnv, ...fakesmsEnv });
    const health = await up.svc.get('/health');
    expect(health.body.channels.SMS.providers).toEqual([
      { name: 'twilio', state: 'up' },
      { name: 'fakesms', state: 'up' },
    ]);
    expect(fakesmsApi.received.some((r) => r.method === 'GET' && r.path === '/v1/account')).toBe(true);

    const down = await start({ ...fakesmsEnv, FAKESMS_BASE_URL: await refusedUrl() });
    const downHealth = await down.svc.get('/health');
    expect(downHealth.body.channels.SMS).toMatchObject({
      operational: false,
      providers: [{ name: 'fakesms', state: 'down' }],
    });
  });

  it('is a name SMS_ROUTES accepts only where it is registered, with its settings checked', () => {
    expect(() => testConfig({ ...fakesmsEnv, SMS_ROUTES: '*=fakesms' }, REGISTRY)).not.toThrow();
    expect(() => testConfig({ ...twilioEnv, SMS_ROUTES: '*=fakesms' })).toThrow(
      /names "fakesms"; SMS providers are twilio, vonage, telnyx$/m,
    );
    expect(() => testConfig({ ...twilioEnv, SMS_ROUTES: '*=nosuch' }, REGISTRY)).toThrow(
      /SMS providers are twilio, vonage, telnyx, fakesms/,
    );
    expect(() => testConfig({ ...twilioEnv, SMS_ROUTES: '*=fakesms' }, REGISTRY)).toThrow(
      /names fakesms, which is not configured/,
    );
    expect(() => testConfig({ FAKESMS_API_KEY: 'fs-key' }, REGISTRY)).toThrow(
      /FAKESMS_FROM: required by fakesms/,
    );
    expect(() => testConfig({ SMS_ROUTES: '*=fakesms' }, REGISTRY)).toThrow(
      /no SMS provider \(Twilio, Vonage, Telnyx, FakeSMS\)/,
    );
  });

  it('is in the settings documentation', () => {
    expect(providersTable(REGISTRY)).toContain('| `SMS` | `fakesms` | FakeSMS API, `POST /v1/sms` |');
    const table = deliverySettingsTable(REGISTRY);
    expect(table).toContain('| `FAKESMS_API_KEY` | fakesms | yes | yes |  | FakeSMS API key');
    expect(table).toMatch(
      /\| `SMS_ROUTES` .*every configured SMS provider \(twilio, vonage, telnyx, fakesms\)/,
    );
    expect(deliverySettingsTable()).not.toContain('FAKESMS');
    expect(settingsPage(REGISTRY)).toContain(
      'Provider settings (SMTP, Twilio, Vonage, Telnyx, WhatsApp, FakeSMS',
    );
  });
});
