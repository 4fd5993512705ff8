import { header, rawBody } from '../callback.js';
import { defineProvider } from '../module.js';
import { vonageCallUpdate } from './vonage-voice.callback.js';
import { verifyVonageWebhook } from './vonage-voice.jwt.js';
import { VonageVoiceProvider } from './vonage-voice.provider.js';
import { vonagePrivateKey, vonageVoiceOptions, vonageVoiceSettings } from './vonage-voice.settings.js';

/** VOICE: the code read out in a phone call placed through the Vonage Voice API. */
export const vonageVoice = defineProvider({
  name: 'vonage-voice',
  title: 'Vonage Voice',
  api: 'Vonage Voice API, `POST /v1/calls` with an NCCO `talk` action (JWT of the application)',
  channel: 'VOICE',
  settings: vonageVoiceSettings,
  configured: (config, { publicBaseUrl }) => vonageVoiceOptions(config, publicBaseUrl) !== null,
  problems: (config) => [
    ...(config.vonagePrivateKey && !vonagePrivateKey(config.vonagePrivateKey)
      ? [
          "VONAGE_PRIVATE_KEY: not a PEM private key (the application's private.key; `\\n` may stand for a line break)",
        ]
      : []),
    ...(config.vonageVoiceFrom && !(config.vonageApplicationId && config.vonagePrivateKey)
      ? ['VONAGE_VOICE_FROM: set, but Vonage Voice also needs VONAGE_APPLICATION_ID and VONAGE_PRIVATE_KEY']
      : []),
  ],
  create(config, { publicBaseUrl }) {
    const options = vonageVoiceOptions(config, publicBaseUrl);
    return options ? new VonageVoiceProvider(options) : null;
  },
  callbackRoutes(app, { config, now, record, http }) {
    app.post(
      '/v1/callbacks/vonage-voice',
      http.doc({
        operationId: 'receiveVonageCallEvent',
        summary: 'Vonage Voice call event (answered, completed, busy, timeout …)',
        checks:
          '`Authorization: Bearer <JWT>` must be signed HS256 with VONAGE_SIGNATURE_SECRET, issued (`iat`) within 5 minutes of now, its `payload_hash` the SHA-256 (hex) of the raw body.',
      }),
      async (request, reply) => {
        if (!config.vonageApplicationId || !config.vonageSignatureSecret)
          throw http.notConfigured('Vonage Voice (set VONAGE_SIGNATURE_SECRET)');
        const body = rawBody(request);
        if (!verifyVonageWebhook(header(request, 'authorization'), config.vonageSignatureSecret, body, now()))
          throw http.badSignature('Authorization');
        const update = vonageCallUpdate(http.parseJson(body));
        await record(update ? [update] : []);
        return http.received(reply);
      },
    );
  },
});
