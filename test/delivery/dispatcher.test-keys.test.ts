import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../src/domain/accounts.js';
import { startTestService, type TestService } from '../support/app.js';
import { type FakeProviders, startFakeProviders } from './support/providers.js';

describe('test keys never reach a provider', () => {
  let fakes: FakeProviders;
  let svc: TestService;
  beforeAll(async () => {
    fakes = await startFakeProviders();
    svc = await startTestService(fakes.env);
  });
  afterAll(async () => {
    await svc.close();
    await fakes.close();
  });

  it('sends every channel of a test key to the outbox although providers are configured', async () => {
    const testKey = await svc.createKey({ test: true });
    const requests = [
      { channel: 'EMAIL', email: 'ada@example.com' },
      { channel: 'SMS', phone: '+14155552671' },
      { channel: 'WHATSAPP', phone: '+447400123456' },
      { channel: 'VOICE', phone: '+447400123457' },
    ];
    for (const body of requests) {
      const res = await svc.post('/v1/contact/send-code', body, testKey);
      expect(res.status).toBe(200);
      // A test key's request is found in the test world only.
      const row = await svc.store.verifications.getVerification(
        DEFAULT_ACCOUNT_ID,
        res.body.data.requestId,
        'test',
      );
      expect(row).toMatchObject({ deliveryStatus: 'outbox', provider: null, mode: 'test' });
    }
    expect(fakes.smtp.mails).toHaveLength(0);
    for (const api of [fakes.twilio, fakes.vonage, fakes.telnyx, fakes.whatsapp, fakes.vonageVoice])
      expect(api.sends()).toHaveLength(0);

    const sms = await svc.lastMessage('+14155552671');
    expect(sms.text).toMatch(/^\d{6} is your Contact Verify verification code\.$/);
    const code = await svc.lastCode('ada@example.com');
    const email = await svc.lastMessage('ada@example.com');
    expect(email.subject).toBe(`${code} is your Contact Verify verification code`);
  });

  it('while a live key of the same account uses the providers', async () => {
    const liveKey = await svc.createKey();
    const res = await svc.post('/v1/contact/send-code', { channel: 'SMS', phone: '+14155550101' }, liveKey);
    expect(res.status).toBe(200);
    expect(fakes.twilio.sends()).toHaveLength(1);
  });
});
