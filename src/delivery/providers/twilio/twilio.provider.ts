import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { renderSms } from '../../messages.js';
import { type ApiAnswer, callApi, field, httpFailure, joinUrl, probe, refused } from '../http.js';
import type { TwilioAccount, TwilioOptions } from './twilio.settings.js';

/**
 * Twilio error codes that refuse the destination itself (so no other provider is tried):
 * 21211 invalid 'To' number, 21214 'To' cannot be reached (calls), 21217 number not valid
 * (calls), 21610 recipient replied STOP, 21612 'To' not reachable via SMS, 21614 not a mobile.
 */
const DESTINATION_ERRORS = new Set([21211, 21214, 21217, 21610, 21612, 21614]);

export const basicAuth = (o: TwilioAccount) =>
  `Basic ${Buffer.from(`${o.accountSid}:${o.authToken}`).toString('base64')}`;

/** POSTs a form to an Account resource of the 2010-04-01 REST API and classifies the answer. */
export async function postToAccount(
  name: string,
  o: TwilioAccount,
  resource: 'Messages' | 'Calls',
  form: URLSearchParams,
): Promise<SendOutcome> {
  const result = await callApi(name, {
    method: 'POST',
    url: joinUrl(o.baseUrl, `/2010-04-01/Accounts/${encodeURIComponent(o.accountSid)}/${resource}.json`),
    headers: { authorization: basicAuth(o) },
    body: form,
    timeoutMs: o.timeoutMs,
  });
  return result.ok ? classify(name, result.answer) : result.outcome;
}

function classify(name: string, answer: ApiAnswer): SendOutcome {
  const sid = field(answer.json, 'sid');
  if (answer.status >= 200 && answer.status < 300 && typeof sid === 'string') {
    return { ok: true, providerMessageId: sid };
  }
  // Twilio's error body is {code, message, more_info, status}; the message may echo the number,
  // so only the numeric code is kept.
  const code = Number(field(answer.json, 'code'));
  if (answer.status >= 400 && answer.status < 500 && DESTINATION_ERRORS.has(code)) {
    return refused(name, `Twilio error ${code}`);
  }
  return httpFailure(name, answer.status, Number.isFinite(code) && code > 0 ? `error ${code}` : undefined);
}

/** SMS through Twilio's Programmable Messaging (Messages resource). */
export class TwilioSmsProvider implements ChannelProvider {
  readonly name = 'twilio';
  readonly channels: readonly Channel[] = ['SMS'];

  constructor(
    private readonly options: TwilioOptions,
    private readonly webOtpDomain?: string,
  ) {}

  send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    const form = new URLSearchParams({ To: request.to, Body: renderSms(request, this.webOtpDomain) });
    // A Messaging Service SID picks the sender from its pool; anything else is the sender itself.
    if (/^MG[0-9a-fA-F]{32}$/.test(o.from)) form.set('MessagingServiceSid', o.from);
    else form.set('From', o.from);
    if (o.statusCallbackUrl) form.set('StatusCallback', o.statusCallbackUrl);
    return postToAccount(this.name, o, 'Messages', form);
  }

  check() {
    return probeAccount(this.name, this.options);
  }
}

/** check(): reads the Account resource, sending nothing. */
export const probeAccount = (name: string, o: TwilioAccount) =>
  probe(name, {
    url: joinUrl(o.baseUrl, `/2010-04-01/Accounts/${encodeURIComponent(o.accountSid)}.json`),
    headers: { authorization: basicAuth(o) },
    timeoutMs: o.timeoutMs,
  });
