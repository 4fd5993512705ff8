import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../src/domain/accounts.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { type FakeProviders, startFakeProviders } from './support/providers.js';

describe('EMAIL over SMTP and WHATSAPP through the Cloud API', () => {
  let fakes: FakeProviders;
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    fakes = await startFakeProviders();
    svc = await startTestService({
      ...fakes.env,
      BRAND_NAME: 'Acme',
      SMS_WEBOTP_DOMAIN: 'acme.test',
      WHATSAPP_TEMPLATE_LANGUAGES: 'es,pt_BR',
    });
    key = await svc.createKey();
  });
  afterAll(async () => {
    await svc.close();
    await fakes.close();
  });

  const patchBranding = async (branding: Record<string, string> | null) =>
    (
      await svc.app.inject({
        method: 'PATCH',
        url: `/v1/admin/accounts/${DEFAULT_ACCOUNT_ID}/settings`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ branding }),
      })
    ).statusCode;

  it('mails a branded message (account branding) whose code verifies', async () => {
    const patched = await patchBranding({
      brandName: 'Acme Bank',
      color: '#0a7d33',
      supportUrl: 'https://help.acme.test',
    });
    expect(patched).toBe(200);
    const sent = await svc.post(
      '/v1/contact/send-code',
      {
        channel: 'EMAIL',
        email: 'Ada@Example.com',
        purpose: 'Password reset',
        customMessage: '<script>x</script>',
      },
      key,
    );
    expect(sent.status).toBe(200);
    const { mail, envelopeTo } = fakes.smtp.mails.at(-1)!;
    // The address as given (its local part's case is the receiving server's to interpret);
    // nodemailer writes the domain, which has no case, in lower case.
    expect(envelopeTo).toEqual(['Ada@example.com']);
    const code = /^(\d{6}) is your Acme Bank verification code$/.exec(mail.subject ?? '')?.[1];
    expect(code).toBeDefined();
    expect(mail.text).toContain(`Your Acme Bank verification code is: ${code}`);
    expect(mail.text).toContain('Requested for: Password reset');
    expect(mail.text).toContain('https://help.acme.test');
    expect(String(mail.html)).toContain('color:#0a7d33');
    expect(String(mail.html)).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(String(mail.html)).not.toContain('<script>');
    expect(mail.from?.value[0]).toEqual({ address: 'codes@acme.test', name: 'Acme Bank' });

    const verified = await svc.post(
      '/v1/contact/verify-code',
      { requestId: sent.body.data.requestId, code },
      key,
    );
    expect(verified.body.data).toMatchObject({ verified: true, channel: 'EMAIL' });
    expect(await patchBranding(null)).toBe(200);
  });

  it('answers INVALID_DESTINATION when the mail server refuses the address', async () => {
    const res = await svc.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: 'nobody@example.com' },
      key,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_DESTINATION');
  });

  it('puts the deployment brand and the WebOTP line in the SMS', async () => {
    await svc.post('/v1/contact/send-code', { channel: 'SMS', phone: '+14155552671' }, key);
    const body = new URLSearchParams(fakes.twilio.sends().at(-1)!.body).get('Body') ?? '';
    expect(body).toMatch(/^(\d{6}) is your Acme verification code\.\n\n@acme\.test #\1$/);
  });

  it('sends WhatsApp TEXT as the authentication template', async () => {
    const res = await svc.post(
      '/v1/contact/send-code',
      { channel: 'WHATSAPP', whatsappNumber: '+447400123456' },
      key,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ channel: 'WHATSAPP', deliveryType: 'TEXT', status: 'pending' });
    const r = fakes.whatsapp.sends().at(-1)!;
    expect(r.path).toBe('/v23.0/106540352242922/messages');
    expect(r.headers.authorization).toBe('Bearer EAAGtoken');
    const template = JSON.parse(r.body).template;
    expect(template).toMatchObject({ name: 'verify_code', language: { code: 'en_US' } });
    const code = template.components[0].parameters[0].text;
    expect(template.components[1]).toEqual({
      type: 'button',
      sub_type: 'url',
      index: '0',
      parameters: [{ type: 'text', text: code }],
    });
    const verified = await svc.post(
      '/v1/contact/verify-code',
      { requestId: res.body.data.requestId, code },
      key,
    );
    expect(verified.body.data.verified).toBe(true);
  });

  it("writes to each provider in the send's locale", async () => {
    const send = (body: Record<string, unknown>) => svc.post('/v1/contact/send-code', body, key);
    expect((await send({ channel: 'EMAIL', email: 'marie@example.com', locale: 'fr-CA' })).status).toBe(200);
    const { mail } = fakes.smtp.mails.at(-1)!;
    expect(mail.subject).toMatch(/^\d{6} est votre code de vérification Acme$/);
    expect(mail.text).toContain('Le code expire dans 10 minutes.');

    expect((await send({ channel: 'SMS', phone: '+14155552681', locale: 'de' })).status).toBe(200);
    const sms = new URLSearchParams(fakes.twilio.sends().at(-1)!.body).get('Body') ?? '';
    expect(sms).toMatch(/^(\d{6}) ist Ihr Bestätigungscode für Acme\.\n\n@acme\.test #\1$/);

    expect((await send({ channel: 'WHATSAPP', phone: '+447400123460', locale: 'pt-BR' })).status).toBe(200);
    expect(JSON.parse(fakes.whatsapp.sends().at(-1)!.body).template.language).toEqual({ code: 'pt_BR' });
    // French is not among the template's approved languages: the default one is used.
    expect((await send({ channel: 'WHATSAPP', phone: '+447400123461', locale: 'fr' })).status).toBe(200);
    expect(JSON.parse(fakes.whatsapp.sends().at(-1)!.body).template.language).toEqual({ code: 'en_US' });

    const call = { channel: 'VOICE', phone: '+447400123462', locale: 'es' };
    expect((await send(call)).status).toBe(200);
    const twiml = new URLSearchParams(fakes.twilio.sends().at(-1)!.body).get('Twiml') ?? '';
    expect(twiml).toMatch(
      /<Say language="es-MX" voice="Polly.Mia">Tu código de verificación de Acme es (\d, ){5}\d\.<\/Say>/,
    );
  });

  it('a WHATSAPP CALL is never a text message nor a phone call: without WHATSAPP_APP_SECRET no provider serves it', async () => {
    const before = { whatsapp: fakes.whatsapp.sends().length, twilio: fakes.twilio.sends().length };
    const res = await svc.post(
      '/v1/contact/send-code',
      { channel: 'WHATSAPP', phone: '+447400123457', deliveryType: 'CALL' },
      key,
    );
    // No provider serves CALL here (its webhooks could not be verified): the outbox keeps it
    // (LIVE_OUTBOX=allow), nobody is called and no text is sent instead.
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ channel: 'WHATSAPP', status: 'pending', deliveryType: 'CALL' });
    expect(fakes.whatsapp.sends()).toHaveLength(before.whatsapp);
    expect(fakes.twilio.sends()).toHaveLength(before.twilio);
  });
});

describe('a WHATSAPP CALL of a test key', () => {
  it('goes to the outbox as any test code: the outbox shows what the call will say', async () => {
    const svc = await startTestService({ RESEND_COOLDOWN_SECONDS: '0' });
    try {
      const key = await svc.createKey({ test: true });
      const res = await svc.post(
        '/v1/contact/send-code',
        { channel: 'WHATSAPP', phone: '+14155552671', deliveryType: 'CALL' },
        key,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'pending', deliveryType: 'CALL' });
      const message = await svc.lastMessage('+14155552671');
      expect(message.text).toMatch(/^Voice call: "Your .* verification code is (\d, ){5}\d\. Again/);
    } finally {
      await svc.close();
    }
  });
});
