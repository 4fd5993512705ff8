import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import { codeGuess, generateCode, hashCode } from './codes.js';
import { DomainError } from './errors.js';
import type { VerificationEvents } from './events.js';
import { timeOrderedUuid } from './ids.js';
import { negotiateLocale } from './locales.js';
import { canonicalMailbox } from './mailbox.js';
import { maskDestination } from './masking.js';
import { checkPhone } from './phone.js';
import type { Delivery, DeliveryPlan, DeliveryRequest, DeliveryResult } from './ports/delivery.js';
import type { ReadModel } from './ports/read-model.js';
import type { OutboxEntry, OutboxFilter, Verifications } from './ports/verifications.js';
import { type BreakerState, decideBreaker, type WindowCounts } from './pumping-breaker.js';
import { accountLimitScope, type RateLimitPolicy, type SendTarget } from './rate-limit-policy.js';
import { assessRisk, type RiskAssessment } from './risk.js';
import type { SendRequest } from './send-request.js';
import {
  type EffectiveSettings,
  effectiveSettings,
  type SettingsInForce,
  settingsInForce,
} from './settings.js';
import type {
  AccountSettings,
  AuthenticatedKey,
  Channel,
  DeliveryStatus,
  DeliveryType,
  NewVerification,
  VerificationStatus,
} from './types.js';

/** One entry of a send-code answer. */
export interface SendEntry {
  requestId: string;
  channel: Channel;
  status: 'pending' | 'undelivered';
  expiresAt: string;
  to: string;
  deliveryType?: DeliveryType;
  error?: { code: 'DELIVERY_FAILED' | 'INVALID_DESTINATION' | 'CHANNEL_UNAVAILABLE'; message: string };
  /** Absent on the entry of a channel that was not attempted (CHANNEL_UNAVAILABLE). */
  risk?: RiskAssessment;
}

export interface VerifyResult {
  verified: boolean;
  channel: Channel;
  requestId: string;
  status: VerificationStatus;
  attemptsRemaining: number;
}

/** The aggregates a verification works on: its requests, and the read model its screen reads. */
export interface VerificationStorage {
  readonly verifications: Verifications;
  readonly readModel: ReadModel;
}

export interface VerificationDeps {
  store: VerificationStorage;
  limits: RateLimitPolicy;
  delivery: Delivery;
  clock: Clock;
  /** The secret new codes are hashed with. */
  codeSecret: Buffer;
  /** Secrets replaced by a rotation: codes hashed with them still verify until they expire. */
  previousCodeSecrets?: readonly Buffer[];
  defaults: EffectiveSettings;
  /** The settings of `defaults` the deployment set; the others are built-in defaults. */
  defaultsGiven?: ReadonlySet<string>;
  logger: Logger;
  events?: VerificationEvents;
}

export type { VerificationEvents };

/**
 * The verification logic: codes, the attempts policy and state changes. It knows nothing of
 * HTTP or of which database or providers are behind its dependencies.
 */
export class VerificationService {
  /** Merged once per key record: the key cache hands out the same record for a few seconds. */
  private readonly settings = new WeakMap<AuthenticatedKey, EffectiveSettings>();
  constructor(private readonly deps: VerificationDeps) {}

  /** An account's settings over the deployment defaults (what its sends use; the branding preview). */
  settingsOf(accountSettings: AccountSettings): EffectiveSettings {
    return effectiveSettings(this.deps.defaults, accountSettings);
  }

  /** Each setting an account may override: the value its requests use and where it comes from. */
  settingsInForce(accountSettings: AccountSettings): SettingsInForce {
    return settingsInForce(this.deps.defaults, this.deps.defaultsGiven ?? new Set(), accountSettings);
  }

  /** Settings for requests made with `key`: deployment defaults with the account's overrides. */
  settingsFor(key: AuthenticatedKey): EffectiveSettings {
    let s = this.settings.get(key);
    if (!s) {
      s = effectiveSettings(this.deps.defaults, key.accountSettings);
      this.settings.set(key, s);
    }
    return s;
  }

  /**
   * A send as four steps: screen (the key's channels, the allow-list, what can be delivered, the
   * risk screen), limit (the key's rate and the send limits), issue (the codes, stored before any
   * provider is called) and deliver (in parallel for a dual send). `onStarted` is called once the
   * codes are stored, before any provider is called: from there on the answer is the send's own
   * (what an Idempotency-Key may replay), not a refusal.
   */
  async send(key: AuthenticatedKey, request: SendRequest, onStarted?: () => void): Promise<SendEntry[]> {
    const { wanted, targets, screened, s, now } = await this.screenSend(key, request);
    await this.limitSend(key, request, targets, s, now);
    const issued = await this.issue(key, request, targets, screened, s, now);
    onStarted?.();
    await this.countCountrySends(key, targets, now);
    const entries = await this.deliverIssued(key, request, targets, screened, issued);
    if (targets.length === wanted.length) return entries;
    return wanted.map(
      (t) =>
        entries.find((e) => e.channel === t.channel) ??
        unavailableEntry(t, request, new Date(issued.expiresAt), now),
    );
  }

  /**
   * The send's targets, each with its risk assessment: refused when the key is not enabled for a
   * channel or a country is not allowed; a channel that cannot deliver is left out (see
   * deliverable), and the risk screen runs on the rest.
   */
  private async screenSend(key: AuthenticatedKey, request: SendRequest) {
    const notEnabled = request.channels.filter((c) => !key.channels.includes(c));
    if (notEnabled.length > 0) {
      throw new DomainError(
        'CHANNEL_NOT_ENABLED',
        `This API key is not enabled for ${notEnabled.join(' and ')}; add it to the key's channels (PATCH /v1/admin/api-keys/{id}, or contact-verify keys update) or use a key enabled for it.`,
        notEnabled.map((c) => ({
          field: 'channel',
          channel: c,
          message: `${c} is not enabled for this key`,
        })),
      );
    }
    const s = this.settingsFor(key);
    const wanted: SendTarget[] = request.channels.map((channel) =>
      channel === 'EMAIL'
        ? {
            channel,
            destination: request.mailbox as string,
            address: request.email as string,
            country: null,
          }
        : {
            channel,
            destination: request.subscriber as string,
            address: request.phone as string,
            country: request.country,
          },
    );
    const blocked = wanted.find((t) => t.country && s.allowedCountries && !s.allowedCountries.has(t.country));
    if (blocked) {
      throw new DomainError(
        'INVALID_DESTINATION',
        `Codes to ${blocked.country} by ${blocked.channel} are not enabled for this account.`,
        [
          {
            field: 'phone',
            channel: blocked.channel,
            message: `country ${blocked.country} is not in the allow-list`,
          },
        ],
      );
    }
    const now = this.deps.clock.now();
    const targets = this.deliverable(key, request, wanted);
    const screened = await this.screen(key, request, targets, s, now);
    return { wanted, targets, screened, s, now };
  }

  /** The key's send rate, then the send limits (a refusal by them is counted for analytics). */
  private async limitSend(
    key: AuthenticatedKey,
    request: SendRequest,
    targets: SendTarget[],
    s: EffectiveSettings,
    now: number,
  ): Promise<void> {
    const { limits } = this.deps;
    await limits.checkKeyRate('send', key.id, s);
    await this.refusalCounted(key, request, targets, now, () =>
      limits.checkSend(limitScope(key), targets, s),
    );
  }

  /**
   * Makes a code per target and stores the requests: durable before any provider is called.
   * Delivery plans each message first; what it plans for the outbox is written with the row
   * itself: one write per send, and nothing to deliver afterwards.
   */
  private async issue(
    key: AuthenticatedKey,
    request: SendRequest,
    targets: SendTarget[],
    screened: RiskAssessment[],
    s: EffectiveSettings,
    now: number,
  ): Promise<IssuedSend> {
    const { codeSecret } = this.deps;
    const expiresAt = now + s.codeTtlSeconds * 1000;
    const ids = targets.map(() => timeOrderedUuid(now));
    const groupId = ids[0] as string;
    const codes = targets.map(() => generateCode(s.codeLength));
    const locale = negotiateLocale({
      requested: request.locale,
      accountDefault: s.locale,
      // An email-only request has no country to go by; a dual send's email follows its phone.
      phoneCountry: request.phone === null ? null : request.country,
    });
    const deliveries: DeliveryRequest[] = targets.map((t, i) => ({
      verificationId: ids[i] as string,
      accountId: key.accountId,
      channel: t.channel,
      // The message goes to the address as given; the mailbox is only how it is counted.
      to: t.address,
      code: codes[i] as string,
      codeTtlSeconds: s.codeTtlSeconds,
      deliveryType: request.deliveryType,
      country: t.country,
      purpose: request.purpose,
      customMessage: request.customMessage,
      branding: s.branding,
      locale,
      ...(t.channel === 'SMS' && s.webOtpHost !== null ? { webOtpHost: s.webOtpHost } : {}),
      ...(t.channel === 'SMS' && s.appHash !== null ? { appHash: s.appHash } : {}),
    }));
    const plans = deliveries.map((d) => this.deps.delivery.plan(d, key.mode));
    const rows: NewVerification[] = targets.map((t, i) => {
      const plan = plans[i] as DeliveryPlan;
      const outbox = plan.via === 'outbox';
      return {
        id: ids[i] as string,
        accountId: key.accountId,
        groupId,
        channel: t.channel,
        destination: t.destination,
        address: t.address === t.destination ? null : t.address,
        deliveryType: t.channel === 'WHATSAPP' ? request.deliveryType : null,
        country: t.country,
        purpose: request.purpose,
        codeHash: hashCode(codeSecret, ids[i] as string, codes[i] as string),
        maxAttempts: s.maxAttempts,
        createdAt: now,
        expiresAt,
        deliveryStatus: outbox ? 'outbox' : 'queued',
        outbox: outbox ? plan.content : null,
        outboxCode: outbox ? (codes[i] as string) : null,
        mode: key.mode,
        risk: JSON.stringify(screened[i]),
        locale,
      };
    });
    await this.deps.store.verifications.createVerifications(rows);
    return { ids, expiresAt, deliveries, plans };
  }

  /** Counts the phone sends in their country's hour (the SMS-pumping breaker's window). */
  private async countCountrySends(key: AuthenticatedKey, targets: SendTarget[], now: number): Promise<void> {
    await Promise.all(
      targets.map((t) =>
        t.channel !== 'EMAIL' && t.country
          ? this.deps.limits.countCountrySend(limitScope(key), t.country, now)
          : null,
      ),
    );
  }

  /**
   * Delivers the issued codes, both channels of a dual send at once, each settling on its own (a
   * code the outbox took is delivered already). When every one failed, the requests are canceled
   * and the send is refused.
   */
  private async deliverIssued(
    key: AuthenticatedKey,
    request: SendRequest,
    targets: SendTarget[],
    screened: RiskAssessment[],
    issued: IssuedSend,
  ): Promise<SendEntry[]> {
    const { ids, expiresAt, deliveries, plans } = issued;
    const results = await Promise.all(
      targets.map((t, i) => {
        const plan = plans[i] as DeliveryPlan;
        if (plan.via === 'provider') return this.deliverOne(key, t, deliveries[i] as DeliveryRequest);
        this.deps.events?.sent?.(t.channel, plan.result, 0);
        return plan.result;
      }),
    );

    const entries: SendEntry[] = targets.map((t, i) => {
      const result = results[i] as DeliveryResult;
      const entry: SendEntry = {
        requestId: ids[i] as string,
        channel: t.channel,
        status: result.ok ? 'pending' : 'undelivered',
        expiresAt: new Date(expiresAt).toISOString(),
        to: maskDestination(t.channel, t.destination),
        risk: screened[i] as RiskAssessment,
      };
      if (t.channel === 'WHATSAPP') entry.deliveryType = request.deliveryType;
      if (!result.ok) {
        entry.error = result.permanent
          ? { code: 'INVALID_DESTINATION', message: `The provider refused the destination: ${result.error}` }
          : { code: 'DELIVERY_FAILED', message: `Every provider failed: ${result.error}` };
      }
      return entry;
    });

    if (results.every((r) => !r.ok)) {
      const { store, clock } = this.deps;
      await Promise.all(
        ids.map((id) =>
          store.verifications.recordDelivery(id, {
            at: clock.now(),
            deliveryStatus: 'failed',
            provider: null,
            providerMessageId: null,
            cancel: true,
          }),
        ),
      );
      const allPermanent = results.every((r) => !r.ok && r.permanent);
      const details = entries.map((e) => ({
        field: e.channel === 'EMAIL' ? 'email' : 'phone',
        channel: e.channel,
        message: e.error?.message ?? '',
      }));
      throw allPermanent
        ? new DomainError(
            'INVALID_DESTINATION',
            'The provider refused the destination; check the address or number.',
            details,
          )
        : new DomainError(
            'DELIVERY_FAILED',
            'The code could not be delivered by any provider; retry later.',
            details,
          );
    }
    // One line per send: what an operator searches for. Destinations masked, never the code.
    this.deps.logger.info(
      {
        accountId: key.accountId,
        requestIds: entries.map((e) => e.requestId),
        channels: entries.map((e) => e.channel),
        to: entries.map((e) => e.to),
        purpose: request.purpose,
      },
      'code sent',
    );
    return entries;
  }

  /**
   * The targets a send may deliver to. Under LIVE_OUTBOX=refuse a live code on a channel with no
   * provider is refused before anything is screened, charged or stored: 503 CHANNEL_UNAVAILABLE
   * when no channel is left; in a dual send the other channel goes on alone.
   */
  private deliverable(key: AuthenticatedKey, request: SendRequest, wanted: SendTarget[]): SendTarget[] {
    const { delivery } = this.deps;
    const targets = wanted.filter((t) => delivery.available(t.channel, key.mode, request.deliveryType));
    if (targets.length > 0) return targets;
    throw new DomainError(
      'CHANNEL_UNAVAILABLE',
      `No provider delivers ${request.channels.join(' or ')} codes on this deployment, and live codes are not parked in the outbox; nothing was sent. The operator must configure a provider (test keys use the outbox).`,
      wanted.map((t) => ({
        field: 'channel',
        channel: t.channel,
        message: unavailableMessage(t.channel),
      })),
    );
  }

  /**
   * Refuses a send to a blocked contact (403 CONTACT_BLOCKED) or one whose risk reaches the
   * account's threshold (403 RISK_TOO_HIGH), counting the refusal; else the risk of each target.
   */
  private async screen(
    key: AuthenticatedKey,
    request: SendRequest,
    targets: SendTarget[],
    s: EffectiveSettings,
    now: number,
  ): Promise<RiskAssessment[]> {
    const { store, limits } = this.deps;
    const refuse = async (t: SendTarget, reason: string) =>
      store.readModel.recordRefusal({
        accountId: key.accountId,
        mode: key.mode,
        at: now,
        channel: t.channel,
        country: t.country,
        purpose: request.purpose,
        reason,
      });
    const assessed = await Promise.all(
      targets.map(async (t) => {
        const phoneCountry = t.channel !== 'EMAIL' ? t.country : null;
        const [signals, countryHour] = await Promise.all([
          store.readModel.destinationSignals(key.accountId, key.mode, t.destination, t.country, now),
          phoneCountry ? limits.countryWindow(limitScope(key), phoneCountry, now) : NO_COUNTS,
        ]);
        const risk = assessRisk({ ...t, numberFacts: request.numberFacts, signals, countryHour });
        return { t, signals, countryHour, risk };
      }),
    );
    for (const { t, signals, countryHour, risk } of assessed) {
      if (signals.blocked) {
        await refuse(t, 'blocked');
        throw new DomainError('CONTACT_BLOCKED', 'An operator blocked this destination; no code was sent.', [
          { field: t.channel === 'EMAIL' ? 'email' : 'phone', channel: t.channel, message: 'blocked' },
        ]);
      }
      if (t.channel !== 'EMAIL' && t.country)
        await this.checkBreaker(key, t.country, signals.breaker, countryHour, s, now, () =>
          refuse(t, 'breaker'),
        );
      if (s.riskThreshold !== null && risk.score >= s.riskThreshold) {
        await refuse(t, 'risk');
        throw new DomainError(
          'RISK_TOO_HIGH',
          `This send scored ${risk.score} of 100 for fraud risk, at or above the account's threshold of ${s.riskThreshold}; no code was sent.`,
          risk.signals.map((r) => ({ field: r.name, channel: t.channel, message: r.detail })),
        );
      }
    }
    return assessed.map(({ risk }) => risk);
  }

  /**
   * The SMS-pumping breaker of the account and country: trips on a burst of unconverted sends and
   * refuses (429, detail naming the breaker) until an operator resets it or the rate recovers.
   */
  private async checkBreaker(
    key: AuthenticatedKey,
    country: string,
    state: BreakerState | null,
    countryHour: WindowCounts,
    s: EffectiveSettings,
    now: number,
    countRefusal: () => Promise<void>,
  ): Promise<void> {
    const { store } = this.deps;
    const decision = decideBreaker(state, countryHour, s, now, country);
    if (decision.action === 'allow') return;
    const base: BreakerState = state ?? {
      accountId: key.accountId,
      mode: key.mode,
      country,
      trippedAt: null,
      detail: null,
      resetAt: null,
      baseline: null,
    };
    if (decision.action === 'recover') {
      await store.readModel.saveBreaker({ ...base, trippedAt: null, detail: null });
      return;
    }
    if (decision.action === 'trip') {
      await store.readModel.saveBreaker({ ...base, trippedAt: now, detail: decision.detail });
      this.deps.events?.breakerTripped?.(country);
      this.deps.logger.warn({ accountId: key.accountId, country }, decision.detail);
    }
    await countRefusal();
    this.deps.events?.limited?.('pumping-breaker');
    throw new DomainError(
      'RATE_LIMITED',
      `Codes to ${country} are paused by the SMS-pumping breaker; an operator can reset it.`,
      [{ field: 'country', message: decision.detail }],
      600,
    );
  }

  /** Runs a limit check; a refusal is counted for analytics (by the limit's kind) and rethrown. */
  private async refusalCounted(
    key: AuthenticatedKey,
    request: SendRequest,
    targets: SendTarget[],
    now: number,
    check: () => Promise<void>,
  ): Promise<void> {
    try {
      await check();
    } catch (err) {
      if (err instanceof DomainError && err.code === 'RATE_LIMITED') {
        const refused = err.details ?? [];
        for (const t of targets) {
          const detail = refused.find((d) => d.channel === t.channel);
          if (!detail) continue;
          await this.deps.store.readModel.recordRefusal({
            accountId: key.accountId,
            mode: key.mode,
            at: now,
            channel: t.channel,
            country: t.country,
            purpose: request.purpose,
            reason: detail.field === 'country' ? 'limit:country' : 'limit:destination',
          });
        }
      }
      throw err;
    }
  }

  private async deliverOne(
    key: AuthenticatedKey,
    target: SendTarget,
    request: DeliveryRequest,
  ): Promise<DeliveryResult> {
    const started = performance.now();
    const result = await this.deps.delivery.deliver(request, key.mode);
    this.deps.events?.sent?.(target.channel, result, performance.now() - started);
    if (result.ok && !result.outbox) {
      await this.deps.store.verifications.recordDelivery(request.verificationId, {
        at: this.deps.clock.now(),
        deliveryStatus: 'sent',
        provider: result.provider,
        providerMessageId: result.providerMessageId,
      });
    } else if (!result.ok) {
      await this.deps.store.verifications.recordDelivery(request.verificationId, {
        at: this.deps.clock.now(),
        deliveryStatus: 'failed',
        provider: result.provider,
        providerMessageId: null,
        error: result.error,
      });
      this.deps.logger.warn(
        {
          requestId: request.verificationId,
          channel: target.channel,
          to: maskDestination(target.channel, target.destination),
          provider: result.provider,
          error: result.error,
        },
        'delivery failed',
      );
    }
    return result;
  }

  /**
   * A page of the messages the built-in outbox kept, newest first. `to` is what a person would
   * type: any way of writing an address finds the messages of its mailbox.
   */
  outbox(filter: OutboxFilter): Promise<OutboxEntry[]> {
    return this.deps.store.verifications.listOutbox({
      ...filter,
      to: filter.to ? outboxDestination(filter.to) : undefined,
    });
  }

  /**
   * A delivery state a provider reported for the message it knows by `providerMessageId`; false
   * when no request has that message (yet: a callback can outrun the send's record of it).
   */
  recordProviderStatus(
    provider: string,
    providerMessageId: string,
    status: DeliveryStatus,
    error: string | null,
  ): Promise<boolean> {
    return this.deps.store.verifications.recordDeliveryByProviderId(
      provider,
      providerMessageId,
      status,
      error,
      this.deps.clock.now(),
    );
  }

  /**
   * Checks a code. The attempt is counted atomically before the comparison, so parallel guesses
   * can never evaluate more codes than the attempts allow; success consumes the whole group.
   */
  async verify(key: AuthenticatedKey, requestId: string, code: string): Promise<VerifyResult> {
    const { store, clock, codeSecret } = this.deps;
    const s = this.settingsFor(key);
    await this.deps.limits.checkKeyRate('verify', key.id, s);

    const now = clock.now();
    // Compare against every code of the group (a dual pair accepts either), under the code secret
    // and the previous ones of a rotation. A request of a channel the key is not enabled for is not
    // found (the store checks it on the request it reads).
    const secrets = [codeSecret, ...(this.deps.previousCodeSecrets ?? [])];
    const guess = codeGuess(secrets, code);
    const scope = ALL_CHANNELS.every((c) => key.channels.includes(c)) ? undefined : key.channels;
    const outcome = await store.verifications.attempt(key.accountId, requestId, now, guess, key.mode, scope);
    const { request, counted } = outcome;
    if (!request) throw notFound();
    const answer = (
      verified: boolean,
      status: VerificationStatus,
      channel: Channel,
      attempts: number,
    ): VerifyResult => {
      this.deps.events?.verified?.(
        channel,
        verified
          ? 'verified'
          : status === 'pending' || status === 'failed'
            ? 'wrong_code'
            : status === 'verified'
              ? 'already_verified'
              : status,
      );
      return {
        verified,
        channel,
        requestId,
        status,
        attemptsRemaining: Math.max(0, request.maxAttempts - attempts),
      };
    };
    // Nothing was counted: the request was settled, expired or used up when read, or (a parallel
    // attempt having counted or consumed in between) it moved on since, and is read again.
    const settled = async (): Promise<VerifyResult> => {
      const live =
        request.status === 'pending' && request.expiresAt > now && request.attempts < request.maxAttempts;
      const current = live
        ? ((await store.verifications.getVerification(key.accountId, requestId, key.mode)) ?? request)
        : request;
      if (
        current.status === 'failed' ||
        (current.status === 'pending' && current.attempts >= current.maxAttempts)
      ) {
        if (current.status === 'pending')
          await store.verifications.settleGroup(current.groupId, 'failed', now);
        this.deps.events?.verified?.(current.channel, 'too_many_attempts');
        throw new DomainError(
          'TOO_MANY_ATTEMPTS',
          'Every attempt for this verification is used up; send a new code.',
        );
      }
      if (current.status === 'pending' && current.expiresAt <= now) {
        await store.verifications.settleGroup(current.groupId, 'expired', now);
        return answer(false, 'expired', current.channel, current.attempts);
      }
      return answer(false, current.status, current.channel, current.attempts);
    };

    if (!counted) return settled();
    const match = counted.rows.find((r) => r.id === outcome.winnerId);
    if (match) {
      if (outcome.consumed) {
        if (match.channel !== 'EMAIL' && match.country)
          await this.deps.limits.countCountryVerified(limitScope(key), match.country, request.createdAt);
        this.deps.logger.info(
          { requestId, channel: match.channel, attempts: counted.attempts },
          'code verified',
        );
        return answer(true, 'verified', match.channel, counted.attempts);
      }
      return settled();
    }

    await this.deps.limits.recordFailure(limitScope(key), request.destination, s);
    // The last wrong guess failed the group in the statement that counted it.
    if (counted.attempts >= counted.maxAttempts)
      return answer(false, 'failed', request.channel, counted.attempts);
    return answer(false, 'pending', request.channel, counted.attempts);
  }
}

/** Every channel: a key enabled for all of them needs no look at the request before verifying. */
const ALL_CHANNELS: readonly Channel[] = ['EMAIL', 'SMS', 'WHATSAPP'];

const limitScope = (key: AuthenticatedKey): string => accountLimitScope(key.accountId, key.mode);

const unavailableMessage = (channel: Channel) => `no provider is configured for ${channel}`;

/** The codes a send stored, and what delivering them takes. */
interface IssuedSend {
  ids: string[];
  expiresAt: number;
  deliveries: DeliveryRequest[];
  /** How each target is delivered: the outbox took it already, or a provider delivers it now. */
  plans: DeliveryPlan[];
}

/** The entry of a dual send's channel that was refused as unavailable: no request was created for it. */
function unavailableEntry(t: SendTarget, request: SendRequest, expiresAt: Date, now: number): SendEntry {
  return {
    // A well-formed id that names nothing: verify with the other entry's requestId.
    requestId: timeOrderedUuid(now),
    channel: t.channel,
    status: 'undelivered',
    expiresAt: expiresAt.toISOString(),
    to: maskDestination(t.channel, t.destination),
    ...(t.channel === 'WHATSAPP' ? { deliveryType: request.deliveryType } : {}),
    error: { code: 'CHANNEL_UNAVAILABLE', message: `Not sent: ${unavailableMessage(t.channel)}.` },
  };
}
const NO_COUNTS: WindowCounts = { sent: 0, verified: 0 };

const notFound = () =>
  new DomainError('NOT_FOUND', 'No verification request with this requestId exists for this account.');

/**
 * The outbox is searched by canonical mailbox (email) or subscriber number; accept what a person would
 * type: any way of writing an address finds the messages of its mailbox.
 */
export function outboxDestination(to: string): string {
  const value = to.trim();
  if (value.includes('@')) return canonicalMailbox(value) ?? value.toLowerCase();
  const phone = checkPhone(value.startsWith('+') ? value : `+${value.replace(/^00/, '')}`);
  return phone.ok ? phone.subscriber : value;
}
