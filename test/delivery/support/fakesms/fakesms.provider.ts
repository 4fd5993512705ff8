import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../../../src/delivery/interface.js';
import { renderSms } from '../../../../src/delivery/messages.js';
import { callApi, field, httpFailure, joinUrl, probe } from '../../../../src/delivery/providers/http.js';
import type { Channel } from '../../../../src/domain/types.js';
import type { FakesmsOptions } from './fakesms.settings.js';

/** SMS through an imaginary vendor's API: `POST /v1/sms` {from, to, text} answers {id}. */
export class FakesmsProvider implements ChannelProvider {
  readonly name = 'fakesms';
  readonly channels: readonly Channel[] = ['SMS'];

  constructor(
    private readonly options: FakesmsOptions,
    private readonly webOtpDomain?: string,
  ) {}

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    const result = await callApi(this.name, {
      method: 'POST',
      url: joinUrl(o.baseUrl, '/v1/sms'),
      headers: { authorization: `Bearer ${o.apiKey}` },
      body: { from: o.from, to: request.to, text: renderSms(request, this.webOtpDomain) },
      timeoutMs: o.timeoutMs,
    });
    if (!result.ok) return result.outcome;
    const { status, json } = result.answer;
    const id = field(json, 'id');
    if (status >= 200 && status < 300 && typeof id === 'string') return { ok: true, providerMessageId: id };
    return httpFailure(this.name, status);
  }

  check() {
    return probe(this.name, {
      url: joinUrl(this.options.baseUrl, '/v1/account'),
      headers: { authorization: `Bearer ${this.options.apiKey}` },
      timeoutMs: this.options.timeoutMs,
    });
  }
}
