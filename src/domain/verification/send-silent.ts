import { DomainError } from '../errors.js';
import { maskDestination } from '../masking.js';
import type { DeliveryResult } from '../ports/delivery.js';
import type { SendRequest } from '../send-request.js';
import type { EffectiveSettings } from '../settings.js';
import type { AuthenticatedKey, Channel } from '../types.js';
import type { VerificationDeps } from './deps.js';
import { deliverOne } from './send-deliver.js';
import type { SendEntry } from './send-entry.js';
import type { IssuedTarget } from './send-issue.js';
import type { SilentFallbackSender } from './silent-fallback.js';

/**
 * Starts a SILENT request that has a `fallback`: the fallback is scheduled first (durable, so that
 * its timeout fires after a restart too), then the provider is asked to start the check. A start
 * that fails falls back at once: the entry is `undelivered` and names the fallback code's request;
 * when the fallback's code cannot be delivered either, both are canceled and the send is refused
 * (502 DELIVERY_FAILED, or 400 INVALID_DESTINATION when the number itself was refused).
 */
export async function deliverSilentWithFallback(
  deps: VerificationDeps,
  sender: SilentFallbackSender,
  key: AuthenticatedKey,
  request: SendRequest,
  t: IssuedTarget,
  fallback: Channel,
  expiresAt: number,
  s: EffectiveSettings,
): Promise<SendEntry> {
  const { store, clock, events, logger } = deps;
  await store.silentFallbacks.schedule({
    requestId: t.requestId,
    accountId: key.accountId,
    mode: key.mode,
    channel: fallback,
    dueAt: clock.now() + s.silentTimeoutSeconds * 1000,
    address: t.address,
    destination: t.destination,
    country: t.country,
    purpose: request.purpose,
    customMessage: request.customMessage,
    locale: t.delivery.locale,
  });
  let result: DeliveryResult;
  if (t.plan.via === 'provider') result = await deliverOne(deps, key, t);
  else {
    result = t.plan.result;
    events?.sent?.(t.channel, result, 0);
    if (!result.ok) await recordFailure(deps, t.requestId, result.error, false);
  }
  const entry: SendEntry = {
    requestId: t.requestId,
    channel: t.channel,
    status: 'pending',
    expiresAt: new Date(expiresAt).toISOString(),
    to: maskDestination(t.channel, t.destination),
    risk: t.risk,
  };
  if (result.ok) {
    if (result.silentUrl) entry.silent = { url: result.silentUrl };
    logger.info(
      {
        accountId: key.accountId,
        requestIds: [t.requestId],
        channels: [t.channel],
        to: [entry.to],
        fallback,
      },
      'code sent',
    );
    return entry;
  }
  const code = result.permanent ? 'INVALID_DESTINATION' : 'DELIVERY_FAILED';
  const message = result.permanent
    ? `The provider refused the destination: ${result.error}`
    : `The silent provider failed: ${result.error}`;
  const fell = await sender.fireNow(t.requestId, 'provider_failed', s, t.risk);
  if (fell?.status === 'pending')
    return { ...entry, status: 'undelivered', error: { code, message }, fallback: fell };
  // Neither the silent check nor its fallback code reached the device: nothing is pending.
  await recordFailure(deps, t.requestId, result.error, true);
  if (fell) await recordFailure(deps, fell.requestId, 'its delivery failed', true);
  const details = [
    { field: 'phone', channel: t.channel, message },
    {
      field: 'fallback',
      channel: fallback,
      message: `the ${fallback} fallback could not be delivered either`,
    },
  ];
  throw result.permanent && !fell
    ? new DomainError(
        'INVALID_DESTINATION',
        'The provider refused the destination; check the number.',
        details,
      )
    : new DomainError(
        'DELIVERY_FAILED',
        'Neither the silent check nor its fallback code could be delivered; retry later.',
        details,
      );
}

/** Records a failed delivery on a request, canceling it when nothing of its group reached anyone. */
async function recordFailure(deps: VerificationDeps, requestId: string, error: string, cancel: boolean) {
  await deps.store.verifications.recordDelivery(requestId, {
    at: deps.clock.now(),
    deliveryStatus: 'failed',
    provider: null,
    providerMessageId: null,
    error,
    cancel,
  });
}
