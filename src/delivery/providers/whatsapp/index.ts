import { header, rawBody, sameSecret } from '../callback.js';
import { defineProvider } from '../module.js';
import { whatsappCallEvents } from './whatsapp.call-events.js';
import { WHATSAPP_CALL_PROVIDER } from './whatsapp.call-flow.js';
import { WhatsAppCallProvider } from './whatsapp.call-provider.js';
import { whatsappCallsConfigured } from './whatsapp.call-setup.js';
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
  callbackRoutes(app, { config, record, http, whatsappCalls }) {
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
          '`X-Hub-Signature-256` must be `sha256=` and the HMAC-SHA256 of the raw body keyed with WHATSAPP_APP_SECRET. Carries message statuses, call-permission replies (`messages`) and the `calls` field (connect with the SDP answer, RINGING/ACCEPTED/REJECTED, terminate).',
      }),
      async (request, reply) => {
        if (!config.whatsappAppSecret) throw http.notConfigured('WhatsApp (set WHATSAPP_APP_SECRET)');
        const body = rawBody(request);
        if (!verifyMetaSignature(config.whatsappAppSecret, body, header(request, 'x-hub-signature-256'))) {
          throw http.badSignature('X-Hub-Signature-256');
        }
        const parsed = http.parseJson(body);
        await record(whatsappStatusUpdates(parsed));
        // Any instance takes a call's webhook: what needs the call's media is handed to its holder.
        if (whatsappCalls) await whatsappCalls.flow.handle(whatsappCallEvents(parsed));
        return http.received(reply);
      },
    );
  },
});

/**
 * WHATSAPP with deliveryType CALL: a WhatsApp call that speaks the code (WhatsApp Cloud API
 * calling), after the user's call permission. Its webhooks come to the route above.
 */
export const whatsappCall = defineProvider({
  name: WHATSAPP_CALL_PROVIDER,
  title: 'WhatsApp calls',
  api: 'WhatsApp Cloud API calling: `GET /{version}/{phone-number-id}/call_permissions`, `POST …/messages` (`call_permission_request`), `POST …/calls` (connect, terminate), media over WebRTC',
  setup:
    'the WhatsApp settings with WHATSAPP_APP_SECRET (permission replies and the `calls` webhook field come to /v1/callbacks/whatsapp)',
  channel: 'WHATSAPP',
  deliveryType: 'CALL',
  settings: whatsappSettings,
  configured: (config) => whatsappCallsConfigured(config),
  create(_config, context) {
    const calls = context.whatsappCalls;
    return calls ? new WhatsAppCallProvider(calls.flow, calls.calling) : null;
  },
});
