import { describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../../src/delivery/interface.js';
import { type ProviderVoices, renderMessage, renderSms, speechFor } from '../../src/delivery/messages.js';
import { encodeOutboxContent, renderOutboxEntry } from '../../src/delivery/outbox/outbox-content.js';
import { TELNYX_VOICES } from '../../src/delivery/providers/telnyx/telnyx.voices.js';
import { TWILIO_VOICES } from '../../src/delivery/providers/twilio/twilio.voices.js';
import { VONAGE_VOICES } from '../../src/delivery/providers/vonage/vonage.voices.js';
import { LOCALES, type Locale } from '../../src/domain/locales.js';
import type { Branding } from '../../src/domain/types.js';
import { deliveryRequest } from './support/request.js';

const request = (overrides: Partial<DeliveryRequest>) =>
  deliveryRequest({ code: '123456', purpose: 'login', ...overrides });

describe('right-to-left email', () => {
  it.each(['ar', 'he', 'fa'] as const)(
    '%s: sets lang and dir, aligns right, and keeps the code a left-to-right paragraph',
    (locale) => {
      const { html } = renderMessage(request({ channel: 'EMAIL', to: 'a@example.com', locale }));
      expect(html).toContain(`<html lang="${locale}" dir="rtl">`);
      expect(html).toContain('<body dir="rtl"');
      expect(html).toContain('<table role="presentation" dir="rtl"');
      expect(html).toContain('<td style="text-align:right">');
      expect(html).toMatch(/<p dir="ltr" style="[^"]*text-align:right[^"]*">123456<\/p>/);
      // The product and purpose are isolated: a Latin name cannot reorder the words around it.
      expect(html).toContain('<bdi>Acme</bdi>');
      expect(html).toContain('<bdi>login</bdi>');
    },
  );

  it('leaves left-to-right emails aligned left', () => {
    const { html } = renderMessage(request({ channel: 'EMAIL', to: 'a@example.com', locale: 'de' }));
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<td style="text-align:left">');
  });
});

describe('templates saved under `pt`', () => {
  const branding: Branding = {
    brandName: 'Acme',
    color: '#2563eb',
    templates: { pt: { SMS: 'PT {code}', WHATSAPP: 'WA {code}' }, 'pt-PT': { SMS: 'PT-PT {code}' } },
  };

  it('apply to pt-BR and pt-PT, channel by channel, where the locale has none of its own', () => {
    expect(renderMessage(request({ channel: 'SMS', locale: 'pt-BR', branding })).text).toBe('PT 123456');
    expect(renderMessage(request({ channel: 'SMS', locale: 'pt-PT', branding })).text).toBe('PT-PT 123456');
    expect(renderMessage(request({ channel: 'WHATSAPP', locale: 'pt-PT', branding })).text).toBe('WA 123456');
    // Not another language.
    expect(renderMessage(request({ channel: 'SMS', locale: 'es', branding })).text).toMatch(/^123456 es tu/);
  });

  it('are kept in the outbox content under the locale the message was written in', () => {
    const kept = JSON.parse(encodeOutboxContent(request({ channel: 'SMS', locale: 'pt-BR', branding })));
    expect(kept.request.branding.templates).toEqual({ 'pt-BR': { SMS: 'PT {code}' } });
  });
});

describe('outbox messages kept before the split of Portuguese', () => {
  it('render their `pt` in Brazilian Portuguese, with the templates they kept', () => {
    const content = JSON.parse(encodeOutboxContent(request({ channel: 'SMS', locale: 'pt-BR' })));
    content.request.locale = 'pt';
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
    expect(renderOutboxEntry(entry as never).text).toBe('123456 é seu código de verificação Acme.');
    content.request.branding.templates = { pt: { SMS: 'Código {code}' } };
    expect(renderOutboxEntry({ ...entry, content: JSON.stringify(content) } as never).text).toBe(
      'Código 123456',
    );
  });

  it('keep the one-tap lines they were sent with', () => {
    const r = request({
      channel: 'SMS',
      locale: 'en',
      webOtpHost: 'app.example.com',
      appHash: 'FA+9qCX9VSu',
    });
    const entry = {
      verificationId: 'v',
      // The request's row has them (version 2 of the content leaves them out).
      channel: 'SMS',
      sentTo: '+447400123456',
      accountId: 'a',
      content: encodeOutboxContent(r),
      code: '123456',
      createdAt: 0,
    };
    expect(renderOutboxEntry(entry as never).text).toBe(renderSms(r));
    expect(renderSms(r).endsWith('\n\nFA+9qCX9VSu\n@app.example.com #123456')).toBe(true);
  });
});

describe('the WebOTP host', () => {
  it("is the account's when it sets one, else the deployment's", () => {
    const sms = (r: Partial<DeliveryRequest>) =>
      renderMessage(request({ channel: 'SMS', ...r }), { webOtpDomain: 'deploy.example.com' }).text;
    expect(sms({}).endsWith('\n\n@deploy.example.com #123456')).toBe(true);
    expect(sms({ webOtpHost: 'acme.example' }).endsWith('\n\n@acme.example #123456')).toBe(true);
    expect(sms({ appHash: 'FA+9qCX9VSu' }).endsWith('\n\nFA+9qCX9VSu\n@deploy.example.com #123456')).toBe(
      true,
    );
    expect(renderMessage(request({ channel: 'SMS', appHash: 'FA+9qCX9VSu' })).text).toBe(
      '123456 is your Acme verification code.\n\nFA+9qCX9VSu',
    );
  });
});

describe('speech per provider', () => {
  const tables: Record<string, ProviderVoices<{ language: string }>> = {
    twilio: TWILIO_VOICES,
    vonage: VONAGE_VOICES,
    telnyx: TELNYX_VOICES,
  };

  it.each(Object.entries(tables))('%s: a voice in the locale, or English where it has none', (_, voices) => {
    for (const locale of LOCALES) {
      const { locale: spoken, voice, script } = speechFor(request({ locale }), voices);
      const own = (voices as Partial<Record<Locale, { language: string }>>)[locale];
      expect(spoken).toBe(own ? locale : 'en');
      expect(voice).toBe(own ?? voices.en);
      expect(script[0]).toContain('1, 2, 3, 4, 5, 6');
      if (own) {
        // The provider's code for the locale's language (zh → cmn, its Mandarin).
        const language = new Intl.Locale(own.language).language;
        const expected = new Intl.Locale(locale).language;
        expect(
          language === expected || (expected === 'zh' && language === 'cmn'),
          `${locale}: ${own.language}`,
        ).toBe(true);
      }
    }
  });

  it('Persian has a voice only on Telnyx (Azure); Twilio and Vonage read its calls in English', () => {
    expect(TWILIO_VOICES.fa).toBeUndefined();
    expect(VONAGE_VOICES.fa).toBeUndefined();
    expect(TELNYX_VOICES.fa?.voice).toBe('Azure.fa-IR-DilaraNeural');
    expect(speechFor(request({ locale: 'fa' }), TWILIO_VOICES).script[0]).toBe(
      'Your Acme verification code is 1, 2, 3, 4, 5, 6.',
    );
    const missing = LOCALES.filter((l) => !TWILIO_VOICES[l] || !VONAGE_VOICES[l] || !TELNYX_VOICES[l]);
    expect(missing).toEqual(['fa']);
  });
});
