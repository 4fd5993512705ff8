import { header, rawBody } from '../callback.js';
import { defineProvider } from '../module.js';
import { telnyxStatusUpdate, verifyTelnyxSignature } from './telnyx.callback.js';
import { TelnyxSmsProvider } from './telnyx.provider.js';
import { telnyxOptions, telnyxSettings } from './telnyx.settings.js';

/** SMS through the Telnyx Messaging API v2. */
export const telnyx = defineProvider({
  name: 'telnyx',
  title: 'Telnyx',
  api: 'Telnyx Messaging API v2, `POST /v2/messages`',
  channel: 'SMS',
  settings: telnyxSettings,
  configured: (config, { publicBaseUrl }) => telnyxOptions(config, publicBaseUrl) !== null,
  create(config, { publicBaseUrl, webOtpDomain }) {
    const options = telnyxOptions(config, publicBaseUrl);
    return options ? new TelnyxSmsProvider(options, webOtpDomain) : null;
  },
  callbackRoutes(app, { config, now, record, http }) {
    app.post(
      '/v1/callbacks/telnyx',
      http.doc({
        operationId: 'receiveTelnyxStatus',
        summary: 'Telnyx messaging webhook',
        checks:
          '`telnyx-signature-ed25519` must be the Ed25519 signature, under TELNYX_PUBLIC_KEY, of `<telnyx-timestamp>|<raw body>`, with `telnyx-timestamp` within 5 minutes of now.',
      }),
      async (request, reply) => {
        if (!config.telnyxApiKey || !config.telnyxPublicKey)
          throw http.notConfigured('Telnyx (set TELNYX_PUBLIC_KEY)');
        const body = rawBody(request);
        const signed = verifyTelnyxSignature(
          config.telnyxPublicKey,
          body,
          header(request, 'telnyx-signature-ed25519'),
          header(request, 'telnyx-timestamp'),
          now(),
        );
        if (!signed) throw http.badSignature('telnyx-signature-ed25519');
        const update = telnyxStatusUpdate(http.parseJson(body));
        await record(update ? [update] : []);
        return http.received(reply);
      },
    );
  },
});
