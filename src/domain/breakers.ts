import { type Clock, HOUR_MS } from './clock.js';
import type { ReadModel } from './ports/read-model.js';
import type { BreakerState } from './pumping-breaker.js';
import { accountLimitScope, type RateLimitPolicy } from './rate-limit-policy.js';
import type { Mode } from './types.js';

/** The SMS-pumping breakers as operators see them: listed, and reset by hand. */
export class Breakers {
  constructor(
    private readonly readModel: Pick<ReadModel, 'getBreaker' | 'saveBreaker' | 'listBreakers'>,
    private readonly limits: Pick<RateLimitPolicy, 'countryWindow'>,
    private readonly clock: Clock,
  ) {}

  /** Every breaker that tripped or was reset, of one account or all. */
  list(accountId?: string): Promise<BreakerState[]> {
    return this.readModel.listBreakers({ accountId });
  }

  /** The breakers holding sends now (health reports them). */
  tripped(): Promise<BreakerState[]> {
    return this.readModel.listBreakers({ trippedOnly: true });
  }

  /**
   * Resets the SMS-pumping breaker of an account, mode and country: sends resume, and the sends
   * that tripped it (which stay in the window for up to two hours) no longer count. Null when the
   * account has no breaker there.
   */
  async reset(accountId: string, mode: Mode, country: string): Promise<BreakerState | null> {
    const state = await this.readModel.getBreaker(accountId, mode, country.toUpperCase());
    if (!state) return null;
    const now = this.clock.now();
    const counts = await this.limits.countryWindow(accountLimitScope(accountId, mode), state.country, now);
    const reset: BreakerState = {
      ...state,
      trippedAt: null,
      detail: null,
      resetAt: now,
      baseline: { hour: now - (now % HOUR_MS), ...counts },
    };
    await this.readModel.saveBreaker(reset);
    return reset;
  }
}
