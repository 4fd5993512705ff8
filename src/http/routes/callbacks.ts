import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import type { StatusUpdate } from '../../delivery/providers/callback.js';
import type { WhatsAppCallsRuntime } from '../../delivery/providers/module.js';
import { PROVIDERS, type ProviderList } from '../../delivery/providers/registry.js';
import type { StateSeal } from '../../delivery/providers/state-seal.js';
import type { Clock } from '../../domain/clock.js';
import type { VerificationService } from '../../domain/verification-service.js';
import { callbackHttp } from '../callback-http.js';

export interface CallbackDeps {
  config: Config;
  service: Pick<VerificationService, 'recordProviderStatus'>;
  clock: Clock;
  logger: Logger;
  /** The providers whose routes to mount (the registry by default). */
  providers?: ProviderList;
  /** Opens what providers sealed for their webhooks: the one buildDelivery was given. */
  seal: StateSeal;
  /** The WhatsApp calling flow, when WhatsApp can call (its webhooks come to the WhatsApp route). */
  whatsappCalls?: WhatsAppCallsRuntime | null;
  /** Pauses before looking again for a message not recorded yet (see `record`). */
  unknownRetryDelaysMs?: number[];
}

/**
 * A provider may call back before the service has recorded the id it gave the message: the send
 * request is still between the provider's answer and its commit. Looked up again after these
 * pauses, such a callback still lands; one for an id that never appears is dropped after them.
 */
const UNKNOWN_RETRY_DELAYS_MS = [100, 400, 1500];

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
      const found = await deps.service.recordProviderStatus(
        u.provider,
        u.providerMessageId,
        u.status,
        u.error ?? null,
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
  const record = async (updates: StatusUpdate[]) => {
    await Promise.all(updates.map(recordOne));
  };
  // Each provider mounts its own routes (src/delivery/providers/<name>/index.ts).
  for (const provider of deps.providers ?? PROVIDERS) {
    provider.callbackRoutes?.(app, {
      // The whole configuration holds every provider's settings; TypeScript cannot pair them in a loop.
      config: config as never,
      publicBaseUrl: config.publicBaseUrl ?? null,
      now: () => deps.clock.now(),
      record,
      seal: deps.seal,
      http: callbackHttp,
      whatsappCalls: deps.whatsappCalls ?? null,
    });
  }
};
