import { channelSpec, destinationField } from '../channels/registry.js';
import { DomainError } from '../errors.js';
import type { Delivery } from '../ports/delivery.js';
import type { SendTarget } from '../rate-limit-policy.js';
import type { SendRequest } from '../send-request.js';
import type { EffectiveSettings } from '../settings.js';
import type { AuthenticatedKey, Channel, DeliveryType } from '../types.js';

/**
 * The destinations a send asks for, one per channel: refused when the key is not enabled for a
 * channel (403 CHANNEL_NOT_ENABLED) or a country is not in the account's allow-list (400
 * INVALID_DESTINATION).
 */
export function wantedTargets(
  key: AuthenticatedKey,
  request: SendRequest,
  s: EffectiveSettings,
): SendTarget[] {
  const notEnabled = request.channels.filter((c) => !key.channels.includes(c));
  if (notEnabled.length > 0) {
    throw new DomainError(
      'CHANNEL_NOT_ENABLED',
      `This API key is not enabled for ${notEnabled.join(' and ')}; add it to the key's channels (PATCH /v1/admin/api-keys/{id}, or contact-verify keys update) or use a key enabled for it.`,
      notEnabled.map((c) => ({
        field: 'channel',
        channel: c,
        message: `${c} is not enabled for this key`,
      })),
    );
  }
  if (request.fallback && !key.channels.includes(request.fallback)) {
    throw new DomainError(
      'CHANNEL_NOT_ENABLED',
      `This API key is not enabled for ${request.fallback}, the fallback; add it to the key's channels or send without fallback.`,
      [
        {
          field: 'fallback',
          channel: request.fallback,
          message: `${request.fallback} is not enabled for this key`,
        },
      ],
    );
  }
  const wanted = request.channels.map((channel) => targetOf(channel, request));
  const blocked = wanted.find((t) => t.country && s.allowedCountries && !s.allowedCountries.has(t.country));
  if (blocked) {
    throw new DomainError(
      'INVALID_DESTINATION',
      `Codes to ${blocked.country} by ${blocked.channel} are not enabled for this account.`,
      [
        {
          field: destinationField(blocked.channel),
          channel: blocked.channel,
          message: `country ${blocked.country} is not in the allow-list`,
        },
      ],
    );
  }
  return wanted;
}

/**
 * Where a channel of the request goes: its email address (counted as its mailbox), or its number
 * (counted as the subscriber it reaches).
 */
function targetOf(channel: Channel, request: SendRequest): SendTarget {
  if (destinationField(channel) === 'email') {
    return {
      channel,
      destination: request.mailbox as string,
      address: request.email as string,
      country: null,
    };
  }
  return {
    channel,
    destination: request.subscriber as string,
    address: request.phone as string,
    country: request.country,
  };
}

/** A channel of a send this deployment cannot deliver, and why. */
export interface UnavailableTarget {
  target: SendTarget;
  reason: string;
  /** No provider serves it and live codes are not parked (LIVE_OUTBOX=refuse): the operator can change that. */
  noProvider: boolean;
}

/** Why a channel of a send cannot be delivered on this deployment, or null when it can. */
function unavailability(
  delivery: Delivery,
  key: AuthenticatedKey,
  request: SendRequest,
  target: SendTarget,
): UnavailableTarget | null {
  const { channel } = target;
  // A delivery type the channel names but does not serve yet (ChannelSpec.unavailable), whatever the key's mode.
  const notYet = deliveryTypeOf(channel, request) && channelSpec(channel).unavailable?.[request.deliveryType];
  if (notYet)
    return {
      target,
      reason: `${channel} with deliveryType ${request.deliveryType}: ${notYet}`,
      noProvider: false,
    };
  if (!delivery.available(channel, key.mode, request.deliveryType))
    return { target, reason: `no provider is configured for ${channel}`, noProvider: true };
  return null;
}

/**
 * The targets a send may deliver to, and those it may not: a delivery type its channel does not
 * serve yet (ChannelSpec.unavailable), or, under LIVE_OUTBOX=refuse, a live code on a channel with no
 * provider. Refused before anything is screened, charged or stored: 503 CHANNEL_UNAVAILABLE when
 * no channel is left; in a dual send the other channel goes on alone.
 */
export function deliverableTargets(
  delivery: Delivery,
  key: AuthenticatedKey,
  request: SendRequest,
  wanted: SendTarget[],
): { targets: SendTarget[]; unavailable: UnavailableTarget[] } {
  const targets: SendTarget[] = [];
  const unavailable: UnavailableTarget[] = [];
  for (const target of wanted) {
    const refusal = unavailability(delivery, key, request, target);
    if (refusal === null) targets.push(target);
    else unavailable.push(refusal);
  }
  if (targets.length > 0) return { targets, unavailable };
  const details = unavailable.map(({ target, reason }) => ({
    field: 'channel',
    channel: target.channel,
    message: reason,
  }));
  if (unavailable.every((u) => u.noProvider))
    throw new DomainError(
      'CHANNEL_UNAVAILABLE',
      `No provider delivers ${request.channels.join(' or ')} codes on this deployment, and live codes are not parked in the outbox; nothing was sent. The operator must configure a provider (test keys use the outbox).`,
      details,
    );
  throw new DomainError(
    'CHANNEL_UNAVAILABLE',
    `Nothing was sent: ${unavailable.map((u) => u.reason).join('; ')}.`,
    details,
  );
}

/** The delivery type a request of the channel keeps: the request's, when the channel has types. */
export const deliveryTypeOf = (
  channel: Channel,
  request: Pick<SendRequest, 'deliveryType'>,
): DeliveryType | null => (channelSpec(channel).deliveryTypes.length > 0 ? request.deliveryType : null);

/**
 * A fallback must be deliverable when its moment comes: a channel a live key has no provider for
 * under LIVE_OUTBOX=refuse is refused up front (503 CHANNEL_UNAVAILABLE naming `fallback`).
 */
export function fallbackAvailable(delivery: Delivery, key: AuthenticatedKey, fallback: Channel): void {
  if (delivery.available(fallback, key.mode)) return;
  throw new DomainError(
    'CHANNEL_UNAVAILABLE',
    `No provider delivers ${fallback} codes on this deployment, so ${fallback} cannot be the fallback; nothing was sent.`,
    [{ field: 'fallback', channel: fallback, message: `no provider is configured for ${fallback}` }],
  );
}
