import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { codeForLocale } from '../../locales/language-code.js';
import { speechFor } from '../../messages.js';
import { joinUrl, probe } from '../http.js';
import { basicAuth, postToAccount } from './twilio.provider.js';
import type { TwilioOptions } from './twilio.settings.js';
import { TWILIO_VOICES } from './twilio.voices.js';

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);

/**
 * The TwiML of a code call: the two sentences of the request's locale (English where Twilio has
 * no voice for it), a pause between them. TWILIO_VOICE_LANGUAGE, when it is in the spoken
 * language, sets the regional variant, spoken by the account's default voice for it.
 */
export function codeCallTwiml(request: DeliveryRequest, deploymentLanguage?: string): string {
  const { locale, voice, script } = speechFor(request, TWILIO_VOICES);
  const regional = deploymentLanguage ? codeForLocale(locale, [deploymentLanguage]) : null;
  const attributes = regional
    ? `language="${escapeXml(regional)}"`
    : `language="${escapeXml(voice.language)}" voice="${escapeXml(voice.voice)}"`;
  const say = (text: string) => `<Say ${attributes}>${escapeXml(text)}</Say>`;
  const [first, again] = script;
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
      Twiml: codeCallTwiml(request, o.voiceLanguage),
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
