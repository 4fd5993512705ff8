import type { MessageFormat } from '../domain/channels/channel.js';
import { channelSpec } from '../domain/channels/registry.js';
import { DEFAULT_LOCALE, LOCALES, type Locale, textDirection } from '../domain/locales.js';
import {
  fillTemplate,
  type LocaleTemplates,
  type PlaceholderValues,
  templateOf,
} from '../domain/templates.js';
import type { Channel, OutboundMessage } from '../domain/types.js';
import type { DeliveryRequest } from './interface.js';
import { LOCALE_TEXTS, type LocaleTexts, type PluralTexts } from './locales/index.js';
import { uploadedLogoUrl } from './logo-url.js';
import { fitsOneSegment } from './sms-segments.js';

/**
 * The text of every message, rendered once here so that the outbox, the preview and the providers
 * show exactly the same thing: the built-in texts of the request's locale (./locales), or the
 * account's template for that locale and channel, with the placeholders filled as text.
 */

/** What a deployment adds to every message. */
export interface RenderOptions {
  /** SMS_WEBOTP_DOMAIN: the WebOTP line of SMS, for accounts that set no `webOtpHost` of their own. */
  webOtpDomain?: string;
  /** PUBLIC_BASE_URL: makes an uploaded logo's URL absolute, as an email needs. */
  publicBaseUrl?: string | null;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const minutes = (seconds: number) => Math.max(1, Math.round(seconds / 60));

/** The texts of a locale; a locale this build does not know (an old outbox row) reads as English. */
export const localeTexts = (locale: Locale): LocaleTexts => LOCALE_TEXTS[locale] ?? LOCALE_TEXTS.en;

const textsOf = (r: DeliveryRequest): LocaleTexts => localeTexts(r.locale);

/** A code's lifetime is 1 to 30 minutes: each locale's expiry sentence for each, chosen once at load. */
const MAX_TABLED_MINUTES = 30;

const pluralText = (texts: PluralTexts, rules: Intl.PluralRules, n: number) =>
  texts[rules.select(n)] ?? texts.other;

const EXPIRY_SENTENCES = new Map<Locale, readonly string[]>(
  LOCALES.map((locale) => {
    const rules = new Intl.PluralRules(locale);
    const texts = localeTexts(locale).email.expires;
    return [locale, Array.from({ length: MAX_TABLED_MINUTES + 1 }, (_, n) => pluralText(texts, rules, n))];
  }),
);

/** The expiry sentence for `n` minutes, in the plural form the locale's rules choose (`{minutes}` unfilled). */
export function expiresSentence(locale: Locale, n: number): string {
  const tabled = EXPIRY_SENTENCES.get(locale)?.[n];
  if (tabled !== undefined) return tabled;
  return pluralText(localeTexts(locale).email.expires, new Intl.PluralRules(locale), n);
}

const productOf = (r: DeliveryRequest) => r.branding.productName ?? r.branding.brandName;

/** The body of WhatsApp's call-permission request for a WHATSAPP CALL request (no code in it). */
export const renderCallPermissionRequest = (r: DeliveryRequest): string =>
  localeTexts(r.locale).whatsappCall.permissionBody.replaceAll('{product}', productOf(r));

/**
 * The account template a message format takes (branding.templates, per locale): a channel of a
 * format uses that format's template; a call speaks the built-in script only.
 */
const TEMPLATE_OF: Record<MessageFormat, keyof LocaleTemplates | null> = {
  email: 'EMAIL',
  sms: 'SMS',
  whatsapp: 'WHATSAPP',
  voice: null,
  silent: null,
};

/** The key of branding.templates a channel's messages are written with, or null when none is. */
export const templateKey = (channel: Channel): keyof LocaleTemplates | null =>
  TEMPLATE_OF[channelSpec(channel).message];

function placeholders(r: DeliveryRequest, code = r.code): PlaceholderValues {
  return {
    code,
    minutes: String(minutes(r.codeTtlSeconds)),
    product: productOf(r),
    purpose: r.purpose ?? '',
  };
}

/** The email's image: the uploaded logo when the deployment can link to it, else logoUrl. */
function logoSource(r: DeliveryRequest, options: RenderOptions): string | undefined {
  const { logo, logoUrl } = r.branding;
  return logo && options.publicBaseUrl ? uploadedLogoUrl(r.accountId, logo, options.publicBaseUrl) : logoUrl;
}

/** Escaped text with its line breaks kept. */
const paragraph = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>');

/** A value inside a sentence, isolated so that its own direction cannot reorder the words around it. */
const isolated = (text: string) => `<bdi>${escapeHtml(text)}</bdi>`;

/**
 * The link's button: a bulletproof button (a table cell with the colour, the link inside it), which
 * Outlook and the webmails draw as a button without CSS support; then the sentence that says the
 * code below works too.
 */
function linkButton(link: string, t: LocaleTexts['email'], color: string, start: string): string {
  const href = escapeHtml(link);
  return `<p style="margin:0 0 12px;text-align:${start}">${escapeHtml(t.linkIntro)}</p>
<table role="presentation" cellspacing="0" cellpadding="0" style="margin:8px 0 8px"><tr><td style="border-radius:6px;background:${color}"><a href="${href}" style="display:inline-block;padding:12px 20px;font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(t.linkButton)}</a></td></tr></table>
`;
}

export function renderEmail(
  r: DeliveryRequest,
  options: RenderOptions = {},
): Required<Pick<OutboundMessage, 'subject' | 'text' | 'html'>> {
  const t = textsOf(r).email;
  const custom = templateOf(r.branding.templates, r.locale, 'EMAIL');
  const values = placeholders(r);
  const fill = (template: string) => fillTemplate(template, values);
  const ttl = minutes(r.codeTtlSeconds);
  const expires = fill(expiresSentence(r.locale, ttl));
  const { supportUrl, emailFooter } = r.branding;
  // The code leads the built-in subject so that mail clients and OS autofill can pick it up.
  const subject = fill(custom?.subject ?? t.subject);
  // An account's text replaces the built-in sentences (the code line, purpose and expiry).
  const body = custom
    ? [fill(custom.text)]
    : [fill(t.text), '', r.purpose ? `${t.requestedFor}${t.colon}${r.purpose}` : null];
  // A magic link (docs/links.md) goes beside the code, never instead of it: a mail client that
  // strips links, or a user on another device, still has the code.
  const linkLine = r.link ? t.linkText.replace('{link}', r.link) : null;
  const lines = [
    ...body,
    linkLine,
    r.customMessage ? r.customMessage : null,
    custom ? null : expires,
    supportUrl ? `${t.help}${t.colon}${supportUrl}` : null,
    emailFooter ? `\n${emailFooter}` : null,
  ].filter((l): l is string => l !== null);
  const color = /^#[0-9a-fA-F]{3,8}$/.test(r.branding.color) ? r.branding.color : '#2563eb';
  const logo = logoSource(r, options);
  const logoTag = logo
    ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(r.branding.brandName)}" height="40" style="display:block;margin:0 0 16px">`
    : '';
  const purposeLine = r.purpose
    ? `<p style="margin:0 0 12px">${escapeHtml(t.requestedFor + t.colon)}<strong>${isolated(r.purpose)}</strong></p>\n`
    : '';
  // Right-to-left locales mirror the layout (direction, alignment); the code stays a left-to-right
  // paragraph so its digits read in the same order everywhere.
  const dir = textDirection(r.locale);
  const start = dir === 'rtl' ? 'right' : 'left';
  const heading = fillTemplate(escapeHtml(t.heading), {
    code: escapeHtml(values.code),
    minutes: values.minutes,
    product: isolated(values.product),
    purpose: isolated(values.purpose),
  });
  const html = `<!doctype html>
<html lang="${r.locale}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body dir="${dir}" style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">
<table role="presentation" dir="${dir}" width="100%" style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td style="text-align:${start}">
${logoTag}<h1 style="font-size:18px;margin:0 0 16px">${heading}</h1>
${custom ? '' : purposeLine}${r.link ? linkButton(r.link, t, color, start) : ''}<p dir="ltr" style="font-size:32px;letter-spacing:6px;font-weight:bold;margin:16px 0;text-align:${start};color:${color}">${escapeHtml(r.code)}</p>
${custom ? `<p style="margin:0 0 12px">${paragraph(fill(custom.text))}</p>\n` : ''}${r.customMessage ? `<p style="margin:0 0 12px">${paragraph(r.customMessage)}</p>` : ''}
${custom ? '' : `<p style="font-size:13px;color:#52525b;margin:16px 0 0">${escapeHtml(expires)}</p>`}
${supportUrl ? `<p style="font-size:13px;margin:8px 0 0"><a href="${escapeHtml(supportUrl)}" style="color:${color}">${escapeHtml(t.help)}</a></p>` : ''}
${emailFooter ? `<p style="font-size:12px;color:#71717a;margin:16px 0 0">${paragraph(emailFooter)}</p>` : ''}
${r.link ? `<p style="font-size:12px;color:#71717a;margin:16px 0 0;word-break:break-all">${escapeHtml(t.linkText).replace('{link}', `<a dir="ltr" href="${escapeHtml(r.link)}" style="color:${color}">${escapeHtml(r.link)}</a>`)}</p>` : ''}
</td></tr></table></body></html>`;
  return { subject, text: lines.join('\n'), html };
}

/**
 * The one-tap lines at the end of an SMS: the Android SMS Retriever app hash, then the WebOTP line
 * (`@host #code`), which browsers read only as the last line. Empty when neither is set.
 */
export function oneTapLines(
  code: string,
  webOtpHost: string | undefined,
  appHash: string | undefined,
): string {
  if (!webOtpHost && !appHash) return '';
  const lines = [appHash, webOtpHost ? `@${webOtpHost} #${code}` : undefined].filter(Boolean);
  return `\n\n${lines.join('\n')}`;
}

/**
 * The shortest product name a built-in SMS cuts to. Below it a name no longer says who sent the
 * code; a text that does not fit even so keeps the whole name and takes a second segment.
 */
export const MIN_SMS_PRODUCT = 10;

/**
 * The product name as a built-in SMS that does not fit whole keeps it (null: whole), by the text,
 * the name, the code's length and the one-tap lines' length: the built-in SMS texts use only
 * `{code}` (ASCII digits) and `{product}`, and the lines are ASCII, so nothing else changes the
 * answer. An account sends with one name, so its sends find the answer here after the first.
 */
const cutNames = new Map<string, Map<string, Map<number, string | null>>>();
const MAX_CUT_NAMES = 1024;

/**
 * A built-in SMS text with `{product}` cut, if need be, to the longest start that keeps the whole
 * message (one-tap lines included) in one segment.
 */
function fitted(template: string, values: PlaceholderValues, tail: string): string {
  const whole = fillTemplate(template, values) + tail;
  if (fitsOneSegment(whole)) return whole;
  // The template and the name are the same strings send after send: their hashes are cached.
  let byName = cutNames.get(template);
  if (byName === undefined) {
    byName = new Map();
    cutNames.set(template, byName);
  }
  let byLengths = byName.get(values.product);
  if (byLengths === undefined) {
    if (byName.size >= MAX_CUT_NAMES) byName.clear();
    byLengths = new Map();
    byName.set(values.product, byLengths);
  }
  const lengths = values.code.length * 1024 + tail.length;
  let kept = byLengths.get(lengths);
  if (kept === undefined) {
    const n = cutLength(template, values, tail);
    kept = n === null ? null : cutName(values.product, n);
    byLengths.set(lengths, kept);
  }
  return kept === null ? whole : fillTemplate(template, { ...values, product: kept }) + tail;
}

const cutName = (name: string, n: number) => [...name].slice(0, n).join('').trimEnd();

const withProductCut = (template: string, values: PlaceholderValues, tail: string, n: number) =>
  fillTemplate(template, { ...values, product: cutName(values.product, n) }) + tail;

function cutLength(template: string, values: PlaceholderValues, tail: string): number | null {
  const fits = (n: number) => fitsOneSegment(withProductCut(template, values, tail, n));
  const length = [...values.product].length;
  if (length <= MIN_SMS_PRODUCT || !fits(MIN_SMS_PRODUCT)) return null;
  // Fitting only gets easier as the name shortens (fewer units, and GSM-7 once a non-GSM character
  // is cut off), so the longest fitting start is found by bisection.
  let longest = MIN_SMS_PRODUCT;
  let tooLong = length;
  while (tooLong - longest > 1) {
    const middle = (longest + tooLong) >> 1;
    if (fits(middle)) longest = middle;
    else tooLong = middle;
  }
  return longest;
}

/**
 * The SMS of a request: the account's template for its locale, or the built-in text with the product
 * name cut to fit one segment; then the one-tap lines. The account's `webOtpHost` wins over the
 * deployment's SMS_WEBOTP_DOMAIN (`webOtpDomain`).
 */
export function renderSms(r: DeliveryRequest, webOtpDomain?: string): string {
  const tail = oneTapLines(r.code, r.webOtpHost ?? webOtpDomain, r.appHash);
  const custom = templateOf(r.branding.templates, r.locale, 'SMS');
  if (custom !== undefined) return fillTemplate(custom, placeholders(r)) + tail;
  return fitted(textsOf(r).sms, placeholders(r), tail);
}

/**
 * What a CALL speaks, in the request's language: two sentences, the digits separated so that
 * text-to-speech reads them one by one ("1, 2, 3") rather than as a number.
 */
export function voiceScript(r: DeliveryRequest): [string, string] {
  return scriptIn(r, r.locale);
}

function scriptIn(r: DeliveryRequest, locale: Locale): [string, string] {
  const values = placeholders(r, r.code.split('').join(', '));
  const [first, again] = localeTexts(locale).voice;
  return [fillTemplate(first, values), fillTemplate(again, values)];
}

/**
 * What the WhatsApp call's audio says, as espeak-ng is to render it: the voice, and the two
 * sentences with the digits separated (spelt as words where the voice does not read digits).
 */
export function espeakSpeech(r: DeliveryRequest): { voice: string; script: [string, string] } {
  const t = textsOf(r);
  const { espeakVoice, espeakScript, espeakDigits } = t.whatsappCall;
  const spoken = r.code
    .split('')
    .map((d) => espeakDigits?.[Number(d)] ?? d)
    .join(', ');
  const values = placeholders(r, spoken);
  const [first, again] = espeakScript ?? t.voice;
  return { voice: espeakVoice, script: [fillTemplate(first, values), fillTemplate(again, values)] };
}

/** The language a code call is spoken in (BCP 47, e.g. `pt-BR`), from the request's locale. */
export const voiceLanguage = (r: DeliveryRequest): string => textsOf(r).voiceLanguage;

/** A call as the outbox shows it: what it speaks, in quotes, after the language's "voice call". */
const renderCall = (r: DeliveryRequest): string => `${textsOf(r).voiceCall}: "${voiceScript(r).join(' ')}"`;

/**
 * A provider's speech settings (its language code, a voice, a style …) for each locale it can
 * speak; English is required, as what the others fall back to.
 */
export type ProviderVoices<V> = Partial<Record<Locale, V>> & { en: V };

/**
 * What a provider speaks and how: the request's locale when the provider has a voice for it, else
 * English (its script and voice), so a call is never read out in a voice of another language.
 * `voices` is the provider's own table (in its folder); it must have English.
 */
export function speechFor<V>(
  r: DeliveryRequest,
  voices: ProviderVoices<V>,
): { locale: Locale; voice: V; script: [string, string] } {
  const own = voices[r.locale];
  const locale = own === undefined ? DEFAULT_LOCALE : r.locale;
  return { locale, voice: own ?? voices.en, script: scriptIn(r, locale) };
}

/**
 * WhatsApp authentication templates have fixed, Meta-approved text: this is that text in the
 * request's language (or the account's WHATSAPP template, which changes what the outbox shows,
 * not what Meta sends), or, for a CALL, exactly what the voice call speaks.
 */
export function renderWhatsApp(r: DeliveryRequest): string {
  const t = textsOf(r);
  if (r.deliveryType === 'CALL') return renderCall(r);
  return fillTemplate(templateOf(r.branding.templates, r.locale, 'WHATSAPP') ?? t.whatsapp, placeholders(r));
}

/** The message a recipient sees on the request's channel, in the channel's format (ChannelSpec.message). */
export function renderMessage(r: DeliveryRequest, options: RenderOptions = {}): OutboundMessage {
  const format: MessageFormat = channelSpec(r.channel).message;
  switch (format) {
    case 'email':
      return { channel: r.channel, to: r.to, ...renderEmail(r, options) };
    case 'sms':
      return { channel: r.channel, to: r.to, text: renderSms(r, options.webOtpDomain) };
    case 'whatsapp':
      return { channel: r.channel, to: r.to, text: renderWhatsApp(r) };
    case 'voice':
      return { channel: r.channel, to: r.to, text: renderCall(r) };
    case 'silent':
      return { channel: r.channel, to: r.to, text: renderSilent(r) };
  }
}

/**
 * Silent network authentication sends the device nothing to read: the outbox, standing in for the
 * provider (test keys; live requests without one under LIVE_OUTBOX=allow), says what the app would
 * do and the code that stands in for the device's (a provider that hands the device a code has it posted back).
 */
export function renderSilent(r: DeliveryRequest): string {
  return `Silent network authentication of ${r.to} (no message is sent): the app opens silent.url on the device over mobile data, then calls verify-code with the requestId alone, or with the device's code ${r.code}.`;
}
