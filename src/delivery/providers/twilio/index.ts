import { header, rawBody } from '../callback.js';
import { defineProvider } from '../module.js';
import { twilioStatusUpdate, verifyTwilioSignature } from './twilio.callback.js';
import { TwilioSmsProvider } from './twilio.provider.js';
import { twilioOptions, twilioSettings } from './twilio.settings.js';

/** SMS through Twilio Programmable Messaging. */
export const twilio = defineProvider({
  name: 'twilio',
  title: 'Twilio',
  api: 'Twilio Programmable Messaging, `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`',
  channel: 'SMS',
  settings: twilioSettings,
  configured: (config, { publicBaseUrl }) => twilioOptions(config, publicBaseUrl) !== null,
  create(config, { publicBaseUrl, webOtpDomain }) {
    const options = twilioOptions(config, publicBaseUrl);
    return options ? new TwilioSmsProvider(options, webOtpDomain) : null;
  },
  callbackRoutes(app, { config, publicBaseUrl, record, http }) {
    app.post(
      '/v1/callbacks/twilio',
      http.doc({
        operationId: 'receiveTwilioStatus',
        summary: 'Twilio message status callback',
        checks:
          '`X-Twilio-Signature` must be the HMAC-SHA1, keyed with TWILIO_AUTH_TOKEN, of the URL Twilio called (PUBLIC_BASE_URL and the path) followed by the sorted form parameters.',
      }),
      async (request, reply) => {
        if (!config.twilioAuthToken) throw http.notConfigured('Twilio');
        const pairs = [...new URLSearchParams(rawBody(request)).entries()];
        // Twilio signs the URL it called; behind a proxy only PUBLIC_BASE_URL knows it.
        const url = `${publicBaseUrl ?? `${request.protocol}://${request.host}`}${request.url}`;
        if (
          !verifyTwilioSignature(config.twilioAuthToken, url, pairs, header(request, 'x-twilio-signature'))
        ) {
          throw http.badSignature('X-Twilio-Signature');
        }
        const update = twilioStatusUpdate(new Map(pairs));
        await record(update ? [update] : []);
        return http.received(reply);
      },
    );
  },
});
