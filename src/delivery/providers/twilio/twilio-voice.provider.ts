import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { codeForLocale } from '../../locales/language-code.js';
import { voiceLanguage, voiceScript } from '../../messages.js';
import { joinUrl, probe } from '../http.js';
import { basicAuth, postToAccount } from './twilio.provider.js';
import type { TwilioOptions } from './twilio.settings.js';

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);

/** The TwiML of a code call: the two sentences of `voiceScript`, a pause between them. */
export function codeCallTwiml(request: DeliveryRequest, language: string): string {
  const say = (text: string) => `<Say language="${escapeXml(language)}">${escapeXml(text)}</Say>`;
  const [first, again] = voiceScript(request);
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${say(first)}<Pause length="1"/>${say(again)}</Response>`;
}

/**
 * A WhatsApp CALL: a phone call to the same number through Twilio Programmable Voice, placed with
 * inline TwiML whose `<Say>` speaks the code digit by digit, twice. The WhatsApp Business Calling
 * API cannot be used for this: it needs the user's prior call permission and a WebRTC/SIP media
 * stack on our side, and has no text-to-speech.
 */
export class TwilioVoiceProvider implements ChannelProvider {
  readonly name = 'twilio-voice';
  readonly channels: readonly Channel[] = ['WHATSAPP'];

  constructor(private readonly options: TwilioOptions & { voiceFrom: string }) {}

  send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    const form = new URLSearchParams({
      To: request.to,
      From: o.voiceFrom,
      // TWILIO_VOICE_LANGUAGE for requests in its language (its regional variant), else the locale's.
      Twiml: codeCallTwiml(
        request,
        codeForLocale(request.locale, [o.voiceLanguage]) ?? voiceLanguage(request),
      ),
      // Ring for 30 s rather than Twilio's 60: a code call nobody takes should end quickly.
      Timeout: '30',
    });
    if (o.statusCallbackUrl) form.set('StatusCallback', o.statusCallbackUrl);
    return postToAccount(this.name, o, 'Calls', form);
  }

  check() {
    const o = this.options;
    return probe(this.name, {
      url: joinUrl(o.baseUrl, `/2010-04-01/Accounts/${encodeURIComponent(o.accountSid)}.json`),
      headers: { authorization: basicAuth(o) },
      timeoutMs: o.timeoutMs,
    });
  }
}
