import { type Clock, systemClock } from '../domain/clock.js';
import type {
  CounterPersistence,
  CounterSpec,
  LimitDecision,
  RateLimitStore,
} from '../domain/ports/rate-limits.js';
import { InProcessCounters } from './counter-plan.js';
import { familyId, MemoryRateLimitStore } from './memory-store.js';

const PURGE_INTERVAL_MS = 60_000;
/**
 * Windows this short are not written: a restart outlasts them (the per-key rates per second), and
 * a write per request would be a fair share of a send's cost.
 */
const SHORTEST_KEPT_WINDOW_SECONDS = 10;

/**
 * The embedded default's rate limits (one process, no Redis): decided in memory as by
 * MemoryRateLimitStore, with every change also written to the database file, and the live
 * counters read back at start, so that a restart forgives no cooldown, cap or budget of wrong
 * codes.
 *
 * A send's counters are written in the same group commit as (or one before) the send's own row,
 * which is acknowledged only once committed: they need not be awaited. A wrong code's penalty is
 * awaited, since the answer of that guess is what it must not outlive.
 */
export class DurableMemoryRateLimitStore extends InProcessCounters implements RateLimitStore {
  readonly kind = 'sqlite' as const;
  private readonly memory: MemoryRateLimitStore;
  private readonly purger: NodeJS.Timeout;
  private failed: unknown = null;
  /** Family ids by spec object: the policy passes the same few spec objects over and over. */
  private readonly families = new WeakMap<CounterSpec, string>();

  constructor(
    private readonly disk: CounterPersistence,
    private readonly clock: Clock = systemClock,
  ) {
    super();
    this.memory = new MemoryRateLimitStore(clock);
    for (const c of disk.load(clock.now())) this.memory.restore(c.family, c.key, c.used, c.endsAt);
    this.purger = setInterval(() => void disk.purge(this.clock.now()).catch(() => {}), PURGE_INTERVAL_MS);
    this.purger.unref();
  }

  private save(spec: CounterSpec, key: string): Promise<void> {
    if (spec.windowSeconds < SHORTEST_KEPT_WINDOW_SECONDS) return Promise.resolve();
    const state = this.memory.state(spec, key);
    if (!state) return Promise.resolve();
    let family = this.families.get(spec);
    if (family === undefined) {
      family = familyId(spec);
      this.families.set(spec, family);
    }
    return this.disk.save({ family, key, ...state }).then(
      () => {
        // Writing again (space freed on a full disk): healthy again by itself, no restart.
        this.failed = null;
      },
      (err) => {
        // Kept for check(): the limits still hold in memory, but would not survive a restart.
        this.failed = err;
      },
    );
  }

  consumeNow(spec: CounterSpec, key: string, points = 1): LimitDecision {
    const decision = this.memory.consumeNow(spec, key, points);
    if (decision.allowed) void this.save(spec, key);
    return decision;
  }

  refundNow(spec: CounterSpec, key: string, points = 1): void {
    this.memory.refundNow(spec, key, points);
    void this.save(spec, key);
  }

  penalizeNow(spec: CounterSpec, key: string, points = 1): Promise<void> {
    this.memory.penalizeNow(spec, key, points);
    return this.save(spec, key);
  }

  peekNow(spec: CounterSpec, key: string): LimitDecision {
    return this.memory.peekNow(spec, key);
  }

  countNow(spec: CounterSpec, key: string): number {
    return this.memory.countNow(spec, key);
  }

  async check(): Promise<boolean> {
    return this.failed === null;
  }

  async close(): Promise<void> {
    clearInterval(this.purger);
    await this.memory.close();
  }
}
