import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { renderSms } from '../../messages.js';
import { callApi, field, httpFailure, joinUrl, probe, refused } from '../http.js';
import type { VonageOptions } from './vonage.settings.js';

/**
 * The SMS API answers HTTP 200 and reports each message's `status`: "0" is success. Of the
 * others, these refuse the destination: 6 unrecognised number prefix, 7 number barred, 33 number
 * deactivated, and 3 invalid parameters when its error-text names the `to` number. Everything
 * else (1 throttled, 5 internal error, 4 bad credentials, 9 no credit, 15 sender not allowed,
 * 29 demo account …) is this account's or Vonage's problem: another provider may work.
 */
const DESTINATION_STATUSES = new Set(['6', '7', '33']);

function refusesDestination(status: string, errorText: string): boolean {
  if (DESTINATION_STATUSES.has(status)) return true;
  return status === '3' && /\bto\b|msisdn|number/i.test(errorText) && !/\bfrom\b|sender/i.test(errorText);
}

/** SMS through the Vonage SMS API. */
export class VonageSmsProvider implements ChannelProvider {
  readonly name = 'vonage';
  readonly channels: readonly Channel[] = ['SMS'];

  constructor(
    private readonly options: VonageOptions,
    private readonly webOtpDomain?: string,
  ) {}

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    const text = renderSms(request, this.webOtpDomain);
    const form = new URLSearchParams({
      api_key: o.apiKey,
      api_secret: o.apiSecret,
      from: o.from,
      // Vonage takes the number in international format without the leading +.
      to: request.to.replace(/^\+/, ''),
      text,
    });
    // A brand name outside ASCII would be mangled by the default GSM encoding.
    if (/[^\x20-\x7e\n]/.test(text)) form.set('type', 'unicode');
    if (o.callbackUrl) form.set('callback', o.callbackUrl);
    const result = await callApi(this.name, {
      method: 'POST',
      url: joinUrl(o.baseUrl, '/sms/json'),
      body: form,
      timeoutMs: o.timeoutMs,
    });
    if (!result.ok) return result.outcome;
    const { status, json } = result.answer;
    if (status !== 200) return httpFailure(this.name, status);
    const first = field(json, 'messages', 0);
    const messageStatus = String(field(first, 'status') ?? '');
    const id = field(first, 'message-id');
    if (messageStatus === '0' && typeof id === 'string') return { ok: true, providerMessageId: id };
    if (refusesDestination(messageStatus, String(field(first, 'error-text') ?? ''))) {
      return refused(this.name, `Vonage status ${messageStatus}`);
    }
    return {
      ok: false,
      retryable: true,
      error: `vonage did not accept the message (status ${messageStatus || 'missing'})`,
    };
  }

  check() {
    const o = this.options;
    // The Account API takes Basic auth, which keeps the secret out of URLs (and proxy logs).
    return probe(this.name, {
      url: joinUrl(o.baseUrl, '/account/get-balance'),
      headers: { authorization: `Basic ${Buffer.from(`${o.apiKey}:${o.apiSecret}`).toString('base64')}` },
      timeoutMs: o.timeoutMs,
    });
  }
}
