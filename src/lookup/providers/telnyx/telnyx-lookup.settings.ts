import type { SettingsValues } from '../../../delivery/providers/settings.js';
import { telnyxSettings } from '../../../delivery/providers/telnyx/telnyx.settings.js';

/** Telnyx Number Lookup: the account's API key and base URL, shared with Telnyx SMS. */
export const telnyxLookupSettings = {
  telnyxApiKey: telnyxSettings.telnyxApiKey,
  telnyxBaseUrl: telnyxSettings.telnyxBaseUrl,
};

export type TelnyxLookupConfig = SettingsValues<typeof telnyxLookupSettings>;
