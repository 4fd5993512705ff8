import { providerBaseUrl, providerString, type SettingsValues } from '../settings.js';
import { type TwilioAccount, twilioAccount, twilioSettings } from '../twilio/twilio.settings.js';

/** Twilio Verify SNA: the account's settings (shared with Twilio SMS and Voice) and the Verify service's. */
export const twilioVerifySettings = {
  ...twilioSettings,
  twilioVerifyServiceSid: providerString('twilio-verify', {
    env: 'TWILIO_VERIFY_SERVICE_SID',
    required: true,
    pattern: '^VA[0-9a-fA-F]{32}$',
    description:
      'SID (`VA…`) of the Twilio Verify service whose Silent Network Auth carries the SILENT channel (with SILENT_PROVIDER=twilio; the account must be approved for SNA).',
  }),
  twilioVerifyBaseUrl: providerBaseUrl(
    'twilio-verify',
    'TWILIO_VERIFY_BASE_URL',
    'https://verify.twilio.com',
    'Twilio Verify v2',
  ),
};

export interface TwilioVerifyOptions extends TwilioAccount {
  serviceSid: string;
  verifyBaseUrl: string;
}

/** Twilio Verify's options when the account and the service are set, else null. */
export function twilioVerifyOptions(
  config: SettingsValues<typeof twilioVerifySettings>,
): TwilioVerifyOptions | null {
  const account = twilioAccount(config);
  if (!account || !config.twilioVerifyServiceSid) return null;
  return { ...account, serviceSid: config.twilioVerifyServiceSid, verifyBaseUrl: config.twilioVerifyBaseUrl };
}
