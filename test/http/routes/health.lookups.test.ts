import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWith, freshNumber, SEND } from '../../lookup/support/lookup-service.js';
import { type ProviderFake, startProviderFake } from '../../lookup/support/provider-fakes.js';
import { startTestService, type TestService } from '../../support/app.js';

// GET /health names the carrier lookup provider with its state on this instance, as its circuit
// breaker sees it, through the whole service against a fake of Twilio Lookup v2 on loopback: it
// is never asked just to fill the answer in (a lookup costs money).

describe('GET /health: the carrier lookup provider', () => {
  let svc: TestService;
  let fake: ProviderFake;
  beforeAll(async () => {
    fake = await startProviderFake('twilio');
    svc = await startTestService({
      ...fake.env,
      CIRCUIT_BREAKER_FAILURES: '2',
      CIRCUIT_BREAKER_COOLDOWN_SECONDS: '600',
    });
  });
  afterAll(async () => {
    await svc?.close();
    await fake?.close();
  });
  const health = async () => {
    const res = await svc.get('/health');
    expect(res.status).toBe(200);
    return res.body;
  };
  const send = (key: string) => svc.post(SEND, { channel: 'SMS', phone: freshNumber() }, key);

  it('unknown before any lookup, up once the provider answered, down (and degraded) while its circuit is open', async () => {
    const before = await health();
    expect(before.lookups).toEqual({ name: 'twilio', state: 'unknown' });
    expect(before.status).toBe('ok');
    expect(fake.api.received).toEqual([]);

    const { key } = await accountWith(svc, { lookup: 'sms_voice' });
    expect((await send(key)).status).toBe(200);
    const answered = await health();
    expect(answered.lookups).toEqual({ name: 'twilio', state: 'up' });
    expect(answered.status).toBe('ok');

    // Two failures in a row open the circuit (CIRCUIT_BREAKER_FAILURES): the sends go on with the
    // signal lookup_unavailable, and the instance is degraded until the provider answers again.
    fake.fail({ status: 503, json: { code: 20503, message: 'Service unavailable' } });
    for (let i = 0; i < 2; i++) {
      const res = await send(key);
      expect(res.status).toBe(200);
      expect(res.body.data.risk.signals.map((s: { name: string }) => s.name)).toContain('lookup_unavailable');
    }
    const open = await health();
    expect(open.lookups).toEqual({ name: 'twilio', state: 'down' });
    expect(open.status).toBe('degraded');
    // An open circuit skips the provider: the sends meanwhile ask it nothing.
    const asked = fake.api.received.length;
    expect((await send(key)).status).toBe(200);
    expect(fake.api.received.length).toBe(asked);
  });

  it('is absent without a provider (LOOKUP_PROVIDER unset)', async () => {
    const plain = await startTestService();
    try {
      const res = await plain.get('/health');
      expect(res.body).not.toHaveProperty('lookups');
      expect(res.body.status).toBe('ok');
    } finally {
      await plain.close();
    }
  });
});
