import type { SendCharge, SendTarget } from '../rate-limit-policy.js';
import type { SendRequest } from '../send-request.js';
import type { EffectiveSettings } from '../settings.js';
import type { AuthenticatedKey } from '../types.js';
import { limitScope, type VerificationDeps } from './deps.js';
import { deliverIssued } from './send-deliver.js';
import { type SendEntry, unavailableEntry } from './send-entry.js';
import { issueCodes } from './send-issue.js';
import { checkSendLink } from './send-link.js';
import { type RecordRefusal, refusalsOf } from './send-refusals.js';
import { type ScreenedTarget, screenTargets } from './send-screen.js';
import { deliverSilentWithFallback } from './send-silent.js';
import { deliverableTargets, fallbackAvailable, wantedTargets } from './send-targets.js';
import type { RequestSettings } from './settings.js';
import { SilentFallbackSender } from './silent-fallback.js';

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
  ) {
    this.fallbacks = new SilentFallbackSender(deps);
  }

  private readonly fallbacks: SilentFallbackSender;

  /**
   * `onStarted` is called once the codes are stored, before any provider is called: from there
   * on the answer is the send's own (what an Idempotency-Key may replay), not a refusal.
   */
  async send(key: AuthenticatedKey, request: SendRequest, onStarted?: () => void): Promise<SendEntry[]> {
    const { deps } = this;
    const s = this.settings.forKey(key);
    const link = checkSendLink(request, deps.linkBaseUrl, s);
    const wanted = wantedTargets(key, request, s);
    const now = deps.clock.now();
    const { targets, unavailable } = deliverableTargets(deps.delivery, key, request, wanted);
    if (request.fallback) fallbackAvailable(deps.delivery, key, request.fallback);
    const refuse = refusalsOf(deps, key, request, now);
    const { screened, charge } = await this.screenAndCharge(key, request, targets, s, now, refuse);
    await this.limit(targets, charge, refuse);
    let issuedCodes: Awaited<ReturnType<typeof issueCodes>>;
    try {
      issuedCodes = await issueCodes(deps, key, request, screened, s, now, { link });
    } catch (err) {
      // No code stored: the send does not count in its country's window.
      await charge.giveBackSends().catch(() => {});
      throw err;
    }
    const { issued, expiresAt } = issuedCodes;
    onStarted?.();
    const [silent] = issued;
    if (request.fallback && silent)
      return [
        await deliverSilentWithFallback(
          deps,
          this.fallbacks,
          key,
          request,
          silent,
          request.fallback,
          expiresAt,
          s,
        ),
      ];
    const entries = await deliverIssued(deps, key, request, issued, expiresAt);
    if (unavailable.length === 0) return entries;
    // In the order of `channels`: the entry of a channel that was not sent says why.
    const all = [...entries, ...unavailable.map((u) => unavailableEntry(u, request, expiresAt, now))];
    return request.channels.flatMap((c) => all.filter((e) => e.channel === c));
  }

  /**
   * The risk screen, with every counter of the send charged in one call beside its database read
   * (the screen reads the country windows from it). The screen decides first: a send it refuses
   * gives back what the call charged, so its limits are as if never asked. Counters kept in
   * process cost no round trip: there the screen runs first and the counters are charged after
   * it, in the turn the send's row is written (the embedded store's counters then share its group
   * commit; charged beside the screen's read, they took a commit of their own: 3-5 % of a send).
   */
  private async screenAndCharge(
    key: AuthenticatedKey,
    request: SendRequest,
    targets: SendTarget[],
    s: EffectiveSettings,
    now: number,
    refuse: RecordRefusal,
  ): Promise<{ screened: ScreenedTarget[]; charge: SendCharge }> {
    const { deps } = this;
    const { limits } = deps;
    const scope = limitScope(key);
    if (!limits.shared) {
      const windows = limits.sendWindows(scope, targets, now);
      const screened = await screenTargets(deps, key, request, targets, s, now, refuse, windows);
      return { screened, charge: await limits.chargeSend(key.id, scope, targets, s, now) };
    }
    const charging = limits.chargeSend(key.id, scope, targets, s, now);
    charging.catch(() => {}); // its failure is met where it is awaited
    try {
      const windows = charging.then((c) => c.windows);
      windows.catch(() => {}); // an email-only screen reads no window
      const screened = await screenTargets(deps, key, request, targets, s, now, refuse, windows);
      return { screened, charge: await charging };
    } catch (err) {
      await charging
        .then(
          (c) => c.giveBack(),
          () => {},
        )
        .catch(() => {});
      throw err;
    }
  }

  /** The key's send rate, then the send limits (a refusal by them is counted for analytics). */
  private async limit(targets: SendTarget[], charge: SendCharge, refuse: RecordRefusal): Promise<void> {
    const err = charge.refusal();
    if (!err) return;
    const refused = err.details ?? [];
    for (const t of targets) {
      const detail = refused.find((d) => d.channel === t.channel);
      if (detail) await refuse(t, detail.field === 'country' ? 'limit:country' : 'limit:destination');
    }
    throw err;
  }
}
