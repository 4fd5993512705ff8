import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlaps } from '../../delivery/support/fake-api.js';
import { type FakeProviders, ok, startFakeProviders } from '../../delivery/support/providers.js';
import { startTestService, type TestService } from '../../support/app.js';

describe('dual mode fires both channels in parallel', () => {
  let fakes: FakeProviders;
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    // Each peer holds its answer for 300 ms: two deliveries one after the other cannot overlap.
    fakes = await startFakeProviders({ smtpDelayMs: 300 });
    fakes.twilio.answer((r) => ({ ...ok.twilio(r, 1), delayMs: 300 }));
    fakes.whatsapp.answer((r) => ({ ...ok.whatsapp(r, 1), delayMs: 300 }));
    svc = await startTestService({ ...fakes.env, SMS_ROUTES: '*=twilio' });
    key = await svc.createKey();
  });
  afterAll(async () => {
    await svc.close();
    await fakes.close();
  });

  it('EMAIL + SMS: the SMTP session and the Twilio request are open at the same time', async () => {
    const res = await svc.post(
      '/v1/contact/send-code',
      { channels: ['EMAIL', 'SMS'], email: 'ada@example.com', phone: '+14155552671' },
      key,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { channel: string }) => e.channel)).toEqual(['EMAIL', 'SMS']);
    const mail = fakes.smtp.mails.at(-1)!;
    const sms = fakes.twilio.sends().at(-1)!;
    expect(overlaps(mail, sms)).toBe(true);
  });

  it('SMS + WHATSAPP: the Twilio and the Cloud API requests overlap', async () => {
    const res = await svc.post(
      '/v1/contact/send-code',
      { channels: ['WHATSAPP', 'SMS'], phone: '+14155552672' },
      key,
    );
    expect(res.status).toBe(200);
    expect(overlaps(fakes.whatsapp.sends().at(-1)!, fakes.twilio.sends().at(-1)!)).toBe(true);
  });

  it('one channel failing on every provider leaves the other delivered (200, entry undelivered)', async () => {
    fakes.twilio.answer(() => ({ status: 500, json: {} }));
    const res = await svc.post(
      '/v1/contact/send-code',
      { channels: ['EMAIL', 'SMS'], email: 'bob@example.com', phone: '+14155550101' },
      key,
    );
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ channel: 'EMAIL', status: 'pending' });
    expect(res.body.data[1]).toMatchObject({
      channel: 'SMS',
      status: 'undelivered',
      error: { code: 'DELIVERY_FAILED' },
    });
    // The pair still verifies with the code that arrived by email.
    const code = /^(\d{6})/.exec(fakes.smtp.mails.at(-1)!.mail.subject ?? '')?.[1];
    const verified = await svc.post(
      '/v1/contact/verify-code',
      { requestId: res.body.data[1].requestId, code },
      key,
    );
    expect(verified.body.data).toMatchObject({ verified: true, channel: 'EMAIL' });
  });
});
