import { providerBaseUrl, providerString, providerTimeout, type SettingsValues } from '../settings.js';

export const twilioSettings = {
  twilioAccountSid: providerString('twilio', {
    env: 'TWILIO_ACCOUNT_SID',
    required: true,
    description: 'Twilio Account SID (`AC…`): of Twilio SMS, and of Twilio Voice (the VOICE channel).',
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
      'Sender of Twilio SMS: an E.164 number, an alphanumeric sender ID, or a Messaging Service SID (`MG…`). Twilio Voice alone (TWILIO_VOICE_FROM) does without it.',
  }),
  twilioBaseUrl: providerBaseUrl('twilio', 'TWILIO_BASE_URL', 'https://api.twilio.com', 'Twilio REST'),
  twilioTimeoutMs: providerTimeout('twilio', 'TWILIO_TIMEOUT_MS', 5000, 'Twilio'),
};

/** How the 2010-04-01 REST API of an account is reached (SMS and Voice alike). */
export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  baseUrl: string;
  timeoutMs: number;
}

export interface TwilioOptions extends TwilioAccount {
  from: string;
  /** Where Twilio posts message status; omitted when the public URL is unknown. */
  statusCallbackUrl: string | null;
}

/** The account's API when its credentials are set, else null. */
export function twilioAccount(config: SettingsValues<typeof twilioSettings>): TwilioAccount | null {
  if (!config.twilioAccountSid || !config.twilioAuthToken) return null;
  return {
    accountSid: config.twilioAccountSid,
    authToken: config.twilioAuthToken,
    baseUrl: config.twilioBaseUrl,
    timeoutMs: config.twilioTimeoutMs,
  };
}

/** Twilio SMS's options when it is configured (the account and a sender), else null. */
export function twilioOptions(
  config: SettingsValues<typeof twilioSettings>,
  publicBaseUrl: string | null,
): TwilioOptions | null {
  const account = twilioAccount(config);
  if (!account || !config.twilioFrom) return null;
  return {
    ...account,
    from: config.twilioFrom,
    statusCallbackUrl: publicBaseUrl ? `${publicBaseUrl}/v1/callbacks/twilio` : null,
  };
}
