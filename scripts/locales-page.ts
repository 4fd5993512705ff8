/**
 * The generated tables of docs/locales.md: every locale with its language, direction, SMS encoding
 * and the countries whose default it is, and the voice each provider speaks it in. Written by
 * `npm run docs:locales`; a test fails when the committed page differs.
 */
import { LOCALE_TEXTS } from '../src/delivery/locales/index.js';
import { renderSms } from '../src/delivery/messages.js';
import { TELNYX_VOICES } from '../src/delivery/providers/telnyx/telnyx.voices.js';
import { TWILIO_VOICES } from '../src/delivery/providers/twilio/twilio.voices.js';
import { VONAGE_VOICES } from '../src/delivery/providers/vonage/vonage.voices.js';
import { smsSegments } from '../src/delivery/sms-segments.js';
import { countriesOf, LOCALES, type Locale, textDirection } from '../src/domain/locales.js';

const name = (locale: Locale, inLocale: string) =>
  new Intl.DisplayNames([inLocale], { type: 'language' }).of(locale) ?? locale;

/** The built-in SMS with a 10-digit code and no product: its encoding and the room left for the name. */
function smsFacts(locale: Locale): string {
  const text = renderSms({
    verificationId: '00000000-0000-7000-8000-000000000000',
    accountId: 'acc',
    channel: 'SMS',
    to: '+10000000000',
    code: '1234567890',
    codeTtlSeconds: 600,
    deliveryType: 'TEXT',
    country: null,
    purpose: null,
    customMessage: null,
    branding: { brandName: '', color: '#000000' },
    locale,
  });
  const { encoding, characters } = smsSegments(text);
  const room = (encoding === 'GSM-7' ? 160 : 70) - characters;
  return `${encoding}, ${room} left for the name`;
}

function localesTable(): string {
  const rows = LOCALES.map((locale) => {
    const countries = countriesOf(locale);
    return `| \`${locale}\` | ${name(locale, 'en')} | ${name(locale, locale)} | ${textDirection(locale)} | ${smsFacts(locale)} | ${countries.length ? countries.join(' ') : '–'} |`;
  });
  return [
    '| Tag | Language | Its own name | Direction | Built-in SMS (10-digit code) | Default for phone numbers of |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function voicesTable(): string {
  const cell = (v: { language: string; voice?: string } | undefined) =>
    v === undefined
      ? 'none: spoken in English'
      : v.voice
        ? `\`${v.voice}\` (\`${v.language}\`)`
        : `\`${v.language}\``;
  const rows = LOCALES.map((locale) => {
    const t = LOCALE_TEXTS[locale];
    const espeak = `\`${t.whatsappCall.espeakVoice}\`${t.whatsappCall.espeakScript ? ' (own spelling)' : ''}`;
    return `| \`${locale}\` | \`${t.voiceLanguage}\` | ${cell(TWILIO_VOICES[locale])} | ${cell(VONAGE_VOICES[locale])} | ${cell(TELNYX_VOICES[locale])} | ${espeak} |`;
  });
  return [
    '| Tag | Spoken as | Twilio `<Say>` voice (language) | Vonage `talk` language | Telnyx `speak` voice | WhatsApp call: espeak-ng voice |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const between = (page: string, marker: string, content: string) => {
  const start = `<!-- locales:${marker}:start -->`;
  const end = `<!-- locales:${marker}:end -->`;
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/locales.md has no ${start} … ${end}`);
  return `${page.slice(0, from + start.length)}\n${content}\n${page.slice(to)}`;
};

/** docs/locales.md with its generated tables rewritten. */
export function localesPage(committed: string): string {
  return between(between(committed, 'table', localesTable()), 'voices', voicesTable());
}
