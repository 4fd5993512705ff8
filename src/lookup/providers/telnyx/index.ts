import { defineLookupProvider, missingOf } from '../../module.js';
import { TelnyxLookup } from './telnyx-lookup.js';
import { telnyxLookupSettings } from './telnyx-lookup.settings.js';

/** Telnyx Number Lookup: line type and carrier (no SIM changes), with the Telnyx API key. */
export const telnyx = defineLookupProvider({
  name: 'telnyx',
  title: 'Telnyx Number Lookup',
  api: 'Telnyx Number Lookup, `GET /v2/number_lookup/{phone_number}?type=carrier`',
  parts: { line: true, sim: false },
  settings: telnyxLookupSettings,
  shared: ['telnyxApiKey'],
  missing: (config) => missingOf(telnyxLookupSettings, config, ['telnyxApiKey']),
  create: (config) =>
    new TelnyxLookup({ apiKey: config.telnyxApiKey as string, baseUrl: config.telnyxBaseUrl }),
});
