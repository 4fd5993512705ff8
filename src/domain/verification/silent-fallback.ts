import { countsInCountryWindow } from '../channels/registry.js';
import { asLocale } from '../locales.js';
import { maskDestination } from '../masking.js';
import type { SilentFallback } from '../ports/silent-fallbacks.js';
import { type RiskAssessment, riskOf } from '../risk.js';
import type { EffectiveSettings } from '../settings.js';
import type { FallbackReason } from '../silent.js';
import { limitScope, type VerificationDeps } from './deps.js';
import { deliverOne } from './send-deliver.js';
import type { FallbackEntry } from './send-entry.js';
import { issueCodes } from './send-issue.js';

/** How long a claim of a fallback holds before another instance may take it (a claimer that died). */
export const FALLBACK_LEASE_MS = 60_000;

/**
 * Sends the fallback code of a SILENT request as its dual sibling: a code on the fallback channel,
 * in the SILENT request's group (so either request id verifies it), counted in its country's
 * window like any code of that channel. Fired at once when the silent start or check fails, or by
 * the timeout worker; a fallback is claimed before it fires, so it fires once.
 */
export class SilentFallbackSender {
  constructor(private readonly deps: VerificationDeps) {}

  /**
   * Fires a claimed fallback; null when its SILENT request is no longer pending (verified,
   * expired, canceled), which drops it.
   */
  async fire(
    f: SilentFallback,
    reason: FallbackReason,
    s: EffectiveSettings,
    risk: RiskAssessment = riskOf([]),
  ): Promise<FallbackEntry | null> {
    const { store, clock, logger, limits, events } = this.deps;
    const now = clock.now();
    const silent = await store.verifications.getVerification(f.accountId, f.requestId, f.mode);
    if (silent?.status !== 'pending' || silent.expiresAt <= now) {
      await store.silentFallbacks.finish(f.requestId, { state: 'dropped' }, now);
      return null;
    }
    const key = { accountId: f.accountId, mode: f.mode };
    const target = {
      channel: f.channel,
      destination: f.destination,
      address: f.address,
      country: f.country,
      risk,
    };
    const { issued, expiresAt } = await issueCodes(
      this.deps,
      key,
      {
        phone: f.address,
        country: f.country,
        locale: f.locale === null ? null : (asLocale(f.locale) ?? null),
        deliveryType: 'TEXT',
        purpose: f.purpose,
        customMessage: f.customMessage,
      },
      [target],
      s,
      now,
      { groupId: silent.groupId },
    );
    const [t] = issued;
    if (!t) throw new Error('a fallback issued no code');
    await store.silentFallbacks.finish(f.requestId, { state: 'fired', reason, siblingId: t.requestId }, now);
    if (f.country && countsInCountryWindow(f.channel))
      await limits.countCountrySend(limitScope(key), f.country, now);
    const result = t.plan.via === 'provider' ? await deliverOne(this.deps, key, t) : t.plan.result;
    if (t.plan.via === 'outbox') events?.sent?.(t.channel, result, 0);
    events?.silentFallback?.(f.channel, reason);
    logger.info(
      {
        accountId: f.accountId,
        requestId: f.requestId,
        fallbackRequestId: t.requestId,
        channel: f.channel,
        to: maskDestination(f.channel, f.destination),
        reason,
        delivered: result.ok,
      },
      'silent verification fell back to a code',
    );
    return {
      requestId: t.requestId,
      channel: f.channel,
      status: result.ok ? 'pending' : 'undelivered',
      reason,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** Claims and fires the fallback of one SILENT request at once (its start or check failed); null when none is left. */
  async fireNow(requestId: string, reason: FallbackReason, s: EffectiveSettings, risk?: RiskAssessment) {
    const claimed = await this.deps.store.silentFallbacks.claim(
      requestId,
      this.deps.clock.now(),
      FALLBACK_LEASE_MS,
    );
    return claimed ? this.fire(claimed, reason, s, risk) : null;
  }
}
