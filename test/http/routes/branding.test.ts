import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../../src/domain/accounts.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const SETTINGS = `/v1/admin/accounts/${DEFAULT_ACCOUNT_ID}/settings`;
const LOGO = `/v1/admin/accounts/${DEFAULT_ACCOUNT_ID}/logo`;
const PREVIEW = `/v1/admin/accounts/${DEFAULT_ACCOUNT_ID}/branding/preview`;

/** The smallest valid PNG signature followed by a little data: what the magic-byte check reads. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(32, 0)]);

const patch = (svc: TestService, body: unknown) =>
  svc.app.inject({
    method: 'PATCH',
    url: SETTINGS,
    headers: { ...admin, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const putLogo = (svc: TestService, type: string, body: Buffer) =>
  svc.app.inject({ method: 'PUT', url: LOGO, headers: { ...admin, 'content-type': type }, payload: body });

describe('branding settings: templates, footer, product name', () => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await startTestService({ BRAND_NAME: 'Acme' });
    key = await svc.createKey({ test: true });
  });
  afterAll(() => svc.close());

  it('saves the new fields, merges templates per locale and channel, and null resets', async () => {
    let res = await patch(svc, {
      branding: {
        productName: 'Acme Pay',
        emailFooter: 'Acme Inc.\n1 Main Street',
        templates: { es: { SMS: '{code} es tu código de {product}' }, de: { WHATSAPP: 'Code {code}' } },
      },
    });
    expect(res.statusCode).toBe(200);
    res = await patch(svc, { branding: { templates: { es: { WHATSAPP: '{code}!' }, de: null } } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.settings.branding).toEqual({
      productName: 'Acme Pay',
      emailFooter: 'Acme Inc.\n1 Main Street',
      templates: { es: { SMS: '{code} es tu código de {product}', WHATSAPP: '{code}!' } },
    });
    res = await patch(svc, { branding: { productName: null } });
    expect(res.json().data.settings.branding.productName).toBeUndefined();
    res = await patch(svc, { branding: null });
    expect(res.json().data.settings.branding).toBeUndefined();
  });

  it.each([
    [{ templates: { es: { SMS: 'Tu código' } } }, 'branding.templates.es.SMS', 'must contain {code}'],
    [{ templates: { fr: { WHATSAPP: 'Code {code} {name}' } } }, 'branding.templates.fr.WHATSAPP', '{name}'],
    [
      { templates: { de: { EMAIL: { subject: 'Code {otp}', text: '{code}' } } } },
      'branding.templates.de.EMAIL.subject',
      '{otp}',
    ],
    [
      { templates: { pt: { EMAIL: { subject: 'Code', text: 'sem código' } } } },
      'branding.templates.pt.EMAIL.text',
      'must contain {code}',
    ],
    [{ templates: { sw: { SMS: '{code}' } } }, 'branding.templates', 'sw'],
    [{ templates: { 'pt-br': { SMS: '{code}' } } }, 'branding.templates', 'pt-br'],
    [{ templates: { en: { SMS: 'x'.repeat(481) } } }, 'branding.templates.en.SMS', '480'],
    [{ templates: { en: { EMAIL: { subject: '{code}' } } } }, 'branding.templates.en.EMAIL', 'text'],
    [{ emailFooter: 'x'.repeat(501) }, 'branding.emailFooter', '500'],
    [{ productName: 'x'.repeat(61) }, 'branding.productName', '60'],
  ])('refuses %j with a detail naming the field', async (branding, field, words) => {
    const res = await patch(svc, { branding });
    expect(res.statusCode).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    const detail = body.error.details.find((d: { field: string }) => d.field.startsWith(field));
    expect(detail, JSON.stringify(body.error.details)).toBeDefined();
    expect(JSON.stringify(body.error.details)).toContain(words);
  });

  it('names the template of an account created with settings under settings.', async () => {
    const res = await svc.post(
      '/v1/admin/accounts',
      { name: 'X', settings: { branding: { templates: { es: { SMS: 'sin código' } } } } },
      ADMIN_TOKEN,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('settings.branding.templates.es.SMS');
  });

  it('shows a custom template in the next outbox message, in the locale of the send', async () => {
    expect(
      (
        await patch(svc, {
          branding: {
            productName: 'Acme Pay',
            templates: {
              es: { SMS: 'Código {product}: {code} ({minutes} min) para {purpose}' },
              de: {
                EMAIL: {
                  subject: 'Ihr Code für {product}',
                  text: 'Der Code lautet {code}.\nGültig {minutes} Minuten.',
                },
              },
            },
          },
        })
      ).statusCode,
    ).toBe(200);
    let sent = await svc.post(
      '/v1/contact/send-code',
      { channel: 'SMS', phone: '+14155552671', locale: 'es-MX', purpose: 'login' },
      key,
    );
    expect(sent.status).toBe(200);
    const sms = await svc.lastMessage('+14155552671');
    expect(sms.text).toMatch(/^Código Acme Pay: \d{6} \(10 min\) para login$/);

    sent = await svc.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: 'ana@example.com', locale: 'de-AT' },
      key,
    );
    expect(sent.status).toBe(200);
    const mail = await svc.lastMessage('ana@example.com');
    expect(mail.subject).toBe('Ihr Code für Acme Pay');
    expect(mail.text).toMatch(/^Der Code lautet \d{6}\.\nGültig 10 Minuten\.$/);
    expect(mail.html).toContain('Der Code lautet');
    expect(mail.html).toContain('<br>Gültig 10 Minuten.');

    // A locale without an override: the built-in French text; an unknown language: English.
    await svc.post('/v1/contact/send-code', { channel: 'SMS', phone: '+14155552672', locale: 'fr' }, key);
    expect((await svc.lastMessage('+14155552672')).text).toMatch(
      /^\d{6} est votre code de vérification Acme Pay\.$/,
    );
    await svc.post('/v1/contact/send-code', { channel: 'SMS', phone: '+14155552673', locale: 'xx' }, key);
    expect((await svc.lastMessage('+14155552673')).text).toMatch(
      /^\d{6} is your Acme Pay verification code\.$/,
    );
    expect((await patch(svc, { branding: null })).statusCode).toBe(200);
  });

  it('refuses a locale that is not a language tag', async () => {
    const res = await svc.post(
      '/v1/contact/send-code',
      { channel: 'SMS', phone: '+14155552671', locale: 'es MX' },
      key,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('locale');
  });

  it('escapes <script> in purpose, customMessage and template values in the email HTML', async () => {
    await patch(svc, {
      branding: {
        productName: '<script>p()</script>',
        emailFooter: '<script>f()</script>',
        templates: { en: { EMAIL: { subject: '{code}', text: '<script>t()</script> {code} {purpose}' } } },
      },
    });
    await svc.post(
      '/v1/contact/send-code',
      {
        channel: 'EMAIL',
        email: 'eve@example.com',
        purpose: '<script>u()</script>',
        customMessage: '<script>c()</script>',
      },
      key,
    );
    const mail = await svc.lastMessage('eve@example.com');
    expect(mail.html).not.toContain('<script>');
    for (const name of ['p', 'f', 't', 'u', 'c'])
      expect(mail.html).toContain(`&lt;script&gt;${name}()&lt;/script&gt;`);
    expect((await patch(svc, { branding: null })).statusCode).toBe(200);
  });

  it('lists the built-in texts of every language as templates, which PATCH settings takes as they are', async () => {
    const res = await svc.get('/v1/admin/branding/templates', ADMIN_TOKEN);
    expect(res.status).toBe(200);
    const entries = res.body.data as Array<{ locale: string; SMS: string; EMAIL: { subject: string } }>;
    expect(entries[0]).toMatchObject({
      locale: 'en',
      SMS: '{code} is your {product} verification code.',
      EMAIL: { subject: '{code} is your {product} verification code' },
    });
    expect(entries.map((e) => e.locale)).toContain('es');
    const templates = Object.fromEntries(entries.map(({ locale, ...t }) => [locale, t]));
    expect((await patch(svc, { branding: { templates } })).statusCode).toBe(200);
    await patch(svc, { branding: null });
    expect((await svc.get('/v1/admin/branding/templates')).status).toBe(401);
  });

  it('previews every channel with a draft, through the renderer of real messages', async () => {
    await patch(svc, { branding: { brandName: 'Saved Brand' } });
    const res = await svc.post(
      PREVIEW,
      {
        branding: { productName: 'Draft', templates: { pt: { SMS: '{code} é o código {product} 😀' } } },
        locale: 'pt-BR',
        purpose: 'login',
      },
      ADMIN_TOKEN,
    );
    expect(res.status).toBe(200);
    const data = res.body.data;
    // The draft's `pt` template (saved before Portuguese had two locales) applies to pt-BR.
    expect(data.locale).toBe('pt-BR');
    expect(data.direction).toBe('ltr');
    expect(data.EMAIL.subject).toBe('123456 é seu código de verificação Draft');
    expect(data.EMAIL.text).toContain('Solicitado para: login');
    expect(data.EMAIL.html).toContain('123456');
    expect(data.SMS).toEqual({
      text: '123456 é o código Draft 😀',
      encoding: 'UCS-2',
      characters: 26,
      segments: 1,
    });
    expect(data.WHATSAPP.text).toContain('*123456*');
    // The draft was not saved.
    const account = await svc.get(`/v1/admin/accounts/${DEFAULT_ACCOUNT_ID}`, ADMIN_TOKEN);
    expect(account.body.data.settings.branding).toEqual({ brandName: 'Saved Brand' });

    const english = await svc.post(PREVIEW, {}, ADMIN_TOKEN);
    expect(english.body.data.locale).toBe('en');
    expect(english.body.data.SMS).toMatchObject({
      text: '123456 is your Saved Brand verification code.',
      encoding: 'GSM-7',
      segments: 1,
    });

    const bad = await svc.post(PREVIEW, { branding: { templates: { es: { SMS: 'no code' } } } }, ADMIN_TOKEN);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('branding.templates.es.SMS');
    expect((await svc.post('/v1/admin/accounts/acc_nope/branding/preview', {}, ADMIN_TOKEN)).status).toBe(
      404,
    );
    expect((await svc.post(PREVIEW, {})).status).toBe(401);
    await patch(svc, { branding: null });
  });
});

eachStore('logo upload', (start) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await start({ PUBLIC_BASE_URL: 'https://verify.example.com' });
  });
  afterAll(() => svc.close());

  it('stores a logo, serves it publicly with nosniff, shows it on the account, and deletes it', async () => {
    const res = await putLogo(svc, 'image/png', PNG);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ contentType: 'image/png', bytes: PNG.length });
    expect(data.url).toMatch(/^https:\/\/verify\.example\.com\/v1\/branding\/acc_default\/logo\?v=\d+$/);

    const served = await svc.app.inject({ method: 'GET', url: `/v1/branding/${DEFAULT_ACCOUNT_ID}/logo` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.headers['cache-control']).toMatch(/^public/);
    expect(served.rawPayload.equals(PNG)).toBe(true);

    const account = await svc.get(`/v1/admin/accounts/${DEFAULT_ACCOUNT_ID}`, ADMIN_TOKEN);
    expect(account.body.data.settings.branding.logo).toEqual(data);

    // A new logo replaces the old one; the branding reset keeps the logo (it has its own endpoint).
    expect((await putLogo(svc, 'image/gif', GIF)).statusCode).toBe(200);
    await patch(svc, { branding: null });
    const after = await svc.get(`/v1/admin/accounts/${DEFAULT_ACCOUNT_ID}`, ADMIN_TOKEN);
    expect(after.body.data.settings.branding.logo.contentType).toBe('image/gif');

    // Emails use it, absolute, before logoUrl.
    await patch(svc, { branding: { logoUrl: 'https://cdn.example.com/logo.png' } });
    const key = await svc.createKey({ test: true });
    await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'logo@example.com' }, key);
    const mail = await svc.lastMessage('logo@example.com');
    expect(mail.html).toMatch(
      /<img src="https:\/\/verify\.example\.com\/v1\/branding\/acc_default\/logo\?v=\d+"/,
    );
    expect(mail.html).not.toContain('cdn.example.com');

    const deleted = await svc.app.inject({ method: 'DELETE', url: LOGO, headers: admin });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await svc.app.inject({ method: 'GET', url: `/v1/branding/${DEFAULT_ACCOUNT_ID}/logo` })).statusCode,
    ).toBe(404);
    const gone = await svc.get(`/v1/admin/accounts/${DEFAULT_ACCOUNT_ID}`, ADMIN_TOKEN);
    expect(gone.body.data.settings.branding).toEqual({ logoUrl: 'https://cdn.example.com/logo.png' });
    await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'logo2@example.com' }, key);
    expect((await svc.lastMessage('logo2@example.com')).html).toContain(
      '<img src="https://cdn.example.com/logo.png"',
    );
    await patch(svc, { branding: null });
  });

  it('refuses bytes that are not the declared type (400), too big (413), another type (415)', async () => {
    const mismatch = await putLogo(svc, 'image/jpeg', PNG);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'body' }] });
    expect((await putLogo(svc, 'image/png', Buffer.from('not an image at all'))).statusCode).toBe(400);
    const empty = await putLogo(svc, 'image/png', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details[0]).toEqual({ field: 'body', message: 'the body must be the image' });

    const big = await putLogo(svc, 'image/png', Buffer.concat([PNG, Buffer.alloc(100 * 1024)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(big.json().error.message).toContain(String(100 * 1024));
    // Just at the bound is accepted.
    const exact = Buffer.concat([PNG, Buffer.alloc(100 * 1024 - PNG.length)]);
    expect((await putLogo(svc, 'image/png', exact)).statusCode).toBe(200);

    for (const type of ['image/svg+xml', 'text/plain', 'application/json']) {
      const res = await putLogo(svc, type, Buffer.from(type === 'application/json' ? '{}' : '<svg/>'));
      expect(res.statusCode, type).toBe(415);
      expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // The app's other routes keep their 16 KiB bound.
    const json = await svc.app.inject({
      method: 'PATCH',
      url: SETTINGS,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ branding: { emailFooter: 'x'.repeat(20_000) } }),
    });
    expect(json.statusCode).toBe(413);
    expect(json.json().error.message).toContain('16384');
  });

  it('answers 404 for an unknown account and 401 without the admin token', async () => {
    const unknown = await svc.app.inject({
      method: 'PUT',
      url: '/v1/admin/accounts/acc_nope/logo',
      headers: { ...admin, 'content-type': 'image/png' },
      payload: PNG,
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      (await svc.app.inject({ method: 'DELETE', url: '/v1/admin/accounts/acc_nope/logo', headers: admin }))
        .statusCode,
    ).toBe(404);
    const anonymous = await svc.app.inject({
      method: 'PUT',
      url: LOGO,
      headers: { 'content-type': 'image/png' },
      payload: PNG,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await svc.app.inject({ method: 'GET', url: '/v1/branding/acc_nope/logo' })).statusCode).toBe(404);
  });
});
