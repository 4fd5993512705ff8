import type { Logger } from 'pino';
import type { Verifications } from '../ports/verifications.js';
import type { AuthenticatedKey } from '../types.js';
import type { VerificationDeps } from './deps.js';
import {
  type RequestScope,
  scopedGroup,
  statusAt,
  toResource,
  type VerificationResource,
} from './resource.js';
import type { RequestSettings } from './settings.js';

/** Canceling a verification request through the API (POST …/cancel): cancelRequest, for a key. */
export class CancelVerification {
  constructor(
    private readonly deps: VerificationDeps,
    private readonly settings: RequestSettings,
  ) {}

  async cancel(key: AuthenticatedKey, requestId: string): Promise<VerificationResource> {
    const { store, clock, limits, logger } = this.deps;
    await limits.checkKeyRate('verify', key.id, this.settings.forKey(key));
    return cancelRequest(store.verifications, key, requestId, clock.now(), logger);
  }
}

/**
 * Cancels a request as `scope` may see it (a read's scope). A pending request is canceled with
 * its dual sibling in one statement of the store, which appends a `canceled` change per row (the
 * `verification.canceled` webhook event, and the analytics' `canceled`), as a newer send's
 * supersede does: their codes no longer verify. A request that settled (or whose lifetime or
 * attempts ran out) is left as it is. The answer is the resource either way, so a retried cancel
 * answers what the first one did.
 */
export async function cancelRequest(
  verifications: Pick<Verifications, 'getGroup' | 'settleGroup'>,
  scope: RequestScope,
  requestId: string,
  now: number,
  logger?: Logger,
): Promise<VerificationResource> {
  const group = await scopedGroup(verifications, scope, requestId);
  const groupId = group[0]?.groupId;
  if (groupId === undefined || !group.some((r) => statusAt(r, now) === 'pending'))
    return toResource(group, requestId, now);
  // The store cancels only the rows still pending, unexpired and with attempts left, under their
  // locks: a verify that won the race keeps its `verified`.
  await verifications.settleGroup(groupId, 'canceled', now);
  logger?.info({ requestId }, 'verification canceled');
  return toResource(await scopedGroup(verifications, scope, requestId), requestId, now);
}
