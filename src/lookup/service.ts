import { setTimeout as sleep } from 'node:timers/promises';
import { type BreakerPolicy, CircuitBreaker } from '../delivery/circuit-breaker.js';
import type { Clock } from '../domain/clock.js';
import type { LookupOutcome, LookupParts, NumberFacts, SimChange } from '../domain/number-intelligence.js';
import type {
  CachedLine,
  CachedLookup,
  CachedSim,
  KnownNumber,
  LookupAhead,
  LookupCacheStore,
  LookupCacheWrite,
  LookupHealth,
  LookupRequest,
  NumberLookup,
} from '../domain/ports/number-lookup.js';
import type { AnsweredSimChange, LookupProvider, ProviderAnswer } from './interface.js';
import { lookupKey } from './keys.js';
import { testLookup } from './test-numbers.js';

export interface LookupServiceOptions {
  /** The deployment's provider; null when LOOKUP_PROVIDER is unset. */
  provider: LookupProvider | null;
  cache: LookupCacheStore;
  /** lookupKeySecret(CODE_SECRET). */
  keySecret: Buffer;
  clock: Clock;
  /** LOOKUP_TIMEOUT_MS: the whole lookup, the cache's read and an OAuth token's request included. */
  budgetMs: number;
  /** LOOKUP_LINE_CACHE_SECONDS and LOOKUP_SIM_CACHE_SECONDS, in ms. */
  lineTtlMs: number;
  simTtlMs: number;
  /** CIRCUIT_BREAKER_FAILURES and CIRCUIT_BREAKER_COOLDOWN_SECONDS, as the delivery providers'. */
  breaker: BreakerPolicy;
  /** Told of a cache that failed (the lookup then asks the provider). */
  onCacheError?: (err: unknown, operation: CacheOperation) => void;
  /**
   * True while other instances serve on the same cache (the instance registry's count): then a
   * cold lookup first claims the number in the cache, so that one instance asks the provider and
   * the others wait for its answer. Alone, the in-process single flight is enough.
   */
  sharing?: () => boolean;
}

export type CacheOperation = 'get' | 'put' | 'claim' | 'release';

type Failure = Extract<LookupOutcome, { ok: false }>;

/** One lookup under way: its budget's signal, and whether it reached the provider. */
interface Run {
  signal: AbortSignal;
  askedProvider: boolean;
  /** Waiting for another instance's lookup of the number (claimOrAwait). */
  awaitingInstance: boolean;
  /** What the cache held, for a failure to carry. */
  known: NumberFacts | null;
}

const EMPTY: CachedLookup = { line: null, sim: null };

/** Numbers whose facts a process keeps beside the shared cache (about 300 bytes each). */
const LOCAL_ENTRIES = 10_000;

/** How often an instance waiting for another's lookup of a number reads the cache. */
const CLAIM_POLL_MS = 25;

const NO_FACTS: NumberFacts = {
  lineType: null,
  carrier: null,
  country: null,
  mcc: null,
  mnc: null,
  lastSimChange: null,
};

/**
 * Carrier data of a number: from the cache every instance shares, else from the provider, at most
 * once per number and part per cache period (within a process, concurrent sends for one number
 * wait for one lookup). Bounded by its budget and guarded by a circuit breaker; every fault is an
 * outcome, never a throw. A test key's lookup answers from the test numbers, with no network.
 */
export class LookupService implements NumberLookup {
  private readonly flights = new Map<string, Promise<LookupOutcome>>();
  private readonly breaker: CircuitBreaker;
  /**
   * What this process read from the shared cache or wrote to it, until each part goes stale (its
   * checkedAt plus its period, as in the shared cache): a part does not change while it is fresh,
   * so a warm lookup costs neither a Redis command nor a query. Bounded; the oldest go first.
   */
  private readonly local = new Map<string, CachedLookup>();
  /** The shared cache's writes under way, which no lookup waits for. */
  private readonly writes = new Set<Promise<void>>();
  /** Whether the provider has answered on this instance (GET /health: `up` rather than `unknown`). */
  private answered = false;

  constructor(private readonly o: LookupServiceOptions) {
    this.breaker = new CircuitBreaker(o.breaker, o.clock);
  }

  /** The provider's name, or null when none is configured. */
  get providerName(): string | null {
    return this.o.provider?.name ?? null;
  }

  /**
   * The provider's state on this instance (GET /health), null when none is configured: `down`
   * while its circuit is open (lookups skip it and add `lookup_unavailable`), `up` once it has
   * answered, `unknown` before. Asked for nothing: a lookup costs money, so there is no check.
   */
  health(): LookupHealth | null {
    const { provider } = this.o;
    if (!provider) return null;
    return { name: provider.name, state: this.breaker.isOpen() ? 'down' : this.answered ? 'up' : 'unknown' };
  }

  readAhead(request: LookupRequest): LookupAhead | null {
    const { e164, mode, parts } = request;
    if (mode === 'test') return null;
    const key = lookupKey(this.o.keySecret, e164);
    const held = this.fresh(this.local.get(key) ?? EMPTY);
    const holds = (!parts.line || held.line) && (!parts.sim || held.sim);
    return { key, shared: holds ? null : this.readShared(key) };
  }

  lookup(request: LookupRequest): Promise<LookupOutcome> {
    const { e164, mode, parts } = request;
    if (mode === 'test') return Promise.resolve(testLookup(e164, parts, this.o.clock.now()));
    const key = request.ahead?.key ?? lookupKey(this.o.keySecret, e164);
    const held = this.fresh(this.local.get(key) ?? EMPTY);
    if ((!parts.line || held.line) && (!parts.sim || held.sim))
      return Promise.resolve({ ok: true, facts: factsOf(held, parts), from: 'cache' });
    const flightKey = `${key}:${parts.line ? 'l' : ''}${parts.sim ? 's' : ''}`;
    let flight = this.flights.get(flightKey);
    if (!flight) {
      const ahead = request.ahead?.shared ?? null;
      flight = this.withinBudget((run) => this.resolve(e164, key, parts, run, ahead)).finally(() =>
        this.flights.delete(flightKey),
      );
      this.flights.set(flightKey, flight);
    }
    return flight;
  }

  async known(e164: string, mode: LookupRequest['mode']): Promise<KnownNumber | null> {
    const now = this.o.clock.now();
    if (mode === 'test') {
      const outcome = testLookup(e164, { line: true, sim: true }, now);
      return outcome.ok ? { facts: outcome.facts, lineCheckedAt: now, simCheckedAt: now } : null;
    }
    const key = lookupKey(this.o.keySecret, e164);
    let held = this.fresh(this.local.get(key) ?? EMPTY);
    if (!held.line || !held.sim) {
      const shared = await this.readShared(key);
      held = this.fresh({ line: held.line ?? shared.line, sim: held.sim ?? shared.sim });
    }
    if (!held.line && !held.sim) return null;
    return {
      facts: factsOf(held, { line: true, sim: true }),
      lineCheckedAt: held.line?.checkedAt ?? null,
      simCheckedAt: held.sim?.checkedAt ?? null,
    };
  }

  /**
   * Runs `work` with a signal that aborts at the budget, and answers a failure then at the latest.
   * A budget spent waiting on the provider counts against its circuit; one spent on the cache not.
   */
  private withinBudget(work: (run: Run) => Promise<LookupOutcome>): Promise<LookupOutcome> {
    const controller = new AbortController();
    const run: Run = {
      signal: controller.signal,
      askedProvider: false,
      awaitingInstance: false,
      known: null,
    };
    return new Promise<LookupOutcome>((resolve) => {
      const timer = setTimeout(() => {
        controller.abort();
        if (run.askedProvider) this.breaker.failure();
        const what = run.askedProvider
          ? (this.o.provider?.name ?? 'the provider')
          : run.awaitingInstance
            ? "another instance's lookup of this number"
            : 'the lookup cache';
        resolve(this.failure(true, `${what} did not answer within ${this.o.budgetMs} ms`, run.known));
      }, this.o.budgetMs);
      work(run)
        .catch((err: unknown) =>
          this.failure(true, `the lookup failed (${(err as Error)?.name ?? 'error'})`, null),
        )
        .then((outcome) => {
          clearTimeout(timer);
          if (!controller.signal.aborted) resolve(outcome);
        });
    });
  }

  private async resolve(
    e164: string,
    key: string,
    parts: LookupParts,
    run: Run,
    ahead: Promise<CachedLookup> | null,
  ): Promise<LookupOutcome> {
    const { provider, clock } = this.o;
    const { signal } = run;
    const shared = await (ahead ?? this.readShared(key));
    const cached = this.remember(key, shared);
    const need: LookupParts = {
      line: parts.line && cached.line === null && (provider?.parts.line ?? true),
      sim: parts.sim && cached.sim === null && (provider?.parts.sim ?? true),
    };
    if (!need.line && !need.sim) return { ok: true, facts: factsOf(cached, parts), from: 'cache' };
    const known = cached.line || cached.sim ? factsOf(cached, parts) : null;
    run.known = known;
    if (!provider) return this.failure(false, 'no lookup provider is configured (LOOKUP_PROVIDER)', known);
    if (!this.breaker.allows())
      return this.failure(true, `${provider.name} is skipped after repeated failures (circuit open)`, known);

    const claim = this.o.sharing?.() ? `${key}:${need.line ? 'l' : ''}${need.sim ? 's' : ''}` : null;
    if (claim) {
      const theirs = await this.claimOrAwait(claim, key, need, run);
      // Past the budget the lookup has answered its failure already (withinBudget).
      if (theirs === 'late') return this.failure(true, 'the lookup did not finish in time', known);
      if (theirs !== 'mine') {
        const merged = this.remember(key, {
          line: theirs.line ?? cached.line,
          sim: theirs.sim ?? cached.sim,
        });
        return { ok: true, facts: factsOf(merged, parts), from: 'cache' };
      }
    }

    let answer: ProviderAnswer;
    run.askedProvider = true;
    try {
      answer = await provider.lookup(e164, need, signal);
    } catch (err) {
      answer = {
        ok: false,
        retryable: true,
        error: `${provider.name} failed (${(err as Error)?.name ?? 'error'})`,
      };
    }
    // A failed lookup gives its claim up: another instance waiting for it may ask now.
    if (claim && (signal.aborted || !answer.ok)) this.behind('release', this.o.cache.release(claim));
    if (signal.aborted) return this.failure(true, `${provider.name} did not answer in time`, known);
    if (!answer.ok) {
      this.breaker.failure();
      return this.failure(answer.retryable, answer.error, known);
    }
    this.breaker.success();
    this.answered = true;
    const now = clock.now();
    const write: LookupCacheWrite = {};
    if (need.line)
      write.line = {
        facts: { ...(answer.line ?? NO_FACTS), checkedAt: now },
        expiresAt: now + this.o.lineTtlMs,
      };
    if (need.sim) {
      const lastSimChange = stamped(answer.sim?.lastSimChange ?? null, now);
      write.sim = { facts: { lastSimChange, checkedAt: now }, expiresAt: now + this.o.simTtlMs };
    }
    // The answer does not wait for the shared cache's write: this process keeps the facts at once
    // (below), and the other instances find them a moment later. Awaited, the write would add a
    // commit or a pool slot to every cold send, and a slow one would spend the lookup's budget
    // after the provider had answered (and count against the provider's circuit).
    this.behind('put', this.o.cache.put(key, write));
    const merged = this.remember(key, {
      line: write.line ? lineOnly(write.line.facts) : cached.line,
      sim: write.sim?.facts ?? cached.sim,
    });
    return { ok: true, facts: factsOf(merged, parts), from: 'provider' };
  }

  /**
   * Where other instances share the cache, one of them at a time asks the provider about a number's
   * parts: the first to claim them (`mine`: this instance, which now holds the claim until its
   * budget ends, and asks). The others read the cache every CLAIM_POLL_MS until the holder's answer
   * lands there (the parts, as the cache holds them), or until the claim lapses or is given up (its
   * lookup failed), and then claim in turn; `late` once the budget is spent. A cache that cannot
   * claim lets this instance ask: at worst the provider is asked twice, as without claims.
   */
  private async claimOrAwait(
    claim: string,
    key: string,
    need: LookupParts,
    run: Run,
  ): Promise<CachedLookup | 'mine' | 'late'> {
    for (;;) {
      const now = this.o.clock.now();
      const mine = await this.o.cache.claim(claim, now, now + this.o.budgetMs).catch((err: unknown) => {
        this.o.onCacheError?.(err, 'claim');
        return true;
      });
      // A claim taken as the budget ran out is given up by the provider's aborted lookup.
      if (mine) return 'mine';
      if (run.signal.aborted) return 'late';
      run.awaitingInstance = true;
      await sleep(CLAIM_POLL_MS, undefined, { signal: run.signal }).catch(() => {});
      if (run.signal.aborted) return 'late';
      const shared = this.fresh(await this.readShared(key));
      if ((!need.line || shared.line) && (!need.sim || shared.sim)) return shared;
    }
  }

  /** The shared cache's fresh parts for `key`; a cache that fails is told of and holds nothing. */
  private readShared(key: string): Promise<CachedLookup> {
    return this.o.cache.get(key, this.o.clock.now()).catch((err: unknown): CachedLookup => {
      this.o.onCacheError?.(err, 'get');
      return EMPTY;
    });
  }

  /** Resolves once the cache writes under way have landed or failed (before the cache closes). */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all(this.writes);
  }

  /** A write to the shared cache that no lookup waits for; its failure is told of. */
  private behind(operation: 'put' | 'release', write: Promise<void>): void {
    const done: Promise<void> = write
      .catch((err: unknown) => this.o.onCacheError?.(err, operation))
      .finally(() => this.writes.delete(done));
    this.writes.add(done);
  }

  /** The parts of `held` still fresh now. */
  private fresh(held: CachedLookup): CachedLookup {
    const now = this.o.clock.now();
    return {
      line: held.line && now < held.line.checkedAt + this.o.lineTtlMs ? held.line : null,
      sim: held.sim && now < held.sim.checkedAt + this.o.simTtlMs ? held.sim : null,
    };
  }

  /** Keeps `got` (merged with what this process held) for later lookups; returns the fresh parts. */
  private remember(key: string, got: CachedLookup): CachedLookup {
    const held = this.fresh(this.local.get(key) ?? EMPTY);
    const merged = this.fresh({ line: got.line ?? held.line, sim: got.sim ?? held.sim });
    this.local.delete(key);
    if (merged.line || merged.sim) {
      this.local.set(key, merged);
      if (this.local.size > LOCAL_ENTRIES) this.local.delete(this.local.keys().next().value as string);
    }
    return merged;
  }

  private failure(retryable: boolean, error: string, facts: NumberFacts | null): Failure {
    return { ok: false, retryable, error, facts };
  }
}

/** The cached line part as the cache keeps it: the line facts with when they were asked. */
const lineOnly = (facts: CachedLine): CachedLine => ({
  lineType: facts.lineType,
  carrier: facts.carrier,
  country: facts.country,
  mcc: facts.mcc,
  mnc: facts.mnc,
  checkedAt: facts.checkedAt,
});

/** A window answer is relative to when it was asked. */
const stamped = (change: AnsweredSimChange | null, now: number): SimChange | null =>
  change === null || 'at' in change ? change : { ...change, checkedAt: now };

function factsOf(cached: CachedLookup, parts: LookupParts): NumberFacts {
  const line = parts.line ? cached.line : null;
  const sim: CachedSim | null = parts.sim ? cached.sim : null;
  return {
    lineType: line?.lineType ?? null,
    carrier: line?.carrier ?? null,
    country: line?.country ?? null,
    mcc: line?.mcc ?? null,
    mnc: line?.mnc ?? null,
    lastSimChange: sim?.lastSimChange ?? null,
  };
}
