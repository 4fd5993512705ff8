import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { codeForLocale } from '../../locales/language-code.js';
import { speechFor } from '../../messages.js';
import { postToAccount, probeAccount } from '../twilio/twilio.provider.js';
import { TWILIO_VOICES } from '../twilio/twilio.voices.js';
import type { TwilioVoiceOptions } from './twilio-voice.settings.js';

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
 * A VOICE call through Twilio Programmable Voice (the Calls resource), placed with inline TwiML
 * whose `<Say>` speaks the code digit by digit, twice. The call's progress (answered, then
 * completed, or busy, no-answer, failed) comes to the status callback.
 */
export class TwilioVoiceProvider implements ChannelProvider {
  readonly name = 'twilio-voice';
  readonly channels: readonly Channel[] = ['VOICE'];

  constructor(private readonly options: TwilioVoiceOptions) {}

  send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    const form = new URLSearchParams({
      To: request.to,
      From: o.voiceFrom,
      Twiml: codeCallTwiml(request, o.voiceLanguage),
      // Ring for 30 s rather than Twilio's 60: a code call nobody takes should end quickly.
      Timeout: '30',
    });
    if (o.statusCallbackUrl) {
      form.set('StatusCallback', o.statusCallbackUrl);
      // Twilio posts only `completed` unless asked for more.
      for (const event of ['answered', 'completed']) form.append('StatusCallbackEvent', event);
    }
    return postToAccount(this.name, o, 'Calls', form);
  }

  check() {
    return probeAccount(this.name, this.options);
  }
}
