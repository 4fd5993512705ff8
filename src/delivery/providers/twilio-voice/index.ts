import { header, rawBody } from '../callback.js';
import { defineProvider } from '../module.js';
import { verifyTwilioSignature } from '../twilio/twilio.callback.js';
import { twilioCallUpdate } from './twilio-voice.callback.js';
import { TwilioVoiceProvider } from './twilio-voice.provider.js';
import { twilioVoiceOptions, twilioVoiceSettings } from './twilio-voice.settings.js';

/** VOICE: the code read out in a phone call placed through Twilio Programmable Voice. */
export const twilioVoice = defineProvider({
  name: 'twilio-voice',
  title: 'Twilio Voice',
  api: 'Twilio Programmable Voice, `POST /2010-04-01/Accounts/{AccountSid}/Calls.json` with inline TwiML `<Say>`',
  setup: 'Twilio with a phone-number caller ID: TWILIO_VOICE_FROM, or TWILIO_FROM when it is a number',
  channel: 'VOICE',
  settings: twilioVoiceSettings,
  configured: (config, { publicBaseUrl }) => twilioVoiceOptions(config, publicBaseUrl) !== null,
  problems: (config) =>
    config.twilioVoiceFrom && !(config.twilioAccountSid && config.twilioAuthToken)
      ? ['TWILIO_VOICE_FROM: set, but Twilio Voice also needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN']
      : [],
  create(config, { publicBaseUrl }) {
    const options = twilioVoiceOptions(config, publicBaseUrl);
    return options ? new TwilioVoiceProvider(options) : null;
  },
  callbackRoutes(app, { config, publicBaseUrl, record, http }) {
    app.post(
      '/v1/callbacks/twilio-voice',
      http.doc({
        operationId: 'receiveTwilioCallStatus',
        summary: 'Twilio call status callback (answered, completed, busy, no-answer, failed)',
        checks:
          '`X-Twilio-Signature` must be the HMAC-SHA1, keyed with TWILIO_AUTH_TOKEN, of the URL Twilio called (PUBLIC_BASE_URL and the path) followed by the sorted form parameters.',
      }),
      async (request, reply) => {
        if (!config.twilioAuthToken) throw http.notConfigured('Twilio Voice');
        const pairs = [...new URLSearchParams(rawBody(request)).entries()];
        // Twilio signs the URL it called; behind a proxy only PUBLIC_BASE_URL knows it.
        const url = `${publicBaseUrl ?? `${request.protocol}://${request.host}`}${request.url}`;
        if (
          !verifyTwilioSignature(config.twilioAuthToken, url, pairs, header(request, 'x-twilio-signature'))
        ) {
          throw http.badSignature('X-Twilio-Signature');
        }
        const update = twilioCallUpdate(new Map(pairs));
        await record(update ? [update] : []);
        return http.received(reply);
      },
    );
  },
});
