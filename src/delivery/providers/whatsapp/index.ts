import { header, rawBody, sameSecret } from '../callback.js';
import { defineProvider } from '../module.js';
import { verifyMetaSignature, whatsappStatusUpdates } from './whatsapp.callback.js';
import { WhatsAppProvider } from './whatsapp.provider.js';
import { whatsappOptions, whatsappSettings } from './whatsapp.settings.js';

/** WHATSAPP text messages through the WhatsApp Cloud API. */
export const whatsapp = defineProvider({
  name: 'whatsapp',
  title: 'WhatsApp',
  api: 'WhatsApp Cloud API, `POST /{version}/{phone-number-id}/messages`',
  channel: 'WHATSAPP',
  deliveryType: 'TEXT',
  settings: whatsappSettings,
  configured: (config) => whatsappOptions(config) !== null,
  create(config) {
    const options = whatsappOptions(config);
    return options ? new WhatsAppProvider(options) : null;
  },
  callbackRoutes(app, { config, record, http }) {
    // Meta's subscription handshake: echo hub.challenge when hub.verify_token matches.
    app.get(
      '/v1/callbacks/whatsapp',
      http.doc({
        operationId: 'verifyWhatsappWebhook',
        summary: 'WhatsApp webhook verification',
        checks: "Meta's subscription handshake: `hub.verify_token` must equal WHATSAPP_VERIFY_TOKEN.",
        text: 'The `hub.challenge` echoed back.',
      }),
      async (request, reply) => {
        if (!config.whatsappVerifyToken) throw http.notConfigured('WhatsApp (set WHATSAPP_VERIFY_TOKEN)');
        const q = request.query as Record<string, string | undefined>;
        if (q['hub.mode'] !== 'subscribe' || !/^[\w-]{1,128}$/.test(q['hub.challenge'] ?? '')) {
          throw http.invalid('Expected hub.mode=subscribe, hub.verify_token and hub.challenge.');
        }
        if (!sameSecret(q['hub.verify_token'] ?? '', config.whatsappVerifyToken)) {
          throw http.unauthorized('hub.verify_token does not match WHATSAPP_VERIFY_TOKEN.');
        }
        return reply.code(200).type('text/plain').send(q['hub.challenge']);
      },
    );

    app.post(
      '/v1/callbacks/whatsapp',
      http.doc({
        operationId: 'receiveWhatsappStatus',
        summary: 'WhatsApp Cloud API webhook',
        checks:
          '`X-Hub-Signature-256` must be `sha256=` and the HMAC-SHA256 of the raw body keyed with WHATSAPP_APP_SECRET.',
      }),
      async (request, reply) => {
        if (!config.whatsappAppSecret) throw http.notConfigured('WhatsApp (set WHATSAPP_APP_SECRET)');
        const body = rawBody(request);
        if (!verifyMetaSignature(config.whatsappAppSecret, body, header(request, 'x-hub-signature-256'))) {
          throw http.badSignature('X-Hub-Signature-256');
        }
        await record(whatsappStatusUpdates(http.parseJson(body)));
        return http.received(reply);
      },
    );
  },
});
