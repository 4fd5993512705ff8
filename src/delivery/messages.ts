import type { OutboundMessage } from '../domain/types.js';
import type { DeliveryRequest } from './interface.js';

/**
 * The text of every message, rendered once here so that the outbox shows exactly what a provider
 * would send.
 */

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

export function renderEmail(
  r: DeliveryRequest,
): Required<Pick<OutboundMessage, 'subject' | 'text' | 'html'>> {
  const brand = r.branding.brandName;
  const ttl = minutes(r.codeTtlSeconds);
  // The code leads the subject so that mail clients and OS autofill can pick it up.
  const subject = `${r.code} is your ${brand} verification code`;
  const lines = [
    `Your ${brand} verification code is: ${r.code}`,
    '',
    r.purpose ? `Requested for: ${r.purpose}` : null,
    r.customMessage ? r.customMessage : null,
    `The code expires in ${ttl} minute${ttl === 1 ? '' : 's'}. If you did not ask for it, ignore this email.`,
    r.branding.supportUrl ? `Help: ${r.branding.supportUrl}` : null,
  ].filter((l): l is string => l !== null);
  const color = /^#[0-9a-fA-F]{3,8}$/.test(r.branding.color) ? r.branding.color : '#2563eb';
  const logo = r.branding.logoUrl
    ? `<img src="${escapeHtml(r.branding.logoUrl)}" alt="${escapeHtml(brand)}" height="40" style="display:block;margin:0 0 16px">`
    : '';
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">
<table role="presentation" width="100%" style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
${logo}<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(brand)} verification code</h1>
${r.purpose ? `<p style="margin:0 0 12px">Requested for: <strong>${escapeHtml(r.purpose)}</strong></p>` : ''}
<p style="font-size:32px;letter-spacing:6px;font-weight:bold;margin:16px 0;color:${color}">${r.code}</p>
${r.customMessage ? `<p style="margin:0 0 12px">${escapeHtml(r.customMessage)}</p>` : ''}
<p style="font-size:13px;color:#52525b;margin:16px 0 0">The code expires in ${ttl} minute${ttl === 1 ? '' : 's'}. If you did not ask for it, ignore this email.</p>
${r.branding.supportUrl ? `<p style="font-size:13px;margin:8px 0 0"><a href="${escapeHtml(r.branding.supportUrl)}" style="color:${color}">Help</a></p>` : ''}
</td></tr></table></body></html>`;
  return { subject, text: lines.join('\n'), html };
}

/** `webOtpDomain` adds the WebOTP / SMS Retriever line (`@example.com #123456`) for autofill. */
export function renderSms(r: DeliveryRequest, webOtpDomain?: string): string {
  const text = `${r.code} is your ${r.branding.brandName} verification code.`;
  return webOtpDomain ? `${text}\n\n@${webOtpDomain} #${r.code}` : text;
}

/**
 * What a CALL speaks: two sentences, the digits separated so that text-to-speech reads them one
 * by one ("1, 2, 3") rather than as a number ("one hundred twenty-three").
 */
export function voiceScript(r: DeliveryRequest): [string, string] {
  const spoken = r.code.split('').join(', ');
  return [`Your ${r.branding.brandName} verification code is ${spoken}.`, `Again, your code is ${spoken}.`];
}

/**
 * WhatsApp authentication templates have fixed, Meta-approved text; this is the text the recipient
 * reads (with the copy-code button), or, for a CALL, exactly what the voice call speaks.
 */
export function renderWhatsApp(r: DeliveryRequest): string {
  if (r.deliveryType === 'CALL') return `Voice call: "${voiceScript(r).join(' ')}"`;
  return `*${r.code}* is your verification code. For your security, do not share this code.`;
}

/** The message a recipient sees on the request's channel. */
export function renderMessage(r: DeliveryRequest, options: { webOtpDomain?: string } = {}): OutboundMessage {
  switch (r.channel) {
    case 'EMAIL':
      return { channel: r.channel, to: r.to, ...renderEmail(r) };
    case 'SMS':
      return { channel: r.channel, to: r.to, text: renderSms(r, options.webOtpDomain) };
    case 'WHATSAPP':
      return { channel: r.channel, to: r.to, text: renderWhatsApp(r) };
  }
}
