import type { AuthenticatedKey } from '../types.js';
import type { VerificationDeps } from './deps.js';
import { scopedGroup, statusAt, toResource, type VerificationResource } from './resource.js';
import type { RequestSettings } from './settings.js';

/**
 * Canceling a verification request (POST …/cancel), scoped as a read. A pending request is
 * canceled with its dual sibling in one statement of the store, which appends a `canceled`
 * change per row (the `verification.canceled` webhook event, and the analytics' `canceled`), as
 * a newer send's supersede does; the code can no longer be verified. A request that settled (or
 * whose lifetime or attempts ran out) is left as it is: the answer is the resource either way, so
 * a retried cancel answers what the first one did.
 */
export class CancelVerification {
  constructor(
    private readonly deps: VerificationDeps,
    private readonly settings: RequestSettings,
  ) {}

  async cancel(key: AuthenticatedKey, requestId: string): Promise<VerificationResource> {
    const { store, clock, limits, logger } = this.deps;
    await limits.checkKeyRate('verify', key.id, this.settings.forKey(key));
    const group = await scopedGroup(this.deps, key, requestId);
    const now = clock.now();
    // The store cancels only the rows still pending, unexpired and with attempts left, under their
    // locks: a verify that won the race keeps its `verified`.
    const groupId = group[0]?.groupId;
    if (groupId === undefined || !group.some((r) => statusAt(r, now) === 'pending'))
      return toResource(group, requestId, now);
    await store.verifications.settleGroup(groupId, 'canceled', now);
    logger.info({ requestId }, 'verification canceled');
    return toResource(await scopedGroup(this.deps, key, requestId), requestId, now);
  }
}
