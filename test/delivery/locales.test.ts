import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../../src/delivery/interface.js';
import { LOCALE_TEXTS, type LocaleTexts } from '../../src/delivery/locales/index.js';
import {
  espeakSpeech,
  expiresSentence,
  MIN_SMS_PRODUCT,
  renderMessage,
  renderSms,
  voiceScript,
} from '../../src/delivery/messages.js';
import { smsSegments } from '../../src/delivery/sms-segments.js';
import { LOCALES, type Locale, textDirection } from '../../src/domain/locales.js';
import { recordSkip } from '../support/skips.js';
import { deliveryRequest } from './support/request.js';

/**
 * Every locale's built-in texts, in every channel: complete, with only the placeholders each text
 * may use, in the locale's script, with a plural form for every count of minutes, and every SMS
 * in one segment with a 10-digit code and the longest product name the settings allow.
 */

const CODE = '1234567890';
/** BrandingPatch's bound on brandName and productName. */
const LONGEST_NAME = 60;

const request = (locale: Locale, overrides: Partial<DeliveryRequest> = {}) =>
  deliveryRequest({ locale, code: '123456', purpose: 'login', ...overrides });

const placeholdersOf = (text: string) => [...text.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]).sort();

/** Every text of a locale with the placeholders it may use. */
function textsWithPlaceholders(t: LocaleTexts): Array<[string, string, string[]]> {
  const message = ['code', 'minutes', 'product', 'purpose'];
  return [
    ['email.subject', t.email.subject, message],
    ['email.text', t.email.text, message],
    ['email.heading', t.email.heading, message],
    ['email.requestedFor', t.email.requestedFor, []],
    ...Object.entries(t.email.expires).map(([k, v]): [string, string, string[]] => [
      `email.expires.${k}`,
      v,
      message,
    ]),
    ['email.help', t.email.help, []],
    ['email.linkButton', t.email.linkButton, []],
    ['email.linkIntro', t.email.linkIntro, []],
    ['email.linkText', t.email.linkText, ['link']],
    ...Object.entries(t.linkPage).map(([k, v]): [string, string, string[]] => [
      `linkPage.${k}`,
      v,
      ['address', 'product'],
    ]),
    ['sms', t.sms, message],
    ['whatsapp', t.whatsapp, message],
    ['voice.0', t.voice[0], message],
    ['voice.1', t.voice[1], message],
    ['voiceCall', t.voiceCall, []],
    ['whatsappCall.permissionBody', t.whatsappCall.permissionBody, ['product']],
  ];
}

/** The script each locale is written in (what its SMS must contain). */
const SCRIPTS: Partial<Record<Locale, RegExp>> = {
  el: /\p{Script=Greek}/u,
  ru: /\p{Script=Cyrillic}/u,
  uk: /\p{Script=Cyrillic}/u,
  ar: /\p{Script=Arabic}/u,
  fa: /\p{Script=Arabic}/u,
  he: /\p{Script=Hebrew}/u,
  hi: /\p{Script=Devanagari}/u,
  bn: /\p{Script=Bengali}/u,
  'zh-CN': /验证码/,
  'zh-TW': /驗證碼/,
  ja: /\p{Script=Katakana}/u,
  ko: /\p{Script=Hangul}/u,
  th: /\p{Script=Thai}/u,
};

describe.each(LOCALES)('%s', (locale) => {
  const t = LOCALE_TEXTS[locale];

  it('has every text, each with only the placeholders it may use', () => {
    for (const [name, text, allowed] of textsWithPlaceholders(t)) {
      expect(text.trim(), `${locale} ${name}`).not.toBe('');
      for (const p of placeholdersOf(text)) expect(allowed, `${locale} ${name}: {${p}}`).toContain(p);
    }
    for (const [name, text] of [
      ['email.subject', t.email.subject],
      ['email.text', t.email.text],
      ['sms', t.sms],
      ['voice.0', t.voice[0]],
      ['voice.1', t.voice[1]],
    ]) {
      expect(text, `${locale} ${name}`).toContain('{code}');
    }
    expect(t.whatsapp).toContain('*{code}*');
    // The SMS's fit depends only on these two (messages.ts keeps each name's cut by them).
    expect(placeholdersOf(t.sms)).toEqual(['code', 'product']);
    expect(t.email.linkText).toContain('{link}');
    expect(t.linkPage.prompt).toContain('{address}');
    expect(t.whatsappCall.permissionBody).toContain('{product}');
    expect(Intl.getCanonicalLocales(t.voiceLanguage)).toEqual([t.voiceLanguage]);
    expect(new Intl.Locale(t.voiceLanguage).language).toBe(new Intl.Locale(locale).language);
  });

  it('has the plural form its rules choose for every lifetime from 1 to 30 minutes', () => {
    const rules = new Intl.PluralRules(locale);
    for (let n = 1; n <= 30; n++) {
      const category = rules.select(n);
      expect(t.email.expires[category], `${locale}: ${n} is "${category}"`).toBeDefined();
      expect(expiresSentence(locale, n)).toBe(t.email.expires[category]);
      // From 3 on, every language writes the number; one and two may be words (Arabic, Hebrew).
      if (n >= 3) expect(t.email.expires[category], `${locale}: ${n}`).toContain('{minutes}');
    }
  });

  it('renders the email, SMS, WhatsApp message, WhatsApp call and voice call in it', () => {
    const email = renderMessage(request(locale, { channel: 'EMAIL', to: 'a@example.com' }));
    expect(email.subject).toContain('123456');
    expect(email.text).toContain(`${t.email.requestedFor}${t.email.colon}login`);
    expect(email.html).toContain(`<html lang="${locale}" dir="${textDirection(locale)}">`);
    expect(email.html).toContain('<p dir="ltr"');
    const sms = renderMessage(request(locale, { channel: 'SMS' })).text;
    expect(sms).toContain('123456');
    expect(sms).toContain('Acme');
    const script = SCRIPTS[locale];
    if (script) {
      expect(sms).toMatch(script);
      expect(email.subject).toMatch(script);
    }
    expect(renderMessage(request(locale, { channel: 'WHATSAPP' })).text).toContain('*123456*');
    const call = renderMessage(request(locale, { channel: 'WHATSAPP', deliveryType: 'CALL' })).text;
    expect(call).toContain(t.voiceCall);
    expect(call).toContain('1, 2, 3, 4, 5, 6');
    const [first, again] = voiceScript(request(locale));
    expect(first).toContain('1, 2, 3, 4, 5, 6');
    expect(again).toContain('1, 2, 3, 4, 5, 6');
  });

  it.each([
    ['a Latin name', 'W'.repeat(LONGEST_NAME)],
    ['a name outside GSM-7', `Ł${'w'.repeat(LONGEST_NAME - 1)}`],
  ])('sends its SMS as one segment with a 10-digit code and %s of the longest length', (_, name) => {
    const text = renderSms(request(locale, { code: CODE, branding: { brandName: name, color: '#000' } }));
    expect(smsSegments(text).segments, text).toBe(1);
    expect(text).toContain(CODE);
    // The name is cut, never dropped below the point where it still says who sent the code.
    expect(text).toContain(name.slice(0, MIN_SMS_PRODUCT));
  });

  it('ends its SMS with the app hash and then the WebOTP line, the last line', () => {
    const text = renderSms(
      request(locale, { code: CODE, webOtpHost: 'login.example.com', appHash: 'FA+9qCX9VSu' }),
    );
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe(`@login.example.com #${CODE}`);
    expect(lines.at(-2)).toBe('FA+9qCX9VSu');
    expect(lines.at(-3)).toBe('');
  });

  it('has an espeak-ng voice and says every digit of the code', () => {
    const { voice, script } = espeakSpeech(request(locale, { code: CODE }));
    expect(voice).toBe(t.whatsappCall.espeakVoice);
    const digits = t.whatsappCall.espeakDigits;
    if (digits) expect(digits).toHaveLength(10);
    for (const sentence of script) {
      for (const d of CODE.split('')) expect(sentence).toContain(digits?.[Number(d)] ?? d);
    }
  });
});

describe('the one-tap lines and the one-segment promise', () => {
  const gsm = LOCALES.filter((l) => smsSegments(renderSms(request(l))).encoding === 'GSM-7');

  it('GSM-7 is used by the locales whose language is written in it', () => {
    expect(gsm).toEqual(['en', 'fr', 'de', 'it', 'nl', 'pl', 'sv', 'da', 'nb', 'fi', 'ro', 'tr', 'id']);
  });

  it.each(gsm)(
    '%s: one segment still, with both one-tap lines, a 30-character host and the longest name',
    (locale) => {
      const text = renderSms(
        request(locale, {
          code: CODE,
          webOtpHost: `${'a'.repeat(18)}.example.com`,
          appHash: 'FA+9qCX9VSu',
          branding: { brandName: 'W'.repeat(LONGEST_NAME), color: '#000' },
        }),
      );
      expect(smsSegments(text).segments, text).toBe(1);
    },
  );

  it('keeps the whole name when even a cut one cannot fit: the message takes two segments', () => {
    const text = renderSms(
      request('ru', {
        code: CODE,
        webOtpHost: 'login.example.com',
        appHash: 'FA+9qCX9VSu',
        branding: { brandName: 'W'.repeat(LONGEST_NAME), color: '#000' },
      }),
    );
    expect(text).toContain('W'.repeat(LONGEST_NAME));
    expect(smsSegments(text).segments).toBe(2);
  });

  it("leaves an account's template as it is, however many segments it takes", () => {
    const branding = {
      brandName: 'W'.repeat(LONGEST_NAME),
      color: '#000',
      templates: { en: { SMS: '{product} {product} {code}' } },
    };
    const text = renderSms(request('en', { code: CODE, branding }));
    expect(text).toBe(`${'W'.repeat(LONGEST_NAME)} ${'W'.repeat(LONGEST_NAME)} ${CODE}`);
  });
});

describe('locales side by side', () => {
  it('no two locales send the same SMS or email subject', () => {
    for (const field of ['sms', 'subject'] as const) {
      const texts = LOCALES.map((l) =>
        field === 'sms' ? LOCALE_TEXTS[l].sms : LOCALE_TEXTS[l].email.subject,
      );
      expect(new Set(texts).size, field).toBe(LOCALES.length);
    }
  });
});

function espeakVoices(): Set<string> | null {
  try {
    const out = execFileSync('espeak-ng', ['--voices'], { encoding: 'utf8' });
    return new Set(
      out
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/)[1])
        .filter((v): v is string => Boolean(v)),
    );
  } catch {
    return null;
  }
}

const voices = espeakVoices();
if (!voices) recordSkip('espeak-ng is not installed (apt install espeak-ng)');

describe.skipIf(!voices)('espeak-ng reads each locale', () => {
  it.each(LOCALES)(
    '%s: the voice exists and reads the sentences and digits without naming characters',
    (locale) => {
      const { voice, script } = espeakSpeech(
        request(locale, { code: CODE, branding: { brandName: '', color: '#000' } }),
      );
      expect(voices?.has(voice), voice).toBe(true);
      for (const sentence of script) {
        const phonemes = execFileSync('espeak-ng', ['-q', '-x', '-v', voice, sentence], { encoding: 'utf8' });
        // espeak-ng names the characters it cannot read ("_:(en)tS'aIni:z l'et@": "Chinese letter").
        expect(phonemes, `${locale}: ${sentence}`).not.toMatch(/_:\(en\)/);
        // Ten digits, each read as at least one word.
        expect(phonemes.split(/\s+/).filter(Boolean).length, phonemes).toBeGreaterThanOrEqual(10);
      }
    },
  );
});
