import type { Logger } from 'pino';
import type { Clock } from '../../../domain/clock.js';
import type { Verifications } from '../../../domain/ports/verifications.js';
import type { WhatsAppCalls } from '../../../domain/ports/whatsapp-calls.js';
import type { MediaOptions } from '../../../media/settings.js';
import type { SettingsValues } from '../settings.js';
import type { StateSeal } from '../state-seal.js';
import { type CallTimings, WHATSAPP_CALL_PROVIDER, WhatsAppCallFlow } from './whatsapp.call-flow.js';
import { WhatsAppCalling, whatsappCallingOptions } from './whatsapp.calling.js';
import type { whatsappSettings } from './whatsapp.settings.js';

/** Whether WHATSAPP CALL can work: WhatsApp configured, and its webhooks verifiable (the replies and the calls come there). */
export const whatsappCallsConfigured = (config: SettingsValues<typeof whatsappSettings>): boolean =>
  whatsappCallingOptions(config) !== null && Boolean(config.whatsappAppSecret);

export interface WhatsAppCallSetup {
  jobs: WhatsAppCalls;
  verifications: Pick<Verifications, 'recordDelivery' | 'recordDeliveryByProviderId' | 'getVerification'>;
  seal: StateSeal;
  media: MediaOptions;
  clock: Clock;
  logger: Logger;
  instanceId: string;
  timings?: Partial<CallTimings>;
}

/** The calling flow of a deployment whose WhatsApp can call (else null), built once by the composition root. */
export function buildWhatsAppCalls(
  config: SettingsValues<typeof whatsappSettings>,
  setup: WhatsAppCallSetup,
): { flow: WhatsAppCallFlow; calling: WhatsAppCalling } | null {
  const options = whatsappCallingOptions(config);
  if (!options || !whatsappCallsConfigured(config)) return null;
  const calling = new WhatsAppCalling(options);
  const { verifications, clock } = setup;
  const flow = new WhatsAppCallFlow({
    jobs: setup.jobs,
    calling,
    async report(job, status, error) {
      const found = await verifications.recordDeliveryByProviderId(
        WHATSAPP_CALL_PROVIDER,
        job.id,
        status,
        error,
        clock.now(),
      );
      // A send that stopped between storing the job and recording it: the request learns the job here.
      if (!found)
        await verifications.recordDelivery(job.verificationId, {
          at: clock.now(),
          deliveryStatus: status,
          provider: WHATSAPP_CALL_PROVIDER,
          providerMessageId: job.id,
          error,
        });
    },
    requestStatus: async (accountId, id) =>
      (await verifications.getVerification(accountId, id))?.status ?? null,
    seal: setup.seal,
    media: setup.media,
    clock,
    logger: setup.logger,
    instanceId: setup.instanceId,
    timings: setup.timings,
  });
  return { flow, calling };
}
