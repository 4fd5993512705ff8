import { providerDefault, providerString, type SettingsValues } from '../settings.js';
import { type TwilioAccount, twilioAccount, twilioSettings } from '../twilio/twilio.settings.js';

/** Twilio Voice: the account's settings (shared with Twilio SMS) and the call's own. */
export const twilioVoiceSettings = {
  ...twilioSettings,
  twilioVoiceFrom: providerString('twilio-voice', {
    env: 'TWILIO_VOICE_FROM',
    description:
      'Caller ID (E.164, a Twilio number) of VOICE calls; defaults to TWILIO_FROM when that is a phone number. Twilio Voice is configured when the account SID, the token and a caller ID are.',
  }),
  twilioVoiceLanguage: providerDefault(
    'twilio-voice',
    'TWILIO_VOICE_LANGUAGE',
    'en-US',
    'Language of the spoken code (TwiML `<Say language>`) for requests in its language; a request in another supported language (send-code `locale`) is spoken in that one.',
  ),
};

export interface TwilioVoiceOptions extends TwilioAccount {
  /** Caller ID of the calls. */
  voiceFrom: string;
  voiceLanguage: string;
  /** Where Twilio posts the call's progress; omitted when the public URL is unknown. */
  statusCallbackUrl: string | null;
}

/** Twilio Voice's options when the account and a phone-number caller ID are set, else null. */
export function twilioVoiceOptions(
  config: SettingsValues<typeof twilioVoiceSettings>,
  publicBaseUrl: string | null,
): TwilioVoiceOptions | null {
  const account = twilioAccount(config);
  const from = config.twilioFrom && /^\+\d{6,15}$/.test(config.twilioFrom) ? config.twilioFrom : null;
  const voiceFrom = config.twilioVoiceFrom ?? from;
  if (!account || !voiceFrom) return null;
  return {
    ...account,
    voiceFrom,
    voiceLanguage: config.twilioVoiceLanguage,
    statusCallbackUrl: publicBaseUrl ? `${publicBaseUrl}/v1/callbacks/twilio-voice` : null,
  };
}
