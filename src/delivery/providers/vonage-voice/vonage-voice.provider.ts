import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { speechFor } from '../../messages.js';
import { callApi, field, httpFailure, joinUrl, probe } from '../http.js';
import { VONAGE_VOICES } from '../vonage/vonage.voices.js';
import { applicationJwt } from './vonage-voice.jwt.js';
import type { VonageVoiceOptions } from './vonage-voice.settings.js';

/**
 * A VOICE call through the Vonage Voice API (`POST /v1/calls`) with an inline NCCO: two `talk`
 * actions, the two sentences of the script in the request's locale (its Vonage language). The call's events
 * (answered, completed, busy, timeout …) come to the event webhook.
 */
export class VonageVoiceProvider implements ChannelProvider {
  readonly name = 'vonage-voice';
  readonly channels: readonly Channel[] = ['VOICE'];

  constructor(
    private readonly options: VonageVoiceOptions,
    private readonly now: () => number = Date.now,
  ) {}

  private authorization() {
    const o = this.options;
    return `Bearer ${applicationJwt(o.applicationId, o.privateKey, this.now())}`;
  }

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    // The request's locale where Vonage has a voice for it, else English (speechFor).
    const { voice, script } = speechFor(request, VONAGE_VOICES);
    const talk = { language: voice.language, ...(voice.style === undefined ? {} : { style: voice.style }) };
    const body: Record<string, unknown> = {
      to: [{ type: 'phone', number: request.to.replace(/^\+/, '') }],
      from: { type: 'phone', number: o.from },
      ncco: script.map((text) => ({ action: 'talk', text, ...talk })),
      // Ring for 30 s rather than Vonage's 60: a code call nobody takes should end quickly.
      ringing_timer: 30,
    };
    if (o.eventUrl) {
      body.event_url = [o.eventUrl];
      body.event_method = 'POST';
    }
    const result = await callApi(this.name, {
      method: 'POST',
      url: joinUrl(o.baseUrl, '/v1/calls'),
      headers: { authorization: this.authorization() },
      body,
      timeoutMs: o.timeoutMs,
    });
    if (!result.ok) return result.outcome;
    const { status, json } = result.answer;
    const uuid = field(json, 'uuid');
    if (status >= 200 && status < 300 && typeof uuid === 'string')
      return { ok: true, providerMessageId: uuid };
    // Vonage's error body is {type, title, detail, invalid_parameters}; the detail may echo the number.
    const title = field(json, 'title');
    return httpFailure(this.name, status, typeof title === 'string' ? title.slice(0, 60) : undefined);
  }

  /** Lists one call: an authenticated read that places none. */
  check() {
    return probe(this.name, {
      url: joinUrl(this.options.baseUrl, '/v1/calls?page_size=1'),
      headers: { authorization: this.authorization() },
      timeoutMs: this.options.timeoutMs,
    });
  }
}
