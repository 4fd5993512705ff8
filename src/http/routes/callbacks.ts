import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import type { StatusUpdate } from '../../delivery/providers/callback.js';
import {
  telnyxStatusUpdate,
  verifyTelnyxSignature,
} from '../../delivery/providers/telnyx/telnyx.callback.js';
import {
  twilioStatusUpdate,
  verifyTwilioSignature,
} from '../../delivery/providers/twilio/twilio.callback.js';
import {
  verifyVonageSignature,
  vonageStatusUpdate,
} from '../../delivery/providers/vonage/vonage.callback.js';
import {
  verifyMetaSignature,
  whatsappStatusUpdates,
} from '../../delivery/providers/whatsapp/whatsapp.callback.js';
import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../store/interface.js';
import { ApiError } from '../errors.js';

export interface CallbackDeps {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Pauses before looking again for a message not recorded yet (see `record`). */
  unknownRetryDelaysMs?: number[];
}

/**
 * A provider may call back before the service has recorded the id it gave the message: the send
 * request is still between the provider's answer and its commit. Looked up again after these
 * pauses, such a callback still lands; one for an id that never appears is dropped after them.
 */
const UNKNOWN_RETRY_DELAYS_MS = [100, 400, 1500];

const notConfigured = (what: string) =>
  new ApiError('NOT_FOUND', `Delivery callbacks of ${what} are not enabled on this deployment.`);
const badSignature = (header: string) =>
  new ApiError('UNAUTHORIZED', `The ${header} signature does not match this request.`);

/**
 * Delivery status callbacks under /v1/callbacks/<provider>. Each request is authenticated by the
 * provider's own signature over the raw body before anything in it is believed; a final status is
 * recorded on the message the provider knows by its id. Registered in its own plugin context so
 * that the form and raw-body parsers below never apply to the public API.
 */
export const callbackRoutes = (deps: CallbackDeps) => async (app: FastifyInstance) => {
  const { config } = deps;
  app.removeAllContentTypeParsers();
  // Bodies stay raw strings: signatures are computed over the exact bytes the provider sent.
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'application/json'],
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => done(null, body),
  );

  const delays = deps.unknownRetryDelaysMs ?? UNKNOWN_RETRY_DELAYS_MS;
  const recordOne = async (u: StatusUpdate) => {
    for (let attempt = 0; ; attempt++) {
      const found = await deps.store.recordDeliveryByProviderId(
        u.provider,
        u.providerMessageId,
        u.status,
        u.error,
      );
      if (found) return;
      const pause = delays[attempt];
      // Unknown ids are acknowledged anyway: a refusal would only make the provider retry.
      if (pause === undefined) {
        deps.logger.debug({ provider: u.provider }, 'status callback for an unknown message');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
  const record = (updates: StatusUpdate[]) => Promise.all(updates.map(recordOne));
  const doc = (summary: string) => ({ schema: { tags: ['callbacks'], summary } });

  app.post('/v1/callbacks/twilio', doc('Twilio message and call status callback'), async (request, reply) => {
    if (!config.twilioAuthToken) throw notConfigured('Twilio');
    const pairs = [...new URLSearchParams(rawBody(request)).entries()];
    // Twilio signs the URL it called; behind a proxy only PUBLIC_BASE_URL knows it.
    const url = `${config.publicBaseUrl ?? `${request.protocol}://${request.host}`}${request.url}`;
    if (!verifyTwilioSignature(config.twilioAuthToken, url, pairs, header(request, 'x-twilio-signature'))) {
      throw badSignature('X-Twilio-Signature');
    }
    const update = twilioStatusUpdate(new Map(pairs));
    await record(update ? [update] : []);
    return done(reply);
  });

  // Vonage sends delivery receipts as GET or POST (form or JSON), as chosen in its dashboard.
  const vonage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!config.vonageApiKey) throw notConfigured('Vonage');
    const params: Record<string, string> = { ...(request.query as Record<string, string>) };
    const body = rawBody(request);
    if (body) Object.assign(params, isJson(request) ? stringValues(parseJson(body)) : formValues(body));
    const trusted = config.vonageSignatureSecret
      ? verifyVonageSignature(
          params,
          config.vonageSignatureSecret,
          config.vonageSignatureMethod,
          deps.clock.now(),
        )
      : params['api-key'] === config.vonageApiKey;
    if (!trusted) throw badSignature(config.vonageSignatureSecret ? 'sig' : 'api-key');
    const update = vonageStatusUpdate(params);
    await record(update ? [update] : []);
    return done(reply);
  };
  app.get('/v1/callbacks/vonage', doc('Vonage delivery receipt'), vonage);
  app.post('/v1/callbacks/vonage', doc('Vonage delivery receipt'), vonage);

  app.post('/v1/callbacks/telnyx', doc('Telnyx messaging webhook'), async (request, reply) => {
    if (!config.telnyxApiKey || !config.telnyxPublicKey)
      throw notConfigured('Telnyx (set TELNYX_PUBLIC_KEY)');
    const body = rawBody(request);
    const signed = verifyTelnyxSignature(
      config.telnyxPublicKey,
      body,
      header(request, 'telnyx-signature-ed25519'),
      header(request, 'telnyx-timestamp'),
      deps.clock.now(),
    );
    if (!signed) throw badSignature('telnyx-signature-ed25519');
    const update = telnyxStatusUpdate(parseJson(body));
    await record(update ? [update] : []);
    return done(reply);
  });

  // Meta's subscription handshake: echo hub.challenge when hub.verify_token matches.
  app.get('/v1/callbacks/whatsapp', doc('WhatsApp webhook verification'), async (request, reply) => {
    if (!config.whatsappVerifyToken) throw notConfigured('WhatsApp (set WHATSAPP_VERIFY_TOKEN)');
    const q = request.query as Record<string, string | undefined>;
    if (q['hub.mode'] !== 'subscribe' || !/^[\w-]{1,128}$/.test(q['hub.challenge'] ?? '')) {
      throw new ApiError(
        'VALIDATION_ERROR',
        'Expected hub.mode=subscribe, hub.verify_token and hub.challenge.',
      );
    }
    if (!sameSecret(q['hub.verify_token'] ?? '', config.whatsappVerifyToken)) {
      throw new ApiError('UNAUTHORIZED', 'hub.verify_token does not match WHATSAPP_VERIFY_TOKEN.');
    }
    return reply.code(200).type('text/plain').send(q['hub.challenge']);
  });

  app.post('/v1/callbacks/whatsapp', doc('WhatsApp Cloud API webhook'), async (request, reply) => {
    if (!config.whatsappAppSecret) throw notConfigured('WhatsApp (set WHATSAPP_APP_SECRET)');
    const body = rawBody(request);
    if (!verifyMetaSignature(config.whatsappAppSecret, body, header(request, 'x-hub-signature-256'))) {
      throw badSignature('X-Hub-Signature-256');
    }
    await record(whatsappStatusUpdates(parseJson(body)));
    return done(reply);
  });
};

const done = (reply: FastifyReply) => reply.code(200).send({ data: { received: true } });

const rawBody = (request: FastifyRequest) => (typeof request.body === 'string' ? request.body : '');

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const isJson = (request: FastifyRequest) => (request.headers['content-type'] ?? '').includes('json');

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new ApiError('INVALID_JSON', 'The body is not valid JSON.');
  }
}

const formValues = (body: string) => Object.fromEntries(new URLSearchParams(body).entries());

function stringValues(json: unknown): Record<string, string> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return {};
  return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, String(v)]));
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
