import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { startTestService, type TestService } from '../support/app.js';
import { type FakeProviders, startFakeProviders } from './support/providers.js';

describe('circuit breaker', () => {
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  let fakes: FakeProviders;
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    fakes = await startFakeProviders();
    svc = await startTestService(
      {
        ...fakes.env,
        SMS_ROUTES: '*=twilio,vonage',
        CIRCUIT_BREAKER_FAILURES: '2',
        CIRCUIT_BREAKER_COOLDOWN_SECONDS: '30',
        PROVIDER_CHECK_INTERVAL_SECONDS: '1',
      },
      { clock },
    );
    key = await svc.createKey();
  });
  afterAll(async () => {
    await svc.close();
    await fakes.close();
  });

  const send = () => svc.post('/v1/contact/send-code', { channel: 'SMS', phone: '+14155552671' }, key);
  const smsProviders = async () => {
    const health = await svc.get('/health');
    return Object.fromEntries(
      (health.body.channels.SMS.providers as Array<{ name: string; state: string }>).map((p) => [
        p.name,
        p.state,
      ]),
    );
  };

  it('reports every configured provider up through its check()', async () => {
    expect(await smsProviders()).toEqual({ twilio: 'up', vonage: 'up', telnyx: 'up' });
    const health = await svc.get('/health');
    expect(health.body.channels.EMAIL.providers).toEqual([{ name: 'smtp', state: 'up' }]);
    // No WHATSAPP_APP_SECRET here, so no WhatsApp calls: the outbox takes WHATSAPP CALL codes.
    expect(health.body.channels.WHATSAPP.providers).toEqual([
      { name: 'whatsapp', state: 'up' },
      { name: 'outbox', state: 'up' },
    ]);
    expect(health.body.channels.VOICE.providers).toEqual([
      { name: 'twilio-voice', state: 'up' },
      { name: 'vonage-voice', state: 'up' },
    ]);
    expect(health.body.status).toBe('ok');
  });

  it('skips a provider after repeated failures, shows it down, and tries it again after the cool-off', async () => {
    fakes.twilio.answer(() => ({ status: 503, json: {} }));
    for (let i = 0; i < 2; i++) expect((await send()).status).toBe(200);
    expect(fakes.twilio.sends()).toHaveLength(2);
    expect(fakes.vonage.sends()).toHaveLength(2);

    // Open: twilio is not even called.
    expect((await send()).status).toBe(200);
    expect(fakes.twilio.sends()).toHaveLength(2);
    expect(fakes.vonage.sends()).toHaveLength(3);
    expect((await smsProviders()).twilio).toBe('down');
    expect((await svc.get('/health')).body.channels.SMS.operational).toBe(true);

    // After the cool-off one request tries it again; it works again, so the circuit closes.
    fakes.reset();
    clock.advance(31_000);
    expect((await send()).status).toBe(200);
    expect(fakes.twilio.sends()).toHaveLength(3);
    expect(fakes.vonage.sends()).toHaveLength(3);
    expect((await smsProviders()).twilio).toBe('up');
  });

  it('fails fast with 502 while every provider of the route is cooling off', async () => {
    fakes.twilio.answer(() => ({ status: 500, json: {} }));
    fakes.vonage.answer(() => ({ status: 500, json: {} }));
    for (let i = 0; i < 2; i++) expect((await send()).status).toBe(502);
    const calls = fakes.twilio.sends().length + fakes.vonage.sends().length;
    const res = await send();
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('DELIVERY_FAILED');
    expect(fakes.twilio.sends().length + fakes.vonage.sends().length).toBe(calls);
    const health = await svc.get('/health');
    expect(health.body.channels.SMS.providers).toContainEqual({ name: 'twilio', state: 'down' });
    expect(health.body.channels.SMS.providers).toContainEqual({ name: 'vonage', state: 'down' });
    fakes.reset();
  });
});
