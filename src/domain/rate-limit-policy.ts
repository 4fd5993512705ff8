import { createHmac, hkdfSync } from 'node:crypto';
import { type Channel, countsInCountryWindow, destinationField } from './channels/registry.js';
import { DomainError, type ErrorDetail } from './errors.js';
import type { VerificationEvents } from './events.js';
import type {
  CounterPlan,
  CounterRef,
  CounterSpec,
  PlanOutcome,
  RateLimitStore,
} from './ports/rate-limits.js';
import type { WindowCounts } from './pumping-breaker.js';
import type { EffectiveSettings } from './settings.js';
import type { Mode } from './types.js';

/**
 * The scope of an account's limits and country windows: test and live traffic are counted apart,
 * so the counter keys of test traffic carry the mode.
 */
export const accountLimitScope = (accountId: string, mode: Mode): string =>
  mode === 'test' ? `${accountId}:test` : accountId;

/** How long a verify's outcome waits for another request's counter call before a call of its own. */
const CARRY_MS = 10;
/** At most this many points wait (a store away for long: verifies are refused by then anyway). */
const CARRIED_MAX = 10_000;
const HOUR = 3600;
const DAY = 86400;
const HOUR_MS = HOUR * 1000;

/**
 * The sends and verifications of an account, mode and country by clock hour, on the channels
 * that count in it (ChannelSpec.countryWindow: paid phone traffic): what the SMS-pumping breaker
 * and the country_conversion risk signal read at send time. Counted with
 * the rate limits, so that they are exact at once on every instance (shared through Redis when
 * there are several) and, on the embedded default, kept over a restart. A counter of one hour
 * lives two, through the next hour that reads it as the previous one.
 */
const COUNTRY_WINDOW = {
  sent: { name: 'country-window-sent', limit: 2 ** 31 - 1, windowSeconds: 2 * HOUR },
  verified: { name: 'country-window-verified', limit: 2 ** 31 - 1, windowSeconds: 2 * HOUR },
} satisfies Record<string, CounterSpec>;
const countryHourKey = (scope: string, country: string, at: number) =>
  `${scope}:${country}:${at - (at % HOUR_MS)}`;

/** The counters of one send, charged at once (RateLimitPolicy.chargeSend). */
export interface SendCharge {
  /** Per target, its country's sends and verifications this hour and the last; null when it counts in none. */
  windows: Array<WindowCounts | null>;
  /** The refusal by the key's send rate or the send limits, or null (counted as a limit event when asked). */
  refusal(): DomainError | null;
  /** Gives back every point the charge kept: the send was refused by its screen. */
  giveBack(): Promise<void>;
  /** Gives back the send counted in its country's window: its codes were not stored. */
  giveBackSends(): Promise<void>;
}

/** One destination a send is about to reach. */
export interface SendTarget {
  channel: Channel;
  /** What contacts, blocks, risk and limits key: an email's canonical mailbox, or an E.164 number. */
  destination: string;
  /** Where the message goes: the email address as given (the number itself for a phone). */
  address: string;
  country: string | null;
}

/**
 * The rate-limit rules of the contract, on top of one counter store. Every rule is a fixed-window
 * counter whose limit comes from the account's effective settings.
 */
export class RateLimitPolicy {
  /** The counter specs of one settings object, made once: the settings of a key live for seconds. */
  private readonly specs = new WeakMap<EffectiveSettings, Specs>();
  /** The points waiting for this process's next counter call (see addCarried). */
  private carried: CounterRef[] = [];
  /** Sends the waiting points by themselves when no call took them within CARRY_MS. */
  private carryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Whether the counters are a shared store across the network (a call is a round trip). */
  readonly shared: boolean;

  constructor(
    private readonly counters: RateLimitStore,
    /** Keys the destination digests of counter keys (see counterKeySecret). */
    private readonly keySecret: Buffer,
    private readonly events: VerificationEvents = {},
  ) {
    this.shared = counters.kind === 'redis';
  }

  /**
   * Counter keys name a destination by a digest keyed with a secret derived from CODE_SECRET, so
   * neither a shared store (Redis) nor the SQLite counter log holds addresses or numbers, and a
   * reader of the keys cannot find a number by hashing every number there is (an unkeyed digest
   * of a US number falls to a few seconds of guessing).
   */
  private destinationKey(accountId: string, destination: string): string {
    return `${accountId}:${createHmac('sha256', this.keySecret).update(destination).digest('base64url').slice(0, 22)}`;
  }

  /** Per-key request rate of send-code or verify-code (one counter call; a refusal charges nothing). */
  async checkKeyRate(kind: 'send' | 'verify', keyId: string, s: EffectiveSettings): Promise<void> {
    const spec = this.specsOf(s)[kind === 'send' ? 'keySend' : 'keyVerify'];
    // A plan's refusal is one call where a refused consume is two (its points given back after).
    const decision = this.shared
      ? (await this.run({ rate: { spec, key: keyId } })).rate
      : await this.counters.consume(spec, keyId);
    if (decision && !decision.allowed) throw this.keyRateRefusal(kind, spec, decision.retryAfterSeconds);
  }

  private keyRateRefusal(kind: 'send' | 'verify', spec: CounterSpec, retryAfterSeconds: number): DomainError {
    this.events.limited?.(`key-${kind}`);
    return new DomainError(
      'RATE_LIMITED',
      `This API key may make ${spec.limit} ${kind}-code requests per second; slow down.`,
      undefined,
      retryAfterSeconds,
    );
  }

  /** Per target, its country's window (see SendCharge.windows), read without charging anything. */
  async sendWindows(scope: string, targets: SendTarget[], now: number): Promise<Array<WindowCounts | null>> {
    return Promise.all(
      targets.map((t) =>
        t.country !== null && countsInCountryWindow(t.channel)
          ? this.countryWindow(scope, t.country, now)
          : null,
      ),
    );
  }

  /**
   * Every counter of one send in one run of the counter store (one round trip on Redis): the
   * country windows the risk screen and the SMS-pumping breaker read (as they were before this
   * send), the key's send rate, then the destination rules: the failure budget, the resend
   * cooldown, the hourly cap per destination and channel, and the hourly volume per country; and,
   * when nothing refused, the send counted in its country's window. A dual send is refused whole:
   * points taken for one channel are given back when the other is refused.
   *
   * The screen decides before the limits (a blocked contact is refused 403 whatever its limits),
   * so the caller answers the screen's refusal first and then `giveBack()`s what the charge kept,
   * which leaves the counters as if the limits had never been asked.
   */
  async chargeSend(
    keyId: string,
    scope: string,
    targets: SendTarget[],
    s: EffectiveSettings,
    now: number,
  ): Promise<SendCharge> {
    const specs = this.specsOf(s);
    // One digest per destination serves the failure budget and the per-channel counters below.
    const keys = targets.map((t) => this.destinationKey(scope, t.destination));
    const reads: CounterRef[] = [];
    const windowAt: Array<number | null> = [];
    const adds: CounterRef[] = [];
    const takes: CounterRef[][] = [];
    for (const [i, t] of targets.entries()) {
      const windowed = t.country !== null && countsInCountryWindow(t.channel);
      windowAt.push(windowed ? reads.length : null);
      const key = `${keys[i]}:${t.channel}`;
      const group: CounterRef[] = [];
      if (s.resendCooldownSeconds > 0) group.push({ spec: specs.cooldown, key });
      group.push({ spec: specs.hourly, key });
      if (windowed) {
        const hours = [now, now - HOUR_MS].map((at) => countryHourKey(scope, t.country as string, at));
        for (const spec of [COUNTRY_WINDOW.sent, COUNTRY_WINDOW.verified])
          for (const h of hours) reads.push({ spec, key: h });
        adds.push({ spec: COUNTRY_WINDOW.sent, key: hours[0] as string });
        group.push({ spec: specs.perCountry, key: `${scope}:${t.country}` });
      }
      takes.push(group);
    }
    const outcome = await this.run({
      reads,
      rate: { spec: specs.keySend, key: keyId },
      budgets: keys.map((key) => ({ spec: specs.failures, key })),
      takes,
      adds,
    });

    const windows = windowAt.map((at) =>
      at === null
        ? null
        : {
            sent: (outcome.reads[at] ?? 0) + (outcome.reads[at + 1] ?? 0),
            verified: (outcome.reads[at + 2] ?? 0) + (outcome.reads[at + 3] ?? 0),
          },
    );
    // Built only when asked: most sends are refused by nothing.
    const refusal = (): DomainError | null => {
      if (outcome.rate && !outcome.rate.allowed)
        return this.keyRateRefusal('send', specs.keySend, outcome.rate.retryAfterSeconds);
      if (outcome.budget) {
        const t = targets[outcome.budget.index] as SendTarget;
        this.events.limited?.(specs.failures.name);
        return limited(
          'Too many wrong codes were entered for this destination; sends to it are paused.',
          [
            {
              field: destinationField(t.channel),
              channel: t.channel,
              message: 'daily budget of wrong codes used up',
            },
          ],
          outcome.budget.retryAfterSeconds,
        );
      }
      if (outcome.refused.length === 0) return null;
      let retryAfter = 0;
      const details = outcome.refused.map((r) => {
        const ref = takes[r.group]?.[r.step] as CounterRef;
        this.events.limited?.(ref.spec.name);
        retryAfter = Math.max(retryAfter, r.retryAfterSeconds);
        return refusalDetail(ref.spec, specs, targets[r.group] as SendTarget, s);
      });
      return limited('Rate limit exceeded for this destination; retry later.', details, retryAfter);
    };
    const charged = outcome.charged;
    return {
      windows,
      refusal,
      giveBack: () => this.counters.giveBack(charged),
      giveBackSends: () => this.counters.giveBack(charged.filter((c) => c.spec === COUNTRY_WINDOW.sent)),
    };
  }

  /** Counts a phone send to `country` in its hour (see COUNTRY_WINDOW). */
  async countCountrySend(scope: string, country: string, now: number): Promise<void> {
    await this.counters.penalize(COUNTRY_WINDOW.sent, countryHourKey(scope, country, now));
  }

  /** Counts a verified phone request to `country` in the hour it was sent in. */
  async countCountryVerified(scope: string, country: string, sentAt: number): Promise<void> {
    await this.addCarried({ spec: COUNTRY_WINDOW.verified, key: countryHourKey(scope, country, sentAt) });
  }

  /** The sends and verifications to `country` in the current and the previous clock hour. */
  async countryWindow(scope: string, country: string, now: number): Promise<WindowCounts> {
    const hours = [now, now - HOUR_MS].map((at) => countryHourKey(scope, country, at));
    const reads = [COUNTRY_WINDOW.sent, COUNTRY_WINDOW.verified].flatMap((spec) =>
      hours.map((key) => ({ spec, key })),
    );
    const [sentNow = 0, sentBefore = 0, verifiedNow = 0, verifiedBefore = 0] = (await this.run({ reads }))
      .reads;
    return { sent: sentNow + sentBefore, verified: verifiedNow + verifiedBefore };
  }

  /** Counts a wrong code against the destination's daily failure budget. */
  async recordFailure(accountId: string, destination: string, s: EffectiveSettings): Promise<void> {
    await this.addCarried({
      spec: this.specsOf(s).failures,
      key: this.destinationKey(accountId, destination),
    });
  }

  /**
   * Adds a point to a counter with this process's next counter call. What a verify's outcome
   * charges (a wrong code against the destination's budget, a verified phone in its country's
   * window) is known only after the database counted the attempt, after the key's rate was
   * charged, so it cannot share that call; it rides on the next call any request of this process
   * makes (as `addsFirst`: counted before that call reads or decides anything, whatever it
   * decides), or on a call of its own after CARRY_MS. The verify answers without waiting for it:
   * under load a verify then costs Redis one call, a wrong code included. What the point decides
   * waits for it on this instance (its next call counts it first); on another, a send to the
   * destination within CARRY_MS may not see it yet (the budget refuses sends, and the attempts of a
   * request are counted by the database, atomically). A call that fails leaves its points for
   * the next one; `flush()` counts what is left before the counters close.
   */
  private addCarried(ref: CounterRef): Promise<void> {
    // In process there is no round trip to share: the answer waits for a durable write.
    if (!this.shared) return this.counters.penalize(ref.spec, ref.key);
    if (this.carried.length < CARRIED_MAX) this.carried.push(ref);
    if (!this.carryTimer) {
      this.carryTimer = setTimeout(() => {
        this.carryTimer = null;
        if (this.carried.length > 0) void this.run({}).catch(() => {});
      }, CARRY_MS);
      this.carryTimer.unref();
    }
    return Promise.resolve();
  }

  /** Runs a plan on the counter store, carrying the points that wait for a call (addCarried). */
  private run(plan: CounterPlan): Promise<PlanOutcome> {
    if (this.carried.length === 0) return this.counters.run(plan);
    const refs = this.carried;
    this.carried = [];
    const run = this.counters.run({ ...plan, addsFirst: refs });
    // Not counted (the store is away): they go with a later call, the first after it is back. A
    // call whose answer alone was lost counted them already: counted twice then, on the safe side.
    run.catch(() => {
      this.carried = [...refs, ...this.carried].slice(0, CARRIED_MAX);
    });
    return run;
  }

  /** Counts the points still waiting for a call (addCarried): before the counters close. */
  async flush(): Promise<void> {
    if (this.carryTimer) clearTimeout(this.carryTimer);
    this.carryTimer = null;
    if (this.carried.length > 0) await this.run({});
  }

  private specsOf(s: EffectiveSettings): Specs {
    let specs = this.specs.get(s);
    if (!specs) {
      specs = {
        keySend: { name: 'key-send', limit: s.keySendPerSecond, windowSeconds: 1 },
        keyVerify: { name: 'key-verify', limit: s.keyVerifyPerSecond, windowSeconds: 1 },
        failures: { name: 'destination-failures', limit: s.failuresPerDestinationPerDay, windowSeconds: DAY },
        cooldown: { name: 'resend-cooldown', limit: 1, windowSeconds: s.resendCooldownSeconds },
        hourly: { name: 'destination-hourly', limit: s.sendsPerDestinationPerHour, windowSeconds: HOUR },
        perCountry: { name: 'country-hourly', limit: s.countrySendsPerHour, windowSeconds: HOUR },
      };
      this.specs.set(s, specs);
    }
    return specs;
  }
}

type Specs = Record<'keySend' | 'keyVerify' | 'failures' | 'cooldown' | 'hourly' | 'perCountry', CounterSpec>;

/** The key of the counters' destination digests, derived (HKDF) from CODE_SECRET for this use only. */
export const counterKeySecret = (codeSecret: Buffer): Buffer =>
  Buffer.from(hkdfSync('sha256', codeSecret, 'contact-verify', 'rate-limit-counter-keys', 32));

/** What a refused send limit says of its target (`spec`: the cooldown, the hourly cap or the country's). */
function refusalDetail(spec: CounterSpec, specs: Specs, t: SendTarget, s: EffectiveSettings): ErrorDetail {
  if (spec === specs.perCountry)
    return {
      field: 'country',
      channel: t.channel,
      message: `the hourly volume of codes to ${t.country} is used up`,
    };
  const message =
    spec === specs.cooldown
      ? `a code was sent to this destination less than ${s.resendCooldownSeconds} s ago`
      : `at most ${s.sendsPerDestinationPerHour} codes per hour go to one destination`;
  return { field: destinationField(t.channel), channel: t.channel, message };
}

const limited = (message: string, details: ErrorDetail[], retryAfterSeconds: number) =>
  new DomainError('RATE_LIMITED', message, details, Math.max(1, retryAfterSeconds));
