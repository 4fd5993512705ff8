import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { codeForLocale } from '../../locales/language-code.js';
import { callApi, field, httpFailure, joinUrl, probe, refused } from '../http.js';
import type { WhatsAppOptions } from './whatsapp.settings.js';

/**
 * Cloud API error codes that refuse the destination: 131026 message undeliverable (the number is
 * not on WhatsApp, or cannot take the message), 131021 recipient is the sender. Rate limits
 * (130429, 131056, 80007), template or token problems and 131000/131016 are not the number's fault.
 */
const DESTINATION_ERRORS = new Set([131026, 131021]);

/** WhatsApp TEXT: an authentication template through the WhatsApp Cloud API. */
export class WhatsAppProvider implements ChannelProvider {
  readonly name = 'whatsapp';
  readonly channels: readonly Channel[] = ['WHATSAPP'];

  constructor(private readonly options: WhatsAppOptions) {}

  private url(path = '') {
    const o = this.options;
    return joinUrl(
      o.baseUrl,
      `/${encodeURIComponent(o.apiVersion)}/${encodeURIComponent(o.phoneNumberId)}${path}`,
    );
  }

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    // An authentication template's body text is fixed by Meta; the code fills its one body
    // parameter and, again, the parameter of its copy-code button (a URL button, index 0).
    const code = [{ type: 'text', text: request.code }];
    const result = await callApi(this.name, {
      method: 'POST',
      url: this.url('/messages'),
      headers: { authorization: `Bearer ${o.token}` },
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: request.to,
        type: 'template',
        template: {
          name: o.template,
          // Meta approves a template per language: the request's, when it is one of those.
          language: { code: codeForLocale(request.locale, [o.language, ...o.languages]) ?? o.language },
          components: [
            { type: 'body', parameters: code },
            { type: 'button', sub_type: 'url', index: '0', parameters: code },
          ],
        },
      },
      timeoutMs: o.timeoutMs,
    });
    if (!result.ok) return result.outcome;
    const { status, json } = result.answer;
    const id = field(json, 'messages', 0, 'id');
    if (status >= 200 && status < 300 && typeof id === 'string') return { ok: true, providerMessageId: id };
    const errorCode = Number(field(json, 'error', 'code'));
    if (status >= 400 && status < 500 && DESTINATION_ERRORS.has(errorCode)) {
      return refused(this.name, `WhatsApp error ${errorCode}`);
    }
    const detail = Number.isFinite(errorCode) && errorCode > 0 ? `error ${errorCode}` : undefined;
    return httpFailure(this.name, status, detail);
  }

  check() {
    return probe(this.name, {
      url: this.url('?fields=id'),
      headers: { authorization: `Bearer ${this.options.token}` },
      timeoutMs: this.options.timeoutMs,
    });
  }
}
