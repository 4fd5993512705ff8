import { providerBaseUrl, type SettingsValues } from '../../../delivery/providers/settings.js';
import { twilioSettings } from '../../../delivery/providers/twilio/twilio.settings.js';

/** Twilio Lookup v2: the account's credentials (shared with Twilio SMS) and its own base URL. */
export const twilioLookupSettings = {
  twilioAccountSid: twilioSettings.twilioAccountSid,
  twilioAuthToken: twilioSettings.twilioAuthToken,
  twilioLookupBaseUrl: providerBaseUrl(
    'twilio',
    'TWILIO_LOOKUP_BASE_URL',
    'https://lookups.twilio.com',
    'Twilio Lookup v2',
  ),
};

export type TwilioLookupConfig = SettingsValues<typeof twilioLookupSettings>;
