import { describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../../src/delivery/interface.js';
import { LOCALE_TEXTS } from '../../src/delivery/locales/index.js';
import { renderMessage } from '../../src/delivery/messages.js';
import { encodeOutboxContent, renderOutboxEntry } from '../../src/delivery/outbox/outbox-content.js';
import { smsSegments } from '../../src/delivery/sms-segments.js';
import { mergeBranding } from '../../src/domain/branding.js';
import { sniffImageType } from '../../src/domain/logo.js';
import {
  fillTemplate,
  LOCALES,
  type Locale,
  resolveLocale,
  templatesProblems,
  templateTextProblems,
} from '../../src/domain/templates.js';
import { deliveryRequest } from './support/request.js';

const values = { code: '123456', minutes: '10', product: 'Acme', purpose: 'login' };

describe('templates: placeholders and their rules', () => {
  it.each([
    ['{code}', '123456'],
    ['{minutes} min', '10 min'],
    ['{product}', 'Acme'],
    ['for {purpose}', 'for login'],
    ['{code} {code}', '123456 123456'],
    ['{other} and { code }', '{other} and { code }'],
  ])('fills %j as %j', (template, expected) => {
    expect(fillTemplate(template, values)).toBe(expected);
  });

  it('substitutes values as text, once: a value holding a placeholder stays as it is', () => {
    expect(fillTemplate('{purpose}: {code}', { ...values, purpose: '{code}' })).toBe('{code}: 123456');
  });

  it('refuses unknown placeholders and a body without {code}; a subject may go without', () => {
    expect(templateTextProblems('{code} {name} {x}', 'f', true)).toEqual([
      {
        field: 'f',
        message: 'f uses {name}, {x}; the placeholders are {code}, {minutes}, {product} and {purpose}',
      },
    ]);
    expect(templateTextProblems('no code', 'f', true)).toEqual([
      { field: 'f', message: 'f must contain {code}' },
    ]);
    expect(templateTextProblems('Your {product} code', 'f', false)).toEqual([]);
    expect(templateTextProblems('{code} {minutes} {product} {purpose}', 'f', true)).toEqual([]);
  });

  it('names each template of a templates object by its path', () => {
    const problems = templatesProblems({
      es: { SMS: 'x', WHATSAPP: '{code}' },
      de: { EMAIL: { subject: '{nope}', text: 'y' } },
      fr: null,
    });
    expect(problems.map((p) => p.field)).toEqual([
      'branding.templates.es.SMS',
      'branding.templates.de.EMAIL.subject',
      'branding.templates.de.EMAIL.text',
    ]);
  });
});

describe('locale resolution', () => {
  it.each([
    ['en', 'en'],
    ['es', 'es'],
    ['fr-CA', 'fr'],
    ['de-AT', 'de'],
    ['pt-BR', 'pt-BR'],
    ['PT_br', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['pt-AO', 'pt-PT'],
    ['xx', 'en'],
    ['zh-Hant-TW', 'zh-TW'],
    ['en-a', 'en'],
    [undefined, 'en'],
  ])('%s → %s', (tag, locale) => {
    expect(resolveLocale(tag)).toBe(locale);
  });
});

const request = (overrides: Partial<DeliveryRequest>) =>
  deliveryRequest({ code: '123456', purpose: 'login', ...overrides });

describe('built-in texts in every locale', () => {
  const words: Partial<Record<Locale, RegExp>> = {
    en: /verification code/,
    es: /código de verificación/,
    fr: /code de vérification/,
    de: /Bestätigungscode/,
    'pt-BR': /código de verificação/,
  };
  it.each(LOCALES.filter((l) => words[l]))(
    '%s: email, SMS, WhatsApp and the voice call are written in it',
    (locale) => {
      const email = renderMessage(request({ channel: 'EMAIL', to: 'a@example.com', locale }));
      const word = words[locale] as RegExp;
      expect(email.subject).toMatch(word);
      expect(email.subject).toContain('123456');
      const { requestedFor, colon } = LOCALE_TEXTS[locale].email;
      expect(email.text).toContain(`${requestedFor}${colon}login`);
      expect(email.html).toContain(`<html lang="${locale}" dir="ltr">`);
      expect(email.html).toContain(LOCALE_TEXTS[locale].email.requestedFor);
      const sms = renderMessage(request({ channel: 'SMS', locale }));
      expect(sms.text).toMatch(word);
      const whatsapp = renderMessage(request({ channel: 'WHATSAPP', locale }));
      expect(whatsapp.text).toContain('*123456*');
      const call = renderMessage(request({ channel: 'WHATSAPP', deliveryType: 'CALL', locale }));
      expect(call.text).toContain(LOCALE_TEXTS[locale].voiceCall);
      expect(call.text).toContain('1, 2, 3, 4, 5, 6');
    },
  );

  it('leaves the English texts as they were', () => {
    const email = renderMessage(
      request({ channel: 'EMAIL', to: 'a@example.com', locale: 'en', codeTtlSeconds: 60 }),
    );
    expect(email.subject).toBe('123456 is your Acme verification code');
    expect(email.text).toBe(
      'Your Acme verification code is: 123456\n\nRequested for: login\nThe code expires in 1 minute. If you did not ask for it, ignore this email.',
    );
    expect(renderMessage(request({ channel: 'SMS', locale: 'en' })).text).toBe(
      '123456 is your Acme verification code.',
    );
    expect(renderMessage(request({ channel: 'WHATSAPP', locale: 'en' })).text).toBe(
      '*123456* is your verification code. For your security, do not share this code.',
    );
  });

  it('uses an account template for its locale and channel only', () => {
    const branding = {
      brandName: 'Acme',
      productName: 'Acme Pay',
      color: '#2563eb',
      templates: { es: { SMS: '{product}: {code}', WHATSAPP: 'WA {code}' } },
    };
    expect(renderMessage(request({ channel: 'SMS', locale: 'es', branding })).text).toBe('Acme Pay: 123456');
    expect(renderMessage(request({ channel: 'WHATSAPP', locale: 'es', branding })).text).toBe('WA 123456');
    expect(renderMessage(request({ channel: 'SMS', locale: 'fr', branding })).text).toBe(
      '123456 est votre code de vérification Acme Pay.',
    );
    // A voice call keeps its built-in script.
    expect(
      renderMessage(request({ channel: 'WHATSAPP', deliveryType: 'CALL', locale: 'es', branding })).text,
    ).toMatch(/^Llamada de voz: "Tu código/);
  });

  it('puts the footer under the email, escaped, and prefers an uploaded logo the deployment can link to', () => {
    const branding = {
      brandName: 'Acme',
      color: '#2563eb',
      logoUrl: 'https://cdn.example.com/l.png',
      emailFooter: 'Acme & Co <b>',
      logo: { contentType: 'image/png', bytes: 10, version: 42 },
    };
    const r = request({ channel: 'EMAIL', to: 'a@example.com', branding });
    const linked = renderMessage(r, { publicBaseUrl: 'https://v.example.com' });
    expect(linked.html).toContain('<img src="https://v.example.com/v1/branding/acc_default/logo?v=42"');
    expect(linked.html).toContain('Acme &amp; Co &lt;b&gt;');
    expect(linked.text.endsWith('\n\nAcme & Co <b>')).toBe(true);
    // Without PUBLIC_BASE_URL there is no absolute URL to give: logoUrl is used.
    expect(renderMessage(r).html).toContain('<img src="https://cdn.example.com/l.png"');
  });

  it("keeps only the message's own template in the outbox content", () => {
    const branding = {
      brandName: 'Acme',
      color: '#2563eb',
      templates: { es: { SMS: 'ES {code}', WHATSAPP: 'WA {code}' }, de: { SMS: 'DE {code}' } },
    };
    const kept = JSON.parse(encodeOutboxContent(request({ channel: 'SMS', locale: 'es', branding })));
    expect(kept.request.branding.templates).toEqual({ es: { SMS: 'ES {code}' } });
    const none = JSON.parse(encodeOutboxContent(request({ channel: 'SMS', locale: 'fr', branding })));
    expect(none.request.branding.templates).toBeUndefined();
    const entry = {
      verificationId: 'v',
      // The request's row has them (version 2 of the content leaves them out).
      channel: 'SMS',
      sentTo: '+447400123456',
      accountId: 'acc_default',
      content: JSON.stringify(kept),
      code: '123456',
      createdAt: 0,
    };
    expect(renderOutboxEntry(entry as never).text).toBe('ES 123456');
    // Once its request settled the store keeps no code: the message shows it masked.
    expect(renderOutboxEntry({ ...entry, code: null } as never).text).toBe('ES ******');
  });

  it('renders an outbox message kept before locales existed in English', () => {
    const content = JSON.parse(encodeOutboxContent(request({ channel: 'SMS', locale: 'en' })));
    expect(content.request.locale).toBeUndefined();
    const entry = {
      verificationId: 'v',
      // The request's row has them (version 2 of the content leaves them out).
      channel: 'SMS',
      sentTo: '+447400123456',
      accountId: 'acc_default',
      content: JSON.stringify(content),
      code: '123456',
      createdAt: 0,
    };
    expect(renderOutboxEntry(entry as never).text).toBe('123456 is your Acme verification code.');
    const spanish = encodeOutboxContent(request({ channel: 'SMS', locale: 'es' }));
    expect(renderOutboxEntry({ ...entry, content: spanish } as never).text).toBe(
      '123456 es tu código de verificación de Acme.',
    );
  });
});

describe('branding changes', () => {
  it('merge partially, reset with null, and keep the uploaded logo', () => {
    const logo = { contentType: 'image/png', bytes: 1, version: 1 };
    const saved = { brandName: 'A', color: '#000000', logo, templates: { es: { SMS: '{code}' } } };
    expect(mergeBranding(saved, { color: null, templates: { es: { WHATSAPP: '{code}' } } })).toEqual({
      brandName: 'A',
      logo,
      templates: { es: { SMS: '{code}', WHATSAPP: '{code}' } },
    });
    expect(mergeBranding(saved, { templates: { es: { SMS: null } } })).toEqual({
      brandName: 'A',
      color: '#000000',
      logo,
    });
    expect(mergeBranding(saved, null)).toEqual({ logo });
    expect(mergeBranding({ brandName: 'A' }, null)).toBeUndefined();
    expect(mergeBranding(saved, { logo: null })).toEqual(saved);
  });
});

describe('logo magic bytes', () => {
  it.each([
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0], 'image/png'],
    [[0xff, 0xd8, 0xff, 0xe0], 'image/jpeg'],
    [[...Buffer.from('GIF87a')], 'image/gif'],
    [[...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 ')], 'image/webp'],
    [[...Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')], null],
    [[...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WAVE')], null],
    [[0x89, 0x50], null],
  ])('%j is %s', (bytes, type) => {
    expect(sniffImageType(Buffer.from(bytes as number[]))).toBe(type);
  });
});

describe('SMS segments', () => {
  it.each([
    ['a'.repeat(160), 'GSM-7', 160, 1],
    ['a'.repeat(161), 'GSM-7', 161, 2],
    ['a'.repeat(306), 'GSM-7', 306, 2],
    ['a'.repeat(307), 'GSM-7', 307, 3],
    ['Ñandù ¿sì? àèéìòù ÄÖÜß @£$¥', 'GSM-7', 27, 1],
    ['ú', 'UCS-2', 1, 1],
    // Extension characters take two septets each.
    ['€'.repeat(80), 'GSM-7', 160, 1],
    ['€'.repeat(81), 'GSM-7', 162, 2],
    ['[]{}|^~\\€', 'GSM-7', 18, 1],
    // One character outside GSM-7 makes the whole message UCS-2.
    [`${'a'.repeat(69)}ó`, 'UCS-2', 70, 1],
    [`${'a'.repeat(70)}ó`, 'UCS-2', 71, 2],
    [`${'a'.repeat(133)}ç`, 'UCS-2', 134, 2],
    [`${'a'.repeat(134)}ç`, 'UCS-2', 135, 3],
    // An emoji is two UTF-16 units.
    ['😀'.repeat(35), 'UCS-2', 70, 1],
    ['😀'.repeat(36), 'UCS-2', 72, 2],
  ])('%j: %s, %i units, %i part(s)', (text, encoding, characters, segments) => {
    expect(smsSegments(text)).toEqual({ encoding, characters, segments });
  });

  it('does not split a two-septet character or an emoji across parts', () => {
    // 152 septets, then € (2): it cannot end the first 153-septet part.
    expect(smsSegments(`${'a'.repeat(152)}€${'a'.repeat(10)}`)).toEqual({
      encoding: 'GSM-7',
      characters: 164,
      segments: 2,
    });
    expect(smsSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`)).toEqual({
      encoding: 'GSM-7',
      characters: 306,
      segments: 3,
    });
    // 66 units, then an emoji (2): it starts the second 67-unit part.
    expect(smsSegments(`${'a'.repeat(66)}😀${'a'.repeat(65)}`)).toEqual({
      encoding: 'UCS-2',
      characters: 133,
      segments: 2,
    });
    expect(smsSegments(`${'a'.repeat(66)}😀${'a'.repeat(66)}`)).toEqual({
      encoding: 'UCS-2',
      characters: 134,
      segments: 3,
    });
  });
});

describe('an outbox message as kept', () => {
  it('takes its channel and address from its request (version 2), or from itself (kept before)', () => {
    const content = encodeOutboxContent(request({ channel: 'EMAIL', to: 'Ann@Example.com' }));
    expect(JSON.parse(content)).toMatchObject({ v: 2 });
    expect(content).not.toMatch(/Ann@Example\.com|"channel"/);
    const entry = {
      verificationId: 'v',
      accountId: 'acc_default',
      channel: 'EMAIL',
      to: 'ann@example.com',
      sentTo: 'Ann@Example.com',
      content,
      code: '123456',
      createdAt: 0,
    };
    expect(renderOutboxEntry(entry as never)).toMatchObject({ channel: 'EMAIL', to: 'Ann@Example.com' });
    const before = JSON.parse(content);
    before.v = 1;
    before.request.channel = 'EMAIL';
    before.request.to = 'kept@example.com';
    expect(renderOutboxEntry({ ...entry, content: JSON.stringify(before) } as never)).toMatchObject({
      channel: 'EMAIL',
      to: 'kept@example.com',
    });
  });

  it('leaves out a text delivery and the default branding, and reads them back as such', () => {
    const plain = { brandName: 'Contact Verify', color: '#2563eb' };
    const entry = (content: string, channel = 'EMAIL') => ({
      verificationId: 'v',
      accountId: 'acc_default',
      channel,
      to: 'ann@example.com',
      sentTo: 'ann@example.com',
      content,
      code: '123456',
      createdAt: 0,
    });
    const email = request({ channel: 'EMAIL', to: 'ann@example.com', branding: plain });
    const content = encodeOutboxContent(email);
    expect(JSON.parse(content)).toEqual({
      v: 2,
      request: { code: '******', codeTtlSeconds: 600, purpose: 'login' },
    });
    // The same message with every field written out, as the version before this one kept it.
    const full = JSON.parse(content);
    full.request.deliveryType = 'TEXT';
    full.request.branding = plain;
    const rendered = renderOutboxEntry(entry(content) as never);
    expect(rendered).toEqual(renderOutboxEntry(entry(JSON.stringify(full)) as never));
    expect(rendered.subject).toContain('Contact Verify');
    expect(rendered.html).toContain('#2563eb');
    // A branding that differs from the default in anything is kept whole.
    for (const branding of [
      { ...plain, color: '#000000' },
      { ...plain, brandName: 'Acme' },
      { ...plain, supportUrl: 'https://acme.example/help' },
      { ...plain, templates: { en: { SMS: 'Code {code}' } } },
    ]) {
      const kept = JSON.parse(encodeOutboxContent(request({ channel: 'SMS', branding })));
      expect(kept.request.branding).toEqual(branding);
    }

    // Any other delivery is kept, and rendered as such.
    const call = request({ channel: 'WHATSAPP', deliveryType: 'CALL', branding: plain });
    const keptCall = encodeOutboxContent(call);
    expect(JSON.parse(keptCall).request.deliveryType).toBe('CALL');
    const asText = JSON.parse(keptCall);
    delete asText.request.deliveryType;
    expect(renderOutboxEntry(entry(keptCall, 'WHATSAPP') as never)).not.toEqual(
      renderOutboxEntry(entry(JSON.stringify(asText), 'WHATSAPP') as never),
    );
  });
});
