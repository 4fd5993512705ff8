import {
  decideNumber,
  type LookupOutcome,
  lookupNeeds,
  type NumberDecision,
} from '../number-intelligence.js';
import type { SendTarget } from '../rate-limit-policy.js';
import type { EffectiveSettings } from '../settings.js';
import type { AuthenticatedKey } from '../types.js';
import type { VerificationDeps } from './deps.js';

/** What a send without a NumberLookup (a domain built without one) gets when its account wants lookups. */
const NO_LOOKUP: LookupOutcome = {
  ok: false,
  retryable: false,
  error: 'no number lookup is configured',
  facts: null,
};

/**
 * The carrier lookups of a send's targets (the account's `lookup` setting chose which channels),
 * in parallel, each decided under the account's rules: a refusal or the signals it adds; null for
 * a target that is not looked up. A dual send to one number on two phone channels asks once: the
 * lookup waits for one answer per number. Only called when the account's `lookup` is not `off`,
 * so a send of an account without lookups pays nothing for them.
 */
export function lookUpTargets(
  deps: Pick<VerificationDeps, 'numberLookup' | 'events'>,
  key: AuthenticatedKey,
  targets: readonly SendTarget[],
  s: EffectiveSettings,
  now: number,
): Promise<Array<NumberDecision | null>> {
  return Promise.all(
    targets.map(async (t) => {
      const parts = lookupNeeds(s, t.channel);
      if (!parts) return null;
      const outcome = deps.numberLookup
        ? await deps.numberLookup.lookup({ e164: t.address, mode: key.mode, parts })
        : NO_LOOKUP;
      deps.events?.lookedUp?.(outcome.ok ? outcome.from : 'failed');
      return decideNumber(s, outcome, { channel: t.channel, now });
    }),
  );
}
