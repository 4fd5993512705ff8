import { isSilentChannel } from '../domain/channels/registry.js';
import { type Clock, systemClock } from '../domain/clock.js';
import {
  type SilentCheck,
  type SilentOutcome,
  testSilentOutcome,
  testSilentStartFailure,
  testSilentUrl,
} from '../domain/silent.js';
import { CHANNELS, type Channel, type DeliveryType, type Mode } from '../domain/types.js';
import { type BreakerPolicy, CircuitBreaker } from './circuit-breaker.js';
import type {
  ChannelProvider,
  Delivery,
  DeliveryPlan,
  DeliveryRequest,
  DeliveryResult,
  LiveCodes,
  LiveOutbox,
  LiveRouting,
  OutboxChannel,
  ProviderState,
  SendOutcome,
} from './interface.js';
import { routedType, servedTypes } from './routing.js';

/**
 * Picks the ordered providers that may carry one request (a channel routed per country by its
 * country, another by its delivery type). An empty list means the channel has no provider for it: the outbox takes it.
 */
export type ProviderRoute = (request: Pick<DeliveryRequest, 'country' | 'deliveryType'>) => ChannelProvider[];

export interface DispatcherOptions {
  clock?: Clock;
  breaker?: BreakerPolicy;
  /** How long a provider's check() result is reused by /health. */
  checkIntervalMs?: number;
  /** Whether live codes on a channel with no provider may go to the outbox (default allow). */
  liveOutbox?: LiveOutbox;
}

/** Shared: a plan for a provider carries nothing of its request. */
const VIA_PROVIDER: DeliveryPlan = Object.freeze({ via: 'provider' });

/**
 * Routes each message to its channel's providers in order and fails over to the next one on a
 * retryable failure; a permanent refusal of the destination stops the attempt. A provider whose
 * circuit is open is skipped. Test keys use the outbox; so do live codes on a channel without
 * providers, unless LIVE_OUTBOX=refuse (then available() says no and the service refuses the send).
 */
export class Dispatcher implements Delivery {
  private readonly clock: Clock;
  private readonly breakers = new Map<ChannelProvider, CircuitBreaker>();
  private readonly checks = new Map<ChannelProvider, { state: ProviderState; at: number }>();
  private readonly checkIntervalMs: number;
  private readonly liveOutbox: LiveOutbox;

  constructor(
    private readonly outbox: OutboxChannel,
    private readonly routes: Partial<Record<Channel, ProviderRoute>>,
    /** Every configured provider, for /health. */
    private readonly providers: ChannelProvider[] = [],
    options: DispatcherOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.checkIntervalMs = options.checkIntervalMs ?? 60_000;
    this.liveOutbox = options.liveOutbox ?? 'allow';
    const policy = options.breaker ?? { failures: 5, cooldownMs: 30_000 };
    for (const p of providers) this.breakers.set(p, new CircuitBreaker(policy, this.clock));
  }

  private candidates(channel: Channel, deliveryType: DeliveryType, country: string | null) {
    return this.routes[channel]?.({ country, deliveryType: routedType(channel, deliveryType) }) ?? [];
  }

  private routed(channel: Channel, deliveryType: DeliveryType): boolean {
    return this.candidates(channel, deliveryType, null).length > 0;
  }

  plan(request: DeliveryRequest, mode: Mode): DeliveryPlan {
    if (
      mode === 'live' &&
      (this.liveOutbox === 'refuse' || this.routed(request.channel, request.deliveryType))
    )
      // Under LIVE_OUTBOX=refuse the service asks available() first; a live code with no provider
      // that comes here anyway is refused by deliver(), not parked.
      return VIA_PROVIDER;
    const { content, providerMessageId } = this.outbox.prepare(request);
    return { via: 'outbox', content, result: this.outboxResult(providerMessageId, request) };
  }

  async checkSilent(check: SilentCheck, mode: Mode): Promise<SilentOutcome> {
    if (mode === 'test' || check.provider === this.outbox.name)
      return testSilentOutcome(check.to, check.code);
    const provider = this.providers.find((p) => p.name === check.provider && p.checkSilent);
    if (!provider?.checkSilent)
      return { kind: 'unavailable', reason: `the provider ${check.provider ?? '(none)'} is not configured` };
    const breaker = this.breakers.get(provider);
    try {
      const outcome = await provider.checkSilent(check);
      if (outcome.kind === 'unavailable') breaker?.failure();
      else breaker?.success();
      return outcome;
    } catch (err) {
      breaker?.failure();
      return { kind: 'unavailable', reason: `${provider.name} failed: ${(err as Error)?.name ?? 'error'}` };
    }
  }

  available(channel: Channel, mode: Mode, deliveryType: DeliveryType = 'TEXT'): boolean {
    return mode === 'test' || this.liveOutbox === 'allow' || this.routed(channel, deliveryType);
  }

  liveRouting(): Record<Channel, LiveRouting> {
    const result = {} as Record<Channel, LiveRouting>;
    for (const channel of CHANNELS) {
      const types = servedTypes(channel);
      const unrouted = types.filter((t) => !this.routed(channel, t));
      const parked: LiveCodes = this.liveOutbox === 'allow' ? 'outbox' : 'refused';
      result[channel] = { liveCodes: unrouted.includes('TEXT') ? parked : 'delivered' };
      if (unrouted.length === 0) continue;
      const which =
        unrouted.length === types.length
          ? `Live ${channel} codes`
          : `Live ${channel} codes with deliveryType ${unrouted.join(' and ')}`;
      result[channel].note =
        parked === 'outbox'
          ? `${which} go to the outbox and are not delivered: no provider is configured (LIVE_OUTBOX=allow).`
          : `${which} are refused with 503 CHANNEL_UNAVAILABLE: no provider is configured (LIVE_OUTBOX=refuse). Test keys use the outbox.`;
    }
    return result;
  }

  /** What the outbox's delivery is: a SILENT request also gets its test URL, or its test number's failure. */
  private outboxResult(providerMessageId: string, request: DeliveryRequest): DeliveryResult {
    if (!isSilentChannel(request.channel))
      return { ok: true, provider: this.outbox.name, providerMessageId, outbox: true };
    const failure = testSilentStartFailure(request.to);
    if (failure) return { ok: false, permanent: false, error: failure, provider: this.outbox.name };
    return {
      ok: true,
      provider: this.outbox.name,
      providerMessageId,
      outbox: true,
      silentUrl: testSilentUrl(request.verificationId),
    };
  }

  async deliver(request: DeliveryRequest, mode: Mode): Promise<DeliveryResult> {
    const test = mode === 'test';
    const route = test ? [] : this.candidates(request.channel, request.deliveryType, request.country);
    if (route.length === 0 && !test && this.liveOutbox === 'refuse') {
      // The service asks available() before storing anything; a live code never lands here, but
      // should one, it is not parked.
      return { ok: false, permanent: false, error: 'no provider is configured', provider: null };
    }
    if (route.length === 0) return this.viaOutbox(request);
    let lastError = 'every provider of this route is cooling off after repeated failures; retry shortly';
    let lastProvider: string | null = null;
    for (const provider of route) {
      const breaker = this.breakers.get(provider);
      if (breaker && !breaker.allows()) continue;
      const outcome = await safeSend(provider, request);
      if (outcome.ok) {
        breaker?.success();
        // A delivery is the freshest check there is.
        this.checks.set(provider, { state: 'up', at: this.clock.now() });
        return {
          ok: true,
          provider: provider.name,
          providerMessageId: outcome.providerMessageId,
          outbox: false,
          ...(outcome.accepted ? { accepted: outcome.accepted } : {}),
          ...(outcome.recorded ? { recorded: outcome.recorded } : {}),
          ...(outcome.silentUrl ? { silentUrl: outcome.silentUrl } : {}),
        };
      }
      if (!outcome.retryable) {
        // The provider works; it is the destination that was refused.
        breaker?.success();
        return { ok: false, permanent: true, error: outcome.error, provider: provider.name };
      }
      breaker?.failure();
      lastError = outcome.error;
      lastProvider = provider.name;
    }
    return { ok: false, permanent: false, error: lastError, provider: lastProvider };
  }

  private async viaOutbox(request: DeliveryRequest): Promise<DeliveryResult> {
    const outcome = await safeSend(this.outbox, request);
    return outcome.ok
      ? this.outboxResult(outcome.providerMessageId, request)
      : { ok: false, permanent: false, error: outcome.error, provider: this.outbox.name };
  }

  /** A provider whose circuit is open is down; otherwise its (cached) check() decides. */
  private async stateOf(provider: ChannelProvider): Promise<ProviderState> {
    if (this.breakers.get(provider)?.isOpen()) return 'down';
    const now = this.clock.now();
    const cached = this.checks.get(provider);
    if (cached && now - cached.at < this.checkIntervalMs) return cached.state;
    const state = await provider.check().catch(() => 'down' as const);
    this.checks.set(provider, { state, at: now });
    return state;
  }

  async health() {
    const [outboxState, ...states] = await Promise.all([
      this.outbox.check(),
      ...this.providers.map((p) => this.stateOf(p)),
    ]);
    const stateOf = new Map(this.providers.map((p, i) => [p, states[i] ?? ('unknown' as const)]));
    const live = this.liveRouting();
    const result = {} as Awaited<ReturnType<Delivery['health']>>;
    for (const channel of CHANNELS) {
      const own = this.providers.filter((p) => p.channels.includes(channel));
      const providers: Array<{ name: string; state: ProviderState; detail?: string }> = own.map((p) => {
        const detail = p.detail?.() ?? null;
        return { name: p.name, state: stateOf.get(p) ?? ('unknown' as const), ...(detail ? { detail } : {}) };
      });
      // A channel with no provider for some delivery type still delivers those to the outbox.
      const outboxServes = servedTypes(channel).some((t) => this.candidates(channel, t, null).length === 0);
      const real = providers.length > 0 ? [...providers] : null;
      if (outboxServes) providers.push({ name: this.outbox.name, state: outboxState });
      // Real providers decide whether a channel works for live traffic; the outbox only when
      // there are none and live codes may be parked in it.
      const operational = real
        ? real.some((p) => p.state !== 'down')
        : this.liveOutbox === 'allow' && providers.some((p) => p.state !== 'down');
      result[channel] = { operational, providers, ...live[channel] };
    }
    return result;
  }
}

/** A provider that throws instead of answering is treated as a retryable failure. */
async function safeSend(provider: ChannelProvider, request: DeliveryRequest): Promise<SendOutcome> {
  try {
    return await provider.send(request);
  } catch (err) {
    return {
      ok: false,
      retryable: true,
      error: `${provider.name} failed: ${(err as Error)?.name ?? 'error'}`,
    };
  }
}
