import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeProviders, startFakeProviders } from './delivery/support/providers.js';
import { startTestService, type TestService } from './support/app.js';

describe('codes and provider secrets stay out of logs and error bodies', () => {
  const lines: string[] = [];
  let fakes: FakeProviders;
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    fakes = await startFakeProviders();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    svc = await startTestService(
      { ...fakes.env, SMS_ROUTES: '*=twilio,vonage', LOG_LEVEL: 'trace' },
      { logger: pino({ level: 'trace' }, sink) },
    );
    key = await svc.createKey();
  });
  afterAll(async () => {
    await svc.close();
    await fakes.close();
  });

  it('holds for successes, failovers, refusals and total failures', async () => {
    const bodies: string[] = [];
    const send = async (body: Record<string, unknown>) => {
      const res = await svc.post('/v1/contact/send-code', body, key);
      bodies.push(JSON.stringify(res.body));
      return res;
    };
    await send({ channel: 'SMS', phone: '+14155552671' });
    fakes.twilio.answer(() => ({ status: 500, json: { message: 'boom' } }));
    await send({ channel: 'SMS', phone: '+14155552671' });
    fakes.vonage.answer(() => ({
      status: 200,
      json: { messages: [{ status: '5', 'error-text': 'Internal Error' }] },
    }));
    expect((await send({ channel: 'SMS', phone: '+14155552671' })).status).toBe(502);
    fakes.twilio.answer(() => ({ status: 400, json: { code: 21211, message: 'bad To' } }));
    expect((await send({ channel: 'SMS', phone: '+14155552671' })).status).toBe(400);
    fakes.reset();
    await send({ channels: ['EMAIL', 'WHATSAPP'], email: 'ada@example.com', phone: '+14155550101' });

    const codes = new Set<string>();
    for (const r of [...fakes.twilio.sends(), ...fakes.vonage.sends()]) {
      const body = new URLSearchParams(r.body);
      const text = body.get('Body') ?? body.get('text') ?? '';
      const code = /^(\d{6})/.exec(text)?.[1];
      if (code) codes.add(code);
    }
    for (const m of fakes.smtp.mails) codes.add(/^(\d{6})/.exec(m.mail.subject ?? '')![1]!);
    for (const r of fakes.whatsapp.sends())
      codes.add(JSON.parse(r.body).template.components[0].parameters[0].text);
    expect(codes.size).toBeGreaterThanOrEqual(5);

    const everything = [...lines, ...bodies].join('\n');
    expect(lines.some((l) => l.includes('delivery failed'))).toBe(true);
    // Digits of timestamps or ids may contain the same six digits; a code stands alone.
    for (const code of codes) expect(everything).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
    for (const secret of ['twilio-token', 'vonage-secret', 'EAAGtoken', 'KEYtelnyx']) {
      expect(everything).not.toContain(secret);
    }
  });
});
