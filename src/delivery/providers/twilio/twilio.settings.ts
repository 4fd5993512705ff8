import {
  providerBaseUrl,
  providerDefault,
  providerString,
  providerTimeout,
  type SettingsValues,
} from '../settings.js';

export const twilioSettings = {
  twilioAccountSid: providerString('twilio', {
    env: 'TWILIO_ACCOUNT_SID',
    required: true,
    description:
      'Twilio Account SID (`AC…`). Twilio sends SMS, and places the voice call of a WhatsApp CALL.',
  }),
  twilioAuthToken: providerString('twilio', {
    env: 'TWILIO_AUTH_TOKEN',
    required: true,
    secret: true,
    description: 'Twilio Auth Token: HTTP Basic password of the API and key of the X-Twilio-Signature check.',
  }),
  twilioFrom: providerString('twilio', {
    env: 'TWILIO_FROM',
    required: true,
    description:
      'Sender of Twilio SMS: an E.164 number, an alphanumeric sender ID, or a Messaging Service SID (`MG…`).',
  }),
  twilioVoiceFrom: providerString('twilio', {
    env: 'TWILIO_VOICE_FROM',
    description:
      'Caller ID (E.164) of WhatsApp CALL deliveries; defaults to TWILIO_FROM when that is a phone number.',
  }),
  twilioVoiceLanguage: providerDefault(
    'twilio',
    'TWILIO_VOICE_LANGUAGE',
    'en-US',
    'Language of the spoken code (TwiML `<Say language>`) for requests in its language; a request in another supported language (send-code `locale`) is spoken in that one.',
  ),
  twilioBaseUrl: providerBaseUrl('twilio', 'TWILIO_BASE_URL', 'https://api.twilio.com', 'Twilio REST'),
  twilioTimeoutMs: providerTimeout('twilio', 'TWILIO_TIMEOUT_MS', 5000, 'Twilio'),
};

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  from: string;
  /** Caller ID of voice calls; null when there is none (CALL then has no provider). */
  voiceFrom: string | null;
  voiceLanguage: string;
  baseUrl: string;
  timeoutMs: number;
  /** Where Twilio posts message and call status; omitted when the public URL is unknown. */
  statusCallbackUrl: string | null;
}

/** Twilio's options when it is configured, else null. */
export function twilioOptions(
  config: SettingsValues<typeof twilioSettings>,
  publicBaseUrl: string | null,
): TwilioOptions | null {
  if (!config.twilioAccountSid || !config.twilioAuthToken || !config.twilioFrom) return null;
  return {
    accountSid: config.twilioAccountSid,
    authToken: config.twilioAuthToken,
    from: config.twilioFrom,
    voiceFrom: config.twilioVoiceFrom ?? (/^\+\d{6,15}$/.test(config.twilioFrom) ? config.twilioFrom : null),
    voiceLanguage: config.twilioVoiceLanguage,
    baseUrl: config.twilioBaseUrl,
    timeoutMs: config.twilioTimeoutMs,
    statusCallbackUrl: publicBaseUrl ? `${publicBaseUrl}/v1/callbacks/twilio` : null,
  };
}
