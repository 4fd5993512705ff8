import { countsInCountryWindow } from '../channels/registry.js';
import { DomainError } from '../errors.js';
import { combineRisk } from '../number-intelligence.js';
import { contactBlocked } from '../ports/verifications.js';
import { type BreakerState, decideBreaker, type WindowCounts } from '../pumping-breaker.js';
import type { SendTarget } from '../rate-limit-policy.js';
import { assessRisk, type RiskAssessment } from '../risk.js';
import type { SendRequest } from '../send-request.js';
import type { EffectiveSettings } from '../settings.js';
import type { AuthenticatedKey } from '../types.js';
import type { VerificationDeps } from './deps.js';
import { lookUpTargets, readAheadTargets } from './send-lookup.js';
import type { RecordRefusal } from './send-refusals.js';

/** A target that passed the screen, with its risk assessment. */
export type ScreenedTarget = SendTarget & { risk: RiskAssessment };

const NO_COUNTS: WindowCounts = { sent: 0, verified: 0 };

/**
 * The risk screen: refuses a send to a blocked contact (403 CONTACT_BLOCKED), one whose
 * country's SMS-pumping breaker is open (429), one the account's carrier-lookup rules refuse
 * (a line type: 400 UNSUPPORTED_NUMBER; a recent SIM change or a failed lookup: 403
 * RISK_TOO_HIGH; ./send-lookup.ts), or one whose risk reaches the account's threshold (403
 * RISK_TOO_HIGH), counting the refusal; else each target with its risk, the lookup's signals
 * included.
 */
export async function screenTargets(
  deps: VerificationDeps,
  key: AuthenticatedKey,
  request: SendRequest,
  targets: SendTarget[],
  s: EffectiveSettings,
  now: number,
  refuse: RecordRefusal,
  /** Per target, its country's window as it was before this send (null: it counts in none). */
  windows: Promise<Array<WindowCounts | null>>,
): Promise<ScreenedTarget[]> {
  const { store } = deps;
  // The lookups' reads of the shared cache start now, beside the reads below; the lookups
  // themselves (a provider's request) wait for the checks that cost nothing.
  const ahead = s.lookup === 'off' ? null : readAheadTargets(deps, key, targets, s);
  const assessed = await Promise.all(
    targets.map(async (t, i) => {
      const windowCountry = t.country && countsInCountryWindow(t.channel) ? t.country : null;
      const [signals, countryHour] = await Promise.all([
        store.readModel.destinationSignals(key.accountId, key.mode, t.destination, t.country, now),
        windowCountry ? windows.then((w) => w[i] ?? NO_COUNTS) : NO_COUNTS,
      ]);
      const risk = assessRisk({
        channel: t.channel,
        destination: t.destination,
        country: t.country,
        numberFacts: request.numberFacts,
        signals,
        countryHour,
      });
      return { t, signals, countryHour, windowCountry, risk };
    }),
  );
  for (const { t, signals, countryHour, windowCountry } of assessed) {
    if (signals.blocked) {
      await refuse(t, 'blocked');
      throw contactBlocked(t.channel);
    }
    if (windowCountry)
      await checkBreaker(deps, key, windowCountry, signals.breaker, countryHour, s, now, () =>
        refuse(t, 'breaker'),
      );
  }
  // Carrier lookups after the checks that cost nothing (a blocked contact, an open breaker is
  // never looked up), and only for accounts that turned them on: with `lookup: "off"` (the
  // default) a send neither awaits nor allocates anything more here.
  const decisions = s.lookup === 'off' ? null : await lookUpTargets(deps, key, targets, s, now, ahead);
  for (let i = 0; i < assessed.length; i++) {
    const a = assessed[i] as (typeof assessed)[number];
    const decision = decisions?.[i];
    if (decision) {
      if (decision.refusal) {
        await refuse(a.t, decision.refusal.reason);
        throw decision.refusal.error;
      }
      a.risk = combineRisk(a.risk, decision);
    }
    const { t, risk } = a;
    if (s.riskThreshold !== null && risk.score >= s.riskThreshold) {
      await refuse(t, 'risk');
      throw new DomainError(
        'RISK_TOO_HIGH',
        `This send scored ${risk.score} of 100 for fraud risk, at or above the account's threshold of ${s.riskThreshold}; no code was sent.`,
        risk.signals.map((r) => ({ field: r.name, channel: t.channel, message: r.detail })),
      );
    }
  }
  return assessed.map(({ t, risk }) => screened(t, risk));
}

/**
 * A target with its risk, as an object of one fixed shape: a spread followed by more properties
 * (`{ ...t, risk }`) costs V8 a runtime call per property on every send (bench:instructions).
 * `Required` makes a field added to SendTarget, optional or not, fail to compile until copied here.
 */
function screened(t: SendTarget, risk: RiskAssessment): ScreenedTarget {
  return {
    channel: t.channel,
    destination: t.destination,
    address: t.address,
    country: t.country,
    risk,
  } satisfies Required<ScreenedTarget>;
}

/**
 * The SMS-pumping breaker of the account and country: trips on a burst of unconverted sends and
 * refuses (429, detail naming the breaker) until an operator resets it or the rate recovers.
 */
async function checkBreaker(
  deps: VerificationDeps,
  key: AuthenticatedKey,
  country: string,
  state: BreakerState | null,
  countryHour: WindowCounts,
  s: EffectiveSettings,
  now: number,
  countRefusal: () => Promise<void>,
): Promise<void> {
  const { store, events, logger } = deps;
  const decision = decideBreaker(state, countryHour, s, now, country);
  if (decision.action === 'allow') return;
  const base: BreakerState = state ?? {
    accountId: key.accountId,
    mode: key.mode,
    country,
    trippedAt: null,
    detail: null,
    resetAt: null,
    baseline: null,
  };
  if (decision.action === 'recover') {
    await store.readModel.saveBreaker({ ...base, trippedAt: null, detail: null });
    return;
  }
  if (decision.action === 'trip') {
    await store.readModel.saveBreaker({ ...base, trippedAt: now, detail: decision.detail });
    events?.breakerTripped?.(country);
    logger.warn({ accountId: key.accountId, country }, decision.detail);
  }
  await countRefusal();
  events?.limited?.('pumping-breaker');
  throw new DomainError(
    'RATE_LIMITED',
    `Codes to ${country} are paused by the SMS-pumping breaker; an operator can reset it.`,
    [{ field: 'country', message: decision.detail }],
    600,
  );
}
