import { defineProvider } from '../module.js';
import { VonageVerifyProvider } from './vonage-verify.provider.js';
import { vonageVerifyOptions, vonageVerifySettings } from './vonage-verify.settings.js';

/** SILENT: silent network authentication through Vonage Verify v2's silent_auth workflow. */
export const vonageVerify = defineProvider({
  name: 'vonage-verify',
  title: 'Vonage Verify silent_auth',
  api: "Vonage Verify v2, `POST /v2/verify` with a `silent_auth` workflow, then `POST /v2/verify/{request_id}` with the device's code (JWT of the application)",
  setup: 'VONAGE_APPLICATION_ID and VONAGE_PRIVATE_KEY (a PEM private key) of an application with Verify',
  channel: 'SILENT',
  choice: 'vonage',
  settings: vonageVerifySettings,
  configured: (config) => vonageVerifyOptions(config) !== null,
  create(config) {
    const options = vonageVerifyOptions(config);
    return options ? new VonageVerifyProvider(options) : null;
  },
});
