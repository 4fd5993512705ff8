import { isSilentChannel } from '../channels/registry.js';
import { type ShownDeliveryStatus, shownDeliveryStatus } from '../delivery-states.js';
import { DomainError } from '../errors.js';
import { maskDestination } from '../masking.js';
import type { Verifications } from '../ports/verifications.js';
import type { FallbackReason } from '../silent.js';
import type {
  AuthenticatedKey,
  Channel,
  DeliveryType,
  Mode,
  Verification,
  VerificationStatus,
} from '../types.js';
import type { VerificationDeps } from './deps.js';
import { methodOf, type VerificationMethod } from './method.js';
import type { RequestSettings } from './settings.js';

/** A verification request as the API shows it (GET /v1/contact/verifications/{requestId}). */
export interface VerificationResource {
  requestId: string;
  channel: Channel;
  status: VerificationStatus;
  /** The destination masked as in send-code answers. */
  to: string;
  createdAt: string;
  expiresAt: string;
  attemptsRemaining: number;
  deliveryType?: DeliveryType;
  /** Present once verified. */
  verifiedAt?: string;
  method?: VerificationMethod;
  /** The other request of a dual send. */
  siblingRequestId?: string;
  /**
   * SILENT with send-code `fallback`: the fallback and what became of it (`scheduled`: waiting for
   * the timeout; `fired`: its code was sent as `requestId`, the sibling; `dropped`: not needed).
   */
  fallback?: {
    channel: Channel;
    state: 'scheduled' | 'fired' | 'dropped';
    reason?: FallbackReason;
    requestId?: string;
  };
  delivery: { status: ShownDeliveryStatus; provider?: string; updatedAt: string };
}

/**
 * Who may see a request: an API key (its account, mode and channels), or an operator naming an
 * account and a mode with every channel (the CLI).
 */
export interface RequestScope {
  accountId: string;
  mode: Mode;
  channels: readonly Channel[];
}

/**
 * Reading a verification request. Scoped as verify-code is: a request of another account, of the
 * key's other mode or of a channel the key is not enabled for is not found, exactly as an
 * unknown one (no oracle). A read changes nothing; it counts toward the key's verify rate.
 */
export class ReadVerification {
  constructor(
    private readonly deps: VerificationDeps,
    private readonly settings: RequestSettings,
  ) {}

  async get(key: AuthenticatedKey, requestId: string): Promise<VerificationResource> {
    await this.deps.limits.checkKeyRate('verify', key.id, this.settings.forKey(key));
    const resource = await readResource(this.deps.store.verifications, key, requestId, this.deps.clock.now());
    if (!isSilentChannel(resource.channel)) return resource;
    // A SILENT request's fallback, if it asked for one (its sibling is the fallback's code).
    const f = await this.deps.store.silentFallbacks.get(resource.requestId);
    if (!f) return resource;
    return {
      ...resource,
      fallback: {
        channel: f.channel,
        state: f.state,
        ...(f.reason ? { reason: f.reason } : {}),
        ...(f.siblingId ? { requestId: f.siblingId } : {}),
      },
    };
  }
}

/** The resource of `requestId` as `scope` may see it, as of `now`. */
export async function readResource(
  verifications: Pick<Verifications, 'getGroup'>,
  scope: RequestScope,
  requestId: string,
  now: number,
): Promise<VerificationResource> {
  return toResource(await scopedGroup(verifications, scope, requestId), requestId, now);
}

/**
 * The rows of the group of `requestId` as `scope` may see them; NOT_FOUND when it may not see the
 * request. The sibling is named whatever its channel: the pair is one verification.
 */
export async function scopedGroup(
  verifications: Pick<Verifications, 'getGroup'>,
  scope: RequestScope,
  requestId: string,
): Promise<Verification[]> {
  const group = await verifications.getGroup(scope.accountId, requestId, scope.mode);
  const request = group.find((r) => r.id === requestId);
  if (!request || !scope.channels.includes(request.channel)) throw notFound();
  return group;
}

/**
 * The resource of `requestId` from the rows of its group, as of `now`. A pending request whose
 * lifetime ended, or whose attempts are used up, is shown as it will be settled (`expired`,
 * `failed`): the stored row waits for the next verify or the sweeper to say so, and a read
 * writes nothing.
 */
export function toResource(group: Verification[], requestId: string, now: number): VerificationResource {
  const request = group.find((r) => r.id === requestId);
  if (!request) throw notFound();
  const sibling = group.find((r) => r.id !== requestId);
  const status = statusAt(request, now);
  const provider = request.provider ?? (request.deliveryStatus === 'outbox' ? 'outbox' : null);
  return {
    requestId: request.id,
    channel: request.channel,
    status,
    to: maskDestination(request.channel, request.destination),
    createdAt: iso(request.createdAt),
    expiresAt: iso(request.expiresAt),
    attemptsRemaining: Math.max(0, request.maxAttempts - request.attempts),
    ...(request.deliveryType ? { deliveryType: request.deliveryType } : {}),
    // Only the request that was verified carries how and when: a dual pair's other request
    // settled as `canceled` (its code was not the one used).
    ...(status === 'verified' && request.verifiedAt !== null ? { verifiedAt: iso(request.verifiedAt) } : {}),
    ...(status === 'verified' ? { method: methodOf(status, request.method, request.channel) ?? 'code' } : {}),
    ...(sibling ? { siblingRequestId: sibling.id } : {}),
    delivery: {
      status: shownDeliveryStatus(request.deliveryStatus),
      ...(provider ? { provider } : {}),
      updatedAt: iso(request.deliveryUpdatedAt ?? request.createdAt),
    },
  };
}

/** The status of a request as of `now` (see toResource). */
export function statusAt(request: Verification, now: number): VerificationStatus {
  if (request.status !== 'pending') return request.status;
  if (request.attempts >= request.maxAttempts) return 'failed';
  if (request.expiresAt <= now) return 'expired';
  return 'pending';
}

const iso = (ms: number) => new Date(ms).toISOString();

export const notFound = () =>
  new DomainError('NOT_FOUND', 'No verification request with this requestId exists for this account.');
