import { fillTemplate, type PlaceholderValues } from '../domain/templates.js';
import type { OutboundMessage } from '../domain/types.js';
import type { DeliveryRequest } from './interface.js';
import { LOCALE_TEXTS, type LocaleTexts } from './locales/index.js';
import { uploadedLogoUrl } from './logo-url.js';

/**
 * The text of every message, rendered once here so that the outbox, the preview and the providers
 * show exactly the same thing: the built-in texts of the request's language (./locales), or the
 * account's template for that language and channel, with the placeholders filled as text.
 */

/** What a deployment adds to every message. */
export interface RenderOptions {
  /** SMS_WEBOTP_DOMAIN: the WebOTP / SMS Retriever line of SMS. */
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

const textsOf = (r: DeliveryRequest): LocaleTexts => LOCALE_TEXTS[r.locale] ?? LOCALE_TEXTS.en;

const templatesOf = (r: DeliveryRequest) => r.branding.templates?.[r.locale];

function placeholders(r: DeliveryRequest, code = r.code): PlaceholderValues {
  return {
    code,
    minutes: String(minutes(r.codeTtlSeconds)),
    product: r.branding.productName ?? r.branding.brandName,
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

export function renderEmail(
  r: DeliveryRequest,
  options: RenderOptions = {},
): Required<Pick<OutboundMessage, 'subject' | 'text' | 'html'>> {
  const t = textsOf(r).email;
  const custom = templatesOf(r)?.EMAIL;
  const values = placeholders(r);
  const fill = (template: string) => fillTemplate(template, values);
  const ttl = minutes(r.codeTtlSeconds);
  const expires = fill(ttl === 1 ? t.expires.one : t.expires.other);
  const { supportUrl, emailFooter } = r.branding;
  // The code leads the built-in subject so that mail clients and OS autofill can pick it up.
  const subject = fill(custom?.subject ?? t.subject);
  // An account's text replaces the built-in sentences (the code line, purpose and expiry).
  const body = custom
    ? [fill(custom.text)]
    : [fill(t.text), '', r.purpose ? `${t.requestedFor}: ${r.purpose}` : null];
  const lines = [
    ...body,
    r.customMessage ? r.customMessage : null,
    custom ? null : expires,
    supportUrl ? `${t.help}: ${supportUrl}` : null,
    emailFooter ? `\n${emailFooter}` : null,
  ].filter((l): l is string => l !== null);
  const color = /^#[0-9a-fA-F]{3,8}$/.test(r.branding.color) ? r.branding.color : '#2563eb';
  const logo = logoSource(r, options);
  const logoTag = logo
    ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(r.branding.brandName)}" height="40" style="display:block;margin:0 0 16px">`
    : '';
  const purposeLine = r.purpose
    ? `<p style="margin:0 0 12px">${escapeHtml(t.requestedFor)}: <strong>${escapeHtml(r.purpose)}</strong></p>\n`
    : '';
  const html = `<!doctype html>
<html lang="${r.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">
<table role="presentation" width="100%" style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
${logoTag}<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(fill(t.heading))}</h1>
${custom ? '' : purposeLine}<p style="font-size:32px;letter-spacing:6px;font-weight:bold;margin:16px 0;color:${color}">${escapeHtml(r.code)}</p>
${custom ? `<p style="margin:0 0 12px">${paragraph(fill(custom.text))}</p>\n` : ''}${r.customMessage ? `<p style="margin:0 0 12px">${paragraph(r.customMessage)}</p>` : ''}
${custom ? '' : `<p style="font-size:13px;color:#52525b;margin:16px 0 0">${escapeHtml(expires)}</p>`}
${supportUrl ? `<p style="font-size:13px;margin:8px 0 0"><a href="${escapeHtml(supportUrl)}" style="color:${color}">${escapeHtml(t.help)}</a></p>` : ''}
${emailFooter ? `<p style="font-size:12px;color:#71717a;margin:16px 0 0">${paragraph(emailFooter)}</p>` : ''}
</td></tr></table></body></html>`;
  return { subject, text: lines.join('\n'), html };
}

/** `webOtpDomain` adds the WebOTP / SMS Retriever line (`@example.com #123456`) for autofill. */
export function renderSms(r: DeliveryRequest, webOtpDomain?: string): string {
  const text = fillTemplate(templatesOf(r)?.SMS ?? textsOf(r).sms, placeholders(r));
  return webOtpDomain ? `${text}\n\n@${webOtpDomain} #${r.code}` : text;
}

/**
 * What a CALL speaks, in the request's language: two sentences, the digits separated so that
 * text-to-speech reads them one by one ("1, 2, 3") rather than as a number.
 */
export function voiceScript(r: DeliveryRequest): [string, string] {
  const values = placeholders(r, r.code.split('').join(', '));
  const [first, again] = textsOf(r).voice;
  return [fillTemplate(first, values), fillTemplate(again, values)];
}

/** The language a code call is spoken in (the voice call's `<Say language>`), from the request's locale. */
export const voiceLanguage = (r: DeliveryRequest): string => textsOf(r).voiceLanguage;

/**
 * WhatsApp authentication templates have fixed, Meta-approved text: this is that text in the
 * request's language (or the account's WHATSAPP template, which changes what the outbox shows,
 * not what Meta sends), or, for a CALL, exactly what the voice call speaks.
 */
export function renderWhatsApp(r: DeliveryRequest): string {
  const t = textsOf(r);
  if (r.deliveryType === 'CALL') return `${t.voiceCall}: "${voiceScript(r).join(' ')}"`;
  return fillTemplate(templatesOf(r)?.WHATSAPP ?? t.whatsapp, placeholders(r));
}

/** The message a recipient sees on the request's channel. */
export function renderMessage(r: DeliveryRequest, options: RenderOptions = {}): OutboundMessage {
  switch (r.channel) {
    case 'EMAIL':
      return { channel: r.channel, to: r.to, ...renderEmail(r, options) };
    case 'SMS':
      return { channel: r.channel, to: r.to, text: renderSms(r, options.webOtpDomain) };
    case 'WHATSAPP':
      return { channel: r.channel, to: r.to, text: renderWhatsApp(r) };
  }
}
