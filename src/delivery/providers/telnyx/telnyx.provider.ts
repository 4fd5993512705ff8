import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { renderSms } from '../../messages.js';
import { callApi, field, httpFailure, joinUrl, probe, refused } from '../http.js';
import type { TelnyxOptions } from './telnyx.settings.js';

/**
 * Telnyx error codes (in `errors[].code`) that refuse the destination: 10001 inactive number,
 * 10002 invalid number, 40001 not routable (landline), 40012 invalid destination, 40300 the
 * recipient replied STOP, 40310 invalid 'to' address.
 */
const DESTINATION_ERRORS = new Set(['10001', '10002', '40001', '40012', '40300', '40310']);

/** SMS through the Telnyx Messaging API v2. */
export class TelnyxSmsProvider implements ChannelProvider {
  readonly name = 'telnyx';
  readonly channels: readonly Channel[] = ['SMS'];

  constructor(
    private readonly options: TelnyxOptions,
    private readonly webOtpDomain?: string,
  ) {}

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    const body: Record<string, string> = {
      from: o.from,
      to: request.to,
      text: renderSms(request, this.webOtpDomain),
    };
    if (o.messagingProfileId) body.messaging_profile_id = o.messagingProfileId;
    if (o.webhookUrl) body.webhook_url = o.webhookUrl;
    const result = await callApi(this.name, {
      method: 'POST',
      url: joinUrl(o.baseUrl, '/v2/messages'),
      headers: { authorization: `Bearer ${o.apiKey}` },
      body,
      timeoutMs: o.timeoutMs,
    });
    if (!result.ok) return result.outcome;
    const { status, json } = result.answer;
    const id = field(json, 'data', 'id');
    if (status >= 200 && status < 300 && typeof id === 'string') return { ok: true, providerMessageId: id };
    const errors = field(json, 'errors');
    const codes = Array.isArray(errors) ? errors.map((e) => String(field(e, 'code') ?? '')) : [];
    const destination = codes.find((c) => DESTINATION_ERRORS.has(c));
    if (status >= 400 && status < 500 && destination)
      return refused(this.name, `Telnyx error ${destination}`);
    return httpFailure(this.name, status, codes[0] ? `error ${codes[0]}` : undefined);
  }

  check() {
    return probe(this.name, {
      url: joinUrl(this.options.baseUrl, '/v2/balance'),
      headers: { authorization: `Bearer ${this.options.apiKey}` },
      timeoutMs: this.options.timeoutMs,
    });
  }
}
