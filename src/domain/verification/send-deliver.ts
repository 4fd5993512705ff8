import { channelSpec, destinationField } from '../channels/registry.js';
import { DomainError } from '../errors.js';
import { maskDestination } from '../masking.js';
import type { DeliveryResult } from '../ports/delivery.js';
import type { SendRequest } from '../send-request.js';
import type { AuthenticatedKey } from '../types.js';
import type { VerificationDeps } from './deps.js';
import type { SendEntry } from './send-entry.js';
import type { IssuedTarget } from './send-issue.js';
import { deliveryTypeOf } from './send-targets.js';

/**
 * Delivers the issued codes, both channels of a dual send at once, each settling on its own (a
 * code the outbox took is delivered already), and answers an entry per target. When every one
 * failed, the requests are canceled and the send is refused: 400 INVALID_DESTINATION when every
 * provider refused the destination itself, else 502 DELIVERY_FAILED.
 */
export async function deliverIssued(
  deps: VerificationDeps,
  key: AuthenticatedKey,
  request: SendRequest,
  issued: IssuedTarget[],
  expiresAt: number,
): Promise<SendEntry[]> {
  const delivered = await Promise.all(
    issued.map(async (t) => {
      if (t.plan.via === 'provider') return { t, result: await deliverOne(deps, key, t) };
      deps.events?.sent?.(t.channel, t.plan.result, 0);
      return { t, result: t.plan.result };
    }),
  );

  const entries = delivered.map(({ t, result }): SendEntry => {
    const entry: SendEntry = {
      requestId: t.requestId,
      channel: t.channel,
      status: result.ok ? 'pending' : 'undelivered',
      expiresAt: new Date(expiresAt).toISOString(),
      to: maskDestination(t.channel, t.destination),
      risk: t.risk,
    };
    const deliveryType = deliveryTypeOf(t.channel, request);
    if (deliveryType) entry.deliveryType = deliveryType;
    if (result.ok && result.silentUrl) entry.silent = { url: result.silentUrl };
    if (!result.ok) {
      entry.error = result.permanent
        ? { code: 'INVALID_DESTINATION', message: `The provider refused the destination: ${result.error}` }
        : { code: 'DELIVERY_FAILED', message: `Every provider failed: ${result.error}` };
    }
    return entry;
  });

  if (delivered.every(({ result }) => !result.ok)) {
    await Promise.all(
      issued.map((t) =>
        deps.store.verifications.recordDelivery(t.requestId, {
          at: deps.clock.now(),
          deliveryStatus: 'failed',
          provider: null,
          providerMessageId: null,
          cancel: true,
        }),
      ),
    );
    const allPermanent = delivered.every(({ result }) => !result.ok && result.permanent);
    const details = entries.map((e) => ({
      field: destinationField(e.channel),
      channel: e.channel,
      message: e.error?.message ?? '',
    }));
    throw allPermanent
      ? new DomainError(
          'INVALID_DESTINATION',
          'The provider refused the destination; check the address or number.',
          details,
        )
      : new DomainError(
          'DELIVERY_FAILED',
          'The code could not be delivered by any provider; retry later.',
          details,
        );
  }
  // One line per send: what an operator searches for. Destinations masked, never the code.
  deps.logger.info(
    {
      accountId: key.accountId,
      requestIds: entries.map((e) => e.requestId),
      channels: entries.map((e) => e.channel),
      to: entries.map((e) => e.to),
      purpose: request.purpose,
    },
    'code sent',
  );
  return entries;
}

/** Hands one message to its providers and records what became of it on its request. */
export async function deliverOne(
  deps: VerificationDeps,
  key: Pick<AuthenticatedKey, 'mode'>,
  t: IssuedTarget,
): Promise<DeliveryResult> {
  const { delivery, events, store, clock, logger } = deps;
  const started = performance.now();
  const result = await delivery.deliver(t.delivery, key.mode);
  events?.sent?.(t.channel, result, performance.now() - started);
  if (result.ok && !result.outbox) {
    await store.verifications.recordDelivery(t.requestId, {
      at: clock.now(),
      // A provider that took a call is placing it; answered and completed come in its callbacks.
      deliveryStatus: result.accepted ?? (channelSpec(t.channel).carrier === 'call' ? 'calling' : 'sent'),
      provider: result.provider,
      providerMessageId: result.providerMessageId,
    });
    // The provider's work that reports on this request goes on once the request names it.
    result.recorded?.();
  } else if (!result.ok) {
    await store.verifications.recordDelivery(t.requestId, {
      at: clock.now(),
      deliveryStatus: 'failed',
      provider: result.provider,
      providerMessageId: null,
      error: result.error,
    });
    logger.warn(
      {
        requestId: t.requestId,
        channel: t.channel,
        to: maskDestination(t.channel, t.destination),
        provider: result.provider,
        error: result.error,
      },
      'delivery failed',
    );
  }
  return result;
}
