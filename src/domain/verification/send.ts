import { countsInCountryWindow } from '../channels/registry.js';
import { DomainError } from '../errors.js';
import type { SendTarget } from '../rate-limit-policy.js';
import type { SendRequest } from '../send-request.js';
import type { EffectiveSettings } from '../settings.js';
import type { AuthenticatedKey } from '../types.js';
import { limitScope, type VerificationDeps } from './deps.js';
import { deliverIssued } from './send-deliver.js';
import { type SendEntry, unavailableEntry } from './send-entry.js';
import { issueCodes } from './send-issue.js';
import { type RecordRefusal, refusalsOf } from './send-refusals.js';
import { screenTargets } from './send-screen.js';
import { deliverableTargets, wantedTargets } from './send-targets.js';
import type { RequestSettings } from './settings.js';

/**
 * Sending codes: a send as four steps over one record per channel (./send-targets.ts,
 * ./send-screen.ts, ./send-issue.ts, ./send-deliver.ts): screen (the key's channels, the
 * allow-list, what can be delivered, the risk screen), limit (the key's rate and the send
 * limits), issue (the codes, stored before any provider is called) and deliver (in parallel for a
 * dual send).
 */
export class SendCode {
  constructor(
    private readonly deps: VerificationDeps,
    private readonly settings: RequestSettings,
  ) {}

  /**
   * `onStarted` is called once the codes are stored, before any provider is called: from there
   * on the answer is the send's own (what an Idempotency-Key may replay), not a refusal.
   */
  async send(key: AuthenticatedKey, request: SendRequest, onStarted?: () => void): Promise<SendEntry[]> {
    const { deps } = this;
    const s = this.settings.forKey(key);
    const wanted = wantedTargets(key, request, s);
    const now = deps.clock.now();
    const { targets, unavailable } = deliverableTargets(deps.delivery, key, request, wanted);
    const refuse = refusalsOf(deps, key, request, now);
    const screened = await screenTargets(deps, key, request, targets, s, now, refuse);
    await this.limit(key, targets, s, refuse);
    const { issued, expiresAt } = await issueCodes(deps, key, request, screened, s, now);
    onStarted?.();
    await this.countCountrySends(key, targets, now);
    const entries = await deliverIssued(deps, key, request, issued, expiresAt);
    if (unavailable.length === 0) return entries;
    // In the order of `channels`: the entry of a channel that was not sent says why.
    const all = [...entries, ...unavailable.map((u) => unavailableEntry(u, request, expiresAt, now))];
    return request.channels.flatMap((c) => all.filter((e) => e.channel === c));
  }

  /** The key's send rate, then the send limits (a refusal by them is counted for analytics). */
  private async limit(
    key: AuthenticatedKey,
    targets: SendTarget[],
    s: EffectiveSettings,
    refuse: RecordRefusal,
  ): Promise<void> {
    const { limits } = this.deps;
    await limits.checkKeyRate('send', key.id, s);
    try {
      await limits.checkSend(limitScope(key), targets, s);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'RATE_LIMITED') {
        const refused = err.details ?? [];
        for (const t of targets) {
          const detail = refused.find((d) => d.channel === t.channel);
          if (detail) await refuse(t, detail.field === 'country' ? 'limit:country' : 'limit:destination');
        }
      }
      throw err;
    }
  }

  /** Counts the sends in their country's hour (the SMS-pumping breaker's window). */
  private async countCountrySends(key: AuthenticatedKey, targets: SendTarget[], now: number): Promise<void> {
    await Promise.all(
      targets.map((t) =>
        t.country && countsInCountryWindow(t.channel)
          ? this.deps.limits.countCountrySend(limitScope(key), t.country, now)
          : null,
      ),
    );
  }
}
