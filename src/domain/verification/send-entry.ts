import { timeOrderedUuid } from '../ids.js';
import { maskDestination } from '../masking.js';
import type { RiskAssessment } from '../risk.js';
import type { SendRequest } from '../send-request.js';
import type { FallbackReason } from '../silent.js';
import type { Channel, DeliveryType } from '../types.js';
import type { UnavailableTarget } from './send-targets.js';
import { deliveryTypeOf } from './send-targets.js';

/** One entry of a send-code answer. */
export interface SendEntry {
  requestId: string;
  channel: Channel;
  status: 'pending' | 'undelivered';
  expiresAt: string;
  to: string;
  deliveryType?: DeliveryType;
  error?: { code: 'DELIVERY_FAILED' | 'INVALID_DESTINATION' | 'CHANNEL_UNAVAILABLE'; message: string };
  /** Absent on the entry of a channel that was not attempted (CHANNEL_UNAVAILABLE). */
  risk?: RiskAssessment;
  /** SILENT: the URL the app opens on the device over mobile data. */
  silent?: { url: string };
  /** SILENT with `fallback`: the code sent at once because the silent start failed. */
  fallback?: FallbackEntry;
}

/** The fallback code of a SILENT send, as its answer (and the resource) shows it. */
export interface FallbackEntry {
  requestId: string;
  channel: Channel;
  status: 'pending' | 'undelivered';
  reason: FallbackReason;
  expiresAt: string;
}

/** The entry of a dual send's channel that was refused as unavailable: no request was created for it. */
export function unavailableEntry(
  { target, reason }: UnavailableTarget,
  request: SendRequest,
  expiresAt: number,
  now: number,
): SendEntry {
  const deliveryType = deliveryTypeOf(target.channel, request);
  return {
    // A well-formed id that names nothing: verify with the other entry's requestId.
    requestId: timeOrderedUuid(now),
    channel: target.channel,
    status: 'undelivered',
    expiresAt: new Date(expiresAt).toISOString(),
    to: maskDestination(target.channel, target.destination),
    ...(deliveryType ? { deliveryType } : {}),
    error: { code: 'CHANNEL_UNAVAILABLE', message: `Not sent: ${reason}.` },
  };
}
