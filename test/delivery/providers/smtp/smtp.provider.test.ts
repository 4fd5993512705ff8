import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpProvider } from '../../../../src/delivery/providers/smtp/smtp.provider.js';
import { type FakeSmtp, startFakeSmtp } from '../../support/fake-smtp.js';
import { deliveryRequest } from '../../support/request.js';

describe('SMTP (nodemailer against a real smtp-server)', () => {
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await startFakeSmtp({ reject: ['nobody@example.com'] });
  });
  afterAll(() => smtp.close());

  const email = (overrides = {}) =>
    deliveryRequest({
      channel: 'EMAIL',
      to: 'ada@example.com',
      purpose: 'Sign in',
      customMessage: 'Welcome <b>back</b> & enjoy',
      branding: { brandName: 'Acme', color: '#ff5500', logoUrl: 'https://acme.test/logo.png' },
      ...overrides,
    });

  it('delivers a branded HTML and plain-text message with the code in the subject', async () => {
    const p = new SmtpProvider({ url: smtp.url, from: 'codes@acme.test', timeoutMs: 5000 });
    const outcome = await p.send(email());
    expect(outcome.ok).toBe(true);
    const { mail, envelopeTo } = smtp.mails.at(-1)!;
    expect(envelopeTo).toEqual(['ada@example.com']);
    expect(mail.subject).toBe('048213 is your Acme verification code');
    expect(mail.from?.value[0]).toEqual({ address: 'codes@acme.test', name: 'Acme' });
    expect(mail.text).toContain('Your Acme verification code is: 048213');
    expect(mail.text).toContain('Requested for: Sign in');
    expect(mail.text).toContain('Welcome <b>back</b> & enjoy');
    const html = String(mail.html);
    expect(html).toContain('048213');
    expect(html).toContain('color:#ff5500');
    expect(html).toContain('<img src="https://acme.test/logo.png"');
    expect(html).toContain('<strong><bdi>Sign in</bdi></strong>');
    // The custom message is text: escaped, never markup.
    expect(html).toContain('Welcome &lt;b&gt;back&lt;/b&gt; &amp; enjoy');
    expect(html).not.toContain('<b>back</b>');
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
  });

  it('keeps an EMAIL_FROM with a display name as it is', async () => {
    await new SmtpProvider({ url: smtp.url, from: 'Acme Security <sec@acme.test>', timeoutMs: 5000 }).send(
      email(),
    );
    expect(smtp.mails.at(-1)!.mail.from?.value[0]).toEqual({
      address: 'sec@acme.test',
      name: 'Acme Security',
    });
  });

  it('treats a 550 at RCPT TO as a refusal of the address', async () => {
    const p = new SmtpProvider({ url: smtp.url, from: 'codes@acme.test', timeoutMs: 5000 });
    const outcome = await p.send(email({ to: 'nobody@example.com' }));
    expect(outcome).toMatchObject({ ok: false, retryable: false, error: expect.stringContaining('550') });
  });

  it('treats an unreachable server as retryable and down', async () => {
    const p = new SmtpProvider({ url: 'smtp://127.0.0.1:1', from: 'codes@acme.test', timeoutMs: 2000 });
    expect(await p.send(email())).toMatchObject({ ok: false, retryable: true });
    expect(await p.check()).toBe('down');
    expect(await new SmtpProvider({ url: smtp.url, from: 'c@acme.test', timeoutMs: 5000 }).check()).toBe(
      'up',
    );
  });
});
