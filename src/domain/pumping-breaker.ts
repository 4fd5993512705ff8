import { ACCOUNT_ONLY_SETTINGS } from './account-limits.js';
import { HOUR_MS } from './clock.js';
import type { Mode } from './types.js';

/**
 * The SMS-pumping breaker of one account, mode and country: when the last hour has at least
 * `minSends` SMS/WhatsApp sends to the country and fewer than `minConversion` of them verified,
 * further sends there are refused (429 RATE_LIMITED) until an operator resets it or the rate
 * recovers. Pure decisions over state the store keeps (table pumping_breakers).
 */

export interface BreakerState {
  accountId: string;
  mode: Mode;
  country: string;
  trippedAt: number | null;
  detail: string | null;
  resetAt: number | null;
  /** The window's counts when an operator reset it, and the hour it was reset in. */
  baseline: { hour: number; sent: number; verified: number } | null;
}

export interface BreakerSettings {
  pumpingMinSends: number;
  /** 0–1: a conversion below this, over at least pumpingMinSends sends, trips the breaker. */
  pumpingMinConversion: number;
}

/** The sends and verifications of the window (the current and the previous clock hour). */
export interface WindowCounts {
  sent: number;
  verified: number;
}

export type BreakerDecision =
  | { action: 'allow' }
  | { action: 'trip' | 'refuse'; detail: string }
  | { action: 'recover' };

/** The window's counts less what was there at the operator's last reset, while that window lasts. */
export function countsSinceReset(
  state: BreakerState | null,
  counts: WindowCounts,
  now: number,
): WindowCounts {
  const b = state?.baseline;
  if (!b || now - (now % HOUR_MS) > b.hour + HOUR_MS) return counts;
  return { sent: Math.max(0, counts.sent - b.sent), verified: Math.max(0, counts.verified - b.verified) };
}

export function decideBreaker(
  state: BreakerState | null,
  counts: WindowCounts,
  settings: BreakerSettings,
  now: number,
  country: string,
): BreakerDecision {
  const { sent, verified } = countsSinceReset(state, counts, now);
  const pumping = sent >= settings.pumpingMinSends && verified / sent < settings.pumpingMinConversion;
  if (state?.trippedAt)
    return pumping
      ? { action: 'refuse', detail: state.detail ?? describe(country, sent, verified) }
      : { action: 'recover' };
  return pumping ? { action: 'trip', detail: describe(country, sent, verified) } : { action: 'allow' };
}

const describe = (country: string, sent: number, verified: number) =>
  `SMS-pumping breaker for ${country}: ${verified} of ${sent} codes sent in the last hour were verified`;

export const DEFAULT_BREAKER_SETTINGS: BreakerSettings = {
  pumpingMinSends: ACCOUNT_ONLY_SETTINGS.pumpingMinSends.default,
  pumpingMinConversion: ACCOUNT_ONLY_SETTINGS.pumpingMinConversion.default,
};
