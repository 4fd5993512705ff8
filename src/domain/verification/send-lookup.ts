import {
  decideNumber,
  type LookupOutcome,
  lookupNeeds,
  type NumberDecision,
} from '../number-intelligence.js';
import type { LookupAhead } from '../ports/number-lookup.js';
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

/** Per target, what its lookup's readAhead began (null: no lookup, or a test key). */
export type LookupsAhead = Array<LookupAhead | null>;

/**
 * Starts the shared cache's reads of the lookups `lookUpTargets` will make, so that they run
 * beside the screen's own reads: the provider is asked only later, once the screen's checks have
 * passed. Only called when the account's `lookup` is not `off`.
 */
export function readAheadTargets(
  deps: Pick<VerificationDeps, 'numberLookup'>,
  key: AuthenticatedKey,
  targets: readonly SendTarget[],
  s: EffectiveSettings,
): LookupsAhead {
  // A dual send to one number on two phone channels reads it once.
  const reads = new Map<string, LookupAhead | null>();
  return targets.map((t) => {
    const parts = lookupNeeds(s, t.channel);
    if (!parts) return null;
    const id = `${t.address}:${parts.line}:${parts.sim}`;
    if (!reads.has(id))
      reads.set(id, deps.numberLookup?.readAhead?.({ e164: t.address, mode: key.mode, parts }) ?? null);
    return reads.get(id) ?? null;
  });
}

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
  ahead: LookupsAhead | null = null,
): Promise<Array<NumberDecision | null>> {
  return Promise.all(
    targets.map(async (t, i) => {
      const parts = lookupNeeds(s, t.channel);
      if (!parts) return null;
      const read = ahead?.[i];
      const outcome = deps.numberLookup
        ? await deps.numberLookup.lookup({
            e164: t.address,
            mode: key.mode,
            parts,
            ...(read ? { ahead: read } : {}),
          })
        : NO_LOOKUP;
      deps.events?.lookedUp?.(outcome.ok ? outcome.from : 'failed');
      return decideNumber(s, outcome, { channel: t.channel, now });
    }),
  );
}
