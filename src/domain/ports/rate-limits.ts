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
