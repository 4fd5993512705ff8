import { createHmac, hkdfSync } from 'node:crypto';
import { type Channel, countsInCountryWindow, destinationField } from './channels/registry.js';
import { DomainError, type ErrorDetail } from './errors.js';
import type { VerificationEvents } from './events.js';
import type { CounterSpec, RateLimitStore } from './ports/rate-limits.js';
import type { WindowCounts } from './pumping-breaker.js';
import type { EffectiveSettings } from './settings.js';
import type { Mode } from './types.js';

/**
 * The scope of an account's limits and country windows: test and live traffic are counted apart,
 * so the counter keys of test traffic carry the mode.
 */
export const accountLimitScope = (accountId: string, mode: Mode): string =>
  mode === 'test' ? `${accountId}:test` : accountId;

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

  constructor(
    private readonly counters: RateLimitStore,
    /** Keys the destination digests of counter keys (see counterKeySecret). */
    private readonly keySecret: Buffer,
    private readonly events: VerificationEvents = {},
  ) {}

  /**
   * Counter keys name a destination by a digest keyed with a secret derived from CODE_SECRET, so
   * neither a shared store (Redis) nor the SQLite counter log holds addresses or numbers, and a
   * reader of the keys cannot find a number by hashing every number there is (an unkeyed digest
   * of a US number falls to a few seconds of guessing).
   */
  private destinationKey(accountId: string, destination: string): string {
    return `${accountId}:${createHmac('sha256', this.keySecret).update(destination).digest('base64url').slice(0, 22)}`;
  }

  /** Per-key request rate of send-code or verify-code. */
  async checkKeyRate(kind: 'send' | 'verify', keyId: string, s: EffectiveSettings): Promise<void> {
    const spec = this.specsOf(s)[kind === 'send' ? 'keySend' : 'keyVerify'];
    const limit = spec.limit;
    const decision = await this.counters.consume(spec, keyId);
    if (!decision.allowed) {
      this.events.limited?.(`key-${kind}`);
      throw new DomainError(
        'RATE_LIMITED',
        `This API key may make ${limit} ${kind}-code requests per second; slow down.`,
        undefined,
        decision.retryAfterSeconds,
      );
    }
  }

  /**
   * The destination rules of one send: the failure budget, the resend cooldown, the hourly cap per
   * destination and channel, and the hourly volume per country. A dual send is refused whole: points
   * taken for one channel are given back when the other is refused.
   */
  async checkSend(accountId: string, targets: SendTarget[], s: EffectiveSettings): Promise<void> {
    const specs = this.specsOf(s);
    const failures = specs.failures;
    // One digest per destination serves the failure budget and the per-channel counters below.
    const keys = targets.map((t) => this.destinationKey(accountId, t.destination));
    for (const [i, t] of targets.entries()) {
      const budget = await this.counters.peek(failures, keys[i] as string);
      if (!budget.allowed) {
        this.events.limited?.(failures.name);
        throw limited(
          'Too many wrong codes were entered for this destination; sends to it are paused.',
          [
            {
              field: destinationField(t.channel),
              channel: t.channel,
              message: 'daily budget of wrong codes used up',
            },
          ],
          budget.retryAfterSeconds,
        );
      }
    }

    const taken: Array<{ spec: CounterSpec; key: string }> = [];
    const refusals: ErrorDetail[] = [];
    let retryAfter = 0;
    const take = async (spec: CounterSpec, key: string, detail: ErrorDetail): Promise<boolean> => {
      const decision = await this.counters.consume(spec, key);
      if (decision.allowed) {
        taken.push({ spec, key });
        return true;
      }
      refusals.push(detail);
      this.events.limited?.(spec.name);
      retryAfter = Math.max(retryAfter, decision.retryAfterSeconds);
      return false;
    };

    for (const [i, t] of targets.entries()) {
      const key = `${keys[i]}:${t.channel}`;
      const field = destinationField(t.channel);
      const { cooldown, hourly, perCountry } = specs;
      if (
        s.resendCooldownSeconds > 0 &&
        !(await take(cooldown, key, {
          field,
          channel: t.channel,
          message: `a code was sent to this destination less than ${s.resendCooldownSeconds} s ago`,
        }))
      ) {
        continue;
      }
      if (
        !(await take(hourly, key, {
          field,
          channel: t.channel,
          message: `at most ${s.sendsPerDestinationPerHour} codes per hour go to one destination`,
        }))
      ) {
        continue;
      }
      if (t.country && countsInCountryWindow(t.channel)) {
        await take(perCountry, `${accountId}:${t.country}`, {
          field: 'country',
          channel: t.channel,
          message: `the hourly volume of codes to ${t.country} is used up`,
        });
      }
    }

    if (refusals.length > 0) {
      await Promise.all(taken.map((t) => this.counters.refund(t.spec, t.key)));
      throw limited('Rate limit exceeded for this destination; retry later.', refusals, retryAfter);
    }
  }

  /** Counts a phone send to `country` in its hour (see COUNTRY_WINDOW). */
  async countCountrySend(scope: string, country: string, now: number): Promise<void> {
    await this.counters.penalize(COUNTRY_WINDOW.sent, countryHourKey(scope, country, now));
  }

  /** Counts a verified phone request to `country` in the hour it was sent in. */
  async countCountryVerified(scope: string, country: string, sentAt: number): Promise<void> {
    await this.counters.penalize(COUNTRY_WINDOW.verified, countryHourKey(scope, country, sentAt));
  }

  /** The sends and verifications to `country` in the current and the previous clock hour. */
  async countryWindow(scope: string, country: string, now: number): Promise<WindowCounts> {
    const hours = [now, now - HOUR_MS].map((at) => countryHourKey(scope, country, at));
    const [sent, verified] = await Promise.all(
      [COUNTRY_WINDOW.sent, COUNTRY_WINDOW.verified].map(async (spec) =>
        (await Promise.all(hours.map((h) => this.counters.count(spec, h)))).reduce((a, b) => a + b, 0),
      ),
    );
    return { sent: sent as number, verified: verified as number };
  }

  /** Counts a wrong code against the destination's daily failure budget. */
  async recordFailure(accountId: string, destination: string, s: EffectiveSettings): Promise<void> {
    await this.counters.penalize(this.specsOf(s).failures, this.destinationKey(accountId, destination));
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

const limited = (message: string, details: ErrorDetail[], retryAfterSeconds: number) =>
  new DomainError('RATE_LIMITED', message, details, Math.max(1, retryAfterSeconds));
