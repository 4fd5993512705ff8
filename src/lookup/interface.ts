import type { LookupParts, NumberFacts } from '../domain/number-intelligence.js';

// The port the domain looks numbers up through is the domain's (src/domain/ports/number-lookup.ts);
// the providers' own interface is here.
export type {
  CachedLookup,
  LookupCacheStore,
  LookupRequest,
  NumberLookup,
} from '../domain/ports/number-lookup.js';

/** The line part of a number's facts: everything but the SIM change. */
export type LineFacts = Omit<NumberFacts, 'lastSimChange'>;

/** A SIM change as a provider answers it; the lookup stamps a window with the time it was asked. */
export type AnsweredSimChange = { at: number } | { withinHours: number; changed: boolean };

/**
 * A provider's answer. A number it knows nothing of (not found, no coverage, an invalid number) is
 * an answer with null facts, cached like any other: asking again would cost the same and tell the
 * same. Failures are values with `retryable` (5xx, 429, timeouts; false for this deployment's
 * problem with the provider, such as bad credentials), never a throw.
 */
export type ProviderAnswer =
  | { ok: true; line?: LineFacts; sim?: { lastSimChange: AnsweredSimChange | null } }
  | { ok: false; retryable: boolean; error: string };

/** One lookup provider's API. */
export interface LookupProvider {
  /** Its name in LOOKUP_PROVIDER. */
  readonly name: string;
  /** What it can tell: a part it cannot is never asked and stays unknown. */
  readonly parts: LookupParts;
  /**
   * Looks up the parts asked (a subset of `parts`). `signal` aborts at the lookup's budget, every
   * request the call makes included (an OAuth token's too). The answer never names the number.
   */
  lookup(e164: string, parts: LookupParts, signal: AbortSignal): Promise<ProviderAnswer>;
}

/** Line facts that say nothing: the provider does not know the number. */
export const UNKNOWN_LINE: LineFacts = {
  lineType: null,
  carrier: null,
  country: null,
  mcc: null,
  mnc: null,
};
