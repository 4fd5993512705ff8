import type { SendTarget } from '../rate-limit-policy.js';
import type { SendRequest } from '../send-request.js';
import type { AuthenticatedKey } from '../types.js';
import type { VerificationDeps } from './deps.js';

/** Counts a send refused for `reason` on one of its targets (analytics' refusals). */
export type RecordRefusal = (target: SendTarget, reason: string) => Promise<void>;

/** The refusal counter of one send. */
export const refusalsOf =
  (
    deps: Pick<VerificationDeps, 'store'>,
    key: AuthenticatedKey,
    request: SendRequest,
    now: number,
  ): RecordRefusal =>
  (target, reason) =>
    deps.store.readModel.recordRefusal({
      accountId: key.accountId,
      mode: key.mode,
      at: now,
      channel: target.channel,
      country: target.country,
      purpose: request.purpose,
      reason,
    });
