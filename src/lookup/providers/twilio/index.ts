import { defineLookupProvider, missingOf } from '../../module.js';
import { TwilioLookup } from './twilio-lookup.js';
import { twilioLookupSettings } from './twilio-lookup.settings.js';

/** Twilio Lookup v2: Line Type Intelligence and SIM Swap, with the Twilio account's credentials. */
export const twilio = defineLookupProvider({
  name: 'twilio',
  title: 'Twilio Lookup',
  api: 'Twilio Lookup v2, `GET /v2/PhoneNumbers/{PhoneNumber}?Fields=line_type_intelligence,sim_swap`',
  parts: { line: true, sim: true },
  settings: twilioLookupSettings,
  shared: ['twilioAccountSid', 'twilioAuthToken'],
  missing: (config) => missingOf(twilioLookupSettings, config, ['twilioAccountSid', 'twilioAuthToken']),
  create: (config) =>
    new TwilioLookup({
      accountSid: config.twilioAccountSid as string,
      authToken: config.twilioAuthToken as string,
      baseUrl: config.twilioLookupBaseUrl,
    }),
});
