/**
 * The facts a carrier lookup gives of a phone number and the account settings over them: values
 * and types only, so that the settings' description (number-intelligence-settings.ts, which
 * AccountSettings reaches) depends on nothing else. The rules are in number-intelligence.ts.
 */

/** Line types as every lookup provider's answer is normalised to. */
export const LINE_TYPES = ['mobile', 'landline', 'voip', 'tollFree', 'premium', 'other'] as const;
export type LineType = (typeof LINE_TYPES)[number];

/**
 * What the carrier said of the SIM: the time of its last change (epoch ms), or, where it gives no
 * date, only whether it changed within the `withinHours` before `checkedAt`.
 */
export type SimChange = { at: number } | { withinHours: number; changed: boolean; checkedAt: number };

/** A number's facts as a lookup found them; null where the provider does not say (or was not asked). */
export interface NumberFacts {
  lineType: LineType | null;
  /** The carrier's name, as the provider spells it. */
  carrier: string | null;
  /** ISO 3166-1 alpha-2 of the carrier's network. */
  country: string | null;
  /** Mobile country and network codes (mobile numbers only). */
  mcc: string | null;
  mnc: string | null;
  lastSimChange: SimChange | null;
}

/** The parts of a lookup that are billed and cached apart: line type and carrier, and the SIM change. */
export interface LookupParts {
  line: boolean;
  sim: boolean;
}

/**
 * A lookup's answer: the facts (from the cache, the provider, or the test numbers of a test key),
 * or a failure, which never throws and never waits past the budget. A failure still carries what
 * the cache held (a fresh line type when only the SIM change could not be had).
 */
export type LookupOutcome =
  | { ok: true; facts: NumberFacts; from: 'cache' | 'provider' | 'test' }
  | { ok: false; retryable: boolean; error: string; facts: NumberFacts | null };

/** Which phone channels an account looks numbers up for. */
export const LOOKUP_SCOPES = ['off', 'sms_voice', 'all_phone'] as const;
export type LookupScope = (typeof LOOKUP_SCOPES)[number];

export const SIM_SWAP_ACTIONS = ['signal', 'refuse'] as const;
export type SimSwapAction = (typeof SIM_SWAP_ACTIONS)[number];

/** The account settings of number intelligence (described in number-intelligence-settings.ts). */
export interface NumberIntelligenceSettings {
  lookup: LookupScope;
  refuseLineTypes: readonly LineType[];
  /** A SIM change within this many hours is a `sim_swap`; null: the SIM is not looked up. */
  simSwapHours: number | null;
  simSwapAction: SimSwapAction;
  lookupFailClosed: boolean;
  /** SILENT: how long a silent verification may take before its fallback code is sent. */
  silentTimeoutSeconds: number;
}

/**
 * The risk signals a lookup adds to a send's (decideNumber), beside risk.ts's RISK_SIGNALS, which
 * the digits and the history raise.
 */
export const NUMBER_SIGNALS = ['line_type', 'sim_swap', 'lookup_unavailable'] as const;
export type NumberSignalName = (typeof NUMBER_SIGNALS)[number];
