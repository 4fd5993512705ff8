/** The outcome of one counter operation. */
export interface LimitDecision {
  allowed: boolean;
  /** Points left in the current window after this operation. */
  remaining: number;
  /** Whole seconds until the window frees a point; 0 when allowed. */
  retryAfterSeconds: number;
}

/** Identifies a fixed-window counter family: `name` plus its limit and window length. */
export interface CounterSpec {
  name: string;
  limit: number;
  windowSeconds: number;
}

/** One counter: its family and its key. */
export interface CounterRef {
  spec: CounterSpec;
  key: string;
}

/**
 * The counters one request checks and charges, run at once: on Redis one script call (one round
 * trip), atomic as a whole. `addsFirst` runs first, whatever the rest decides; the other steps run
 * in this order, each only if the ones before refused nothing:
 * 0. `addsFirst`: each counter added to by one point (as by penalize): what earlier requests'
 *    outcomes charge, carried by this call (RateLimitPolicy); not part of `charged`;
 * 1. `reads`: each counter's points (what a screen reads), before anything is charged;
 * 2. `rate`: consumed by one point (the key's request rate); a refusal stops the run;
 * 3. `budgets`: each read as by peek; the first one used up stops the run;
 * 4. `takes`: each group's counters consumed by one point in order, a refusal skipping the rest of
 *    its group; when any was refused, every point taken in this step is given back (a dual send is
 *    refused whole);
 * 5. `adds`: each counter added to by one point (as by penalize), when nothing was refused.
 */
export interface CounterPlan {
  addsFirst?: CounterRef[];
  reads?: CounterRef[];
  rate?: CounterRef;
  budgets?: CounterRef[];
  takes?: CounterRef[][];
  adds?: CounterRef[];
}

/** What a CounterPlan's run found and did. */
export interface PlanOutcome {
  /** The points of each of `reads`, before the run charged anything. */
  reads: number[];
  /** The rate's decision; null when the plan had none. */
  rate: LimitDecision | null;
  /** The first budget found used up (its index in `budgets`), or null. */
  budget: { index: number; retryAfterSeconds: number } | null;
  /** Each refused take: its group, its place in the group, and the wait its window asks. */
  refused: Array<{ group: number; step: number; retryAfterSeconds: number }>;
  /** The counters the run left charged by one point (what a later refusal of the request gives back). */
  charged: CounterRef[];
}

/**
 * Atomic fixed-window counters, in-process or shared (Redis). Chosen once at start-up; every
 * operation is atomic in its backend, so concurrent requests on any instance count exactly.
 */
export interface RateLimitStore {
  readonly kind: 'memory' | 'sqlite' | 'redis';
  /** Adds `points` unless that would pass the limit; a refusal consumes nothing. */
  consume(spec: CounterSpec, key: string, points?: number): Promise<LimitDecision>;
  /** Gives back points consumed by a request that was refused later (a dual send refused whole). */
  refund(spec: CounterSpec, key: string, points?: number): Promise<void>;
  /** Adds points even past the limit (used to record failures). */
  penalize(spec: CounterSpec, key: string, points?: number): Promise<void>;
  /** Reads a counter without changing it. */
  peek(spec: CounterSpec, key: string): Promise<LimitDecision>;
  /** The points a counter holds in its current window (0 when it has none). */
  count(spec: CounterSpec, key: string): Promise<number>;
  /** Runs a request's counters at once (see CounterPlan): one round trip on a shared store. */
  run(plan: CounterPlan): Promise<PlanOutcome>;
  /** Gives back one point of each counter (a refund), at once. */
  giveBack(counters: CounterRef[]): Promise<void>;
  check(): Promise<boolean>;
  close(): Promise<void>;
}

/** A counter as kept on disk by the embedded store: its family (see familyId), key and window. */
export interface SavedCounter {
  family: string;
  key: string;
  used: number;
  endsAt: number;
}

/** Where the embedded store keeps its counters across restarts (the SQLite file). */
export interface CounterPersistence {
  /** The counters whose window has not ended at `now`. */
  load(now: number): SavedCounter[];
  /** Resolves once the change is durable. */
  save(counter: SavedCounter): Promise<void>;
  /** Forgets counters whose window ended. */
  purge(now: number): Promise<void>;
}

/** Raised when the shared rate-limit store cannot be reached: sends fail closed with 503. */
export class LimitStoreUnavailable extends Error {
  override readonly name = 'LimitStoreUnavailable';
}
