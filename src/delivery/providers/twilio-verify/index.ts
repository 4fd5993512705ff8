import { defineProvider } from '../module.js';
import { TwilioVerifyProvider } from './twilio-verify.provider.js';
import { twilioVerifyOptions, twilioVerifySettings } from './twilio-verify.settings.js';

/** SILENT: silent network authentication through Twilio Verify's SNA channel. */
export const twilioVerify = defineProvider({
  name: 'twilio-verify',
  title: 'Twilio Verify SNA',
  api: 'Twilio Verify v2 Silent Network Auth, `POST /v2/Services/{ServiceSid}/Verifications` with `Channel=sna`, then `POST …/VerificationCheck`',
  setup:
    'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_VERIFY_SERVICE_SID (a Verify service approved for SNA)',
  channel: 'SILENT',
  choice: 'twilio',
  settings: twilioVerifySettings,
  configured: (config) => twilioVerifyOptions(config) !== null,
  create(config) {
    const options = twilioVerifyOptions(config);
    return options ? new TwilioVerifyProvider(options) : null;
  },
});
