import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { speechFor } from '../../messages.js';
import { callApi, field, httpFailure, joinUrl, probe } from '../http.js';
import type { StateSeal } from '../state-seal.js';
import { TELNYX_VOICES } from '../telnyx/telnyx.voices.js';
import { sealScript } from './telnyx-voice.script.js';
import type { TelnyxVoiceOptions } from './telnyx-voice.settings.js';

/**
 * A VOICE call through Telnyx Call Control: `POST /v2/calls` dials, with the script sealed in its
 * client_state; on the `call.answered` webhook the service has Telnyx speak it, on
 * `call.speak.ended` hangs up (see the callback routes).
 */
export class TelnyxVoiceProvider implements ChannelProvider {
  readonly name = 'telnyx-voice';
  readonly channels: readonly Channel[] = ['VOICE'];

  constructor(
    private readonly options: TelnyxVoiceOptions,
    /** Seals the script into the call's client_state, which its webhooks bring back. */
    private readonly seal: StateSeal,
    private readonly now: () => number = Date.now,
  ) {}

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    const { voice, script } = speechFor(request, TELNYX_VOICES);
    const clientState = sealScript(this.seal, {
      text: script.join(' '),
      voice: voice.voice,
      expiresAt: this.now() + request.codeTtlSeconds * 1000,
    });
    const result = await callApi(this.name, {
      method: 'POST',
      url: joinUrl(o.baseUrl, '/v2/calls'),
      headers: { authorization: `Bearer ${o.apiKey}` },
      body: {
        connection_id: o.connectionId,
        to: request.to,
        from: o.from,
        webhook_url: o.webhookUrl,
        webhook_url_method: 'POST',
        client_state: clientState,
        // Ring for 30 s rather than Telnyx's 60: a code call nobody takes should end quickly.
        timeout_secs: 30,
      },
      timeoutMs: o.timeoutMs,
    });
    if (!result.ok) return result.outcome;
    const { status, json } = result.answer;
    const id = field(json, 'data', 'call_control_id');
    if (status >= 200 && status < 300 && typeof id === 'string') return { ok: true, providerMessageId: id };
    const code = field(json, 'errors', 0, 'code');
    return httpFailure(this.name, status, code === undefined ? undefined : `error ${String(code)}`);
  }

  check() {
    return probe(this.name, {
      url: joinUrl(this.options.baseUrl, '/v2/balance'),
      headers: { authorization: `Bearer ${this.options.apiKey}` },
      timeoutMs: this.options.timeoutMs,
    });
  }
}
