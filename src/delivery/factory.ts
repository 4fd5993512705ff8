import { CHANNEL_SPECS } from '../domain/channels/registry.js';
import type { Clock } from '../domain/clock.js';
import type { Channel, DeliveryType } from '../domain/types.js';
import { Dispatcher, type ProviderRoute } from './dispatcher.js';
import type { ChannelProvider, Delivery } from './interface.js';
import type { RenderOptions } from './messages.js';
import { OutboxProvider, type OutboxStore } from './outbox/outbox-provider.js';
import type { ProviderContext, ProviderModule, WhatsAppCallsRuntime } from './providers/module.js';
import { PROVIDERS, type ProviderList, providerNames } from './providers/registry.js';
import { processStateSeal, type StateSeal } from './providers/state-seal.js';
import { parseRoutes, routedType, routedTypes, routeFor } from './routing.js';
import { type DeliverySettings, DeliverySettingsError, mayBuild, routesValue } from './settings.js';

/** Whether `module` serves `channel` (and, when given, that delivery type of the channel). */
const serves = (module: ProviderModule, channel: Channel, deliveryType?: DeliveryType) =>
  module.channel === channel &&
  (deliveryType === undefined || (module.deliveryType ?? 'TEXT') === deliveryType);

/**
 * Configurations that start but probably do not do what their operator meant; logged once at
 * start: a channel of several delivery types configured for one of them, when the registry has
 * providers for another that none is configured for. (Configurations that cannot work are
 * refused instead, see delivery/settings.ts.)
 */
export function deliveryWarnings(config: DeliverySettings, providers: ProviderList = PROVIDERS): string[] {
  const warnings: string[] = [];
  const context: ProviderContext = { publicBaseUrl: config.publicBaseUrl ?? null, webOtpDomain: undefined };
  const configured = (m: ProviderModule) => m.configured(config, context);
  for (const { name: channel, deliveryTypes } of CHANNEL_SPECS) {
    for (const type of deliveryTypes) {
      const serving = providers.filter((m) => serves(m, channel, type));
      const others = deliveryTypes.filter((t) => t !== type);
      if (
        serving.length === 0 ||
        serving.some(configured) ||
        !providers.some((m) => others.some((t) => serves(m, channel, t)) && configured(m))
      )
        continue;
      const how = serving.map((m) => m.setup ?? m.title).join('; or ');
      warnings.push(
        `${channel} is configured but ${type} has no provider (${how}): live requests with deliveryType ${type} ${
          config.liveOutbox === 'allow'
            ? 'go to the outbox and are not delivered'
            : 'are refused with 503 CHANNEL_UNAVAILABLE'
        }.`,
      );
    }
  }
  return warnings;
}

/** What the deployment adds to every rendered message (the outbox's, the preview's, the providers'). */
export function renderOptions(config: DeliverySettings): RenderOptions {
  return { webOtpDomain: config.smsWebOtpDomain, publicBaseUrl: config.publicBaseUrl ?? null };
}

/**
 * Builds the configured providers of `providers` (the registry), once, and the routes between
 * them: a channel routed per country (SMS, VOICE) by its `<CHANNEL>_ROUTES` with failover, by
 * default through every configured provider of the channel in the registry's order; any other
 * channel (and each of its delivery types) through the first provider configured for it. A
 * channel (or delivery type) without a provider uses the outbox.
 */
export function buildDelivery(
  config: DeliverySettings,
  store: OutboxStore,
  clock: Clock,
  providers: ProviderList = PROVIDERS,
  /** What providers seal for their webhooks to open (the callback routes get the same one). */
  seal: StateSeal = processStateSeal(),
  /** The WhatsApp calling flow (compose builds it: it needs the store), when WhatsApp can call. */
  whatsappCalls: WhatsAppCallsRuntime | null = null,
): Delivery {
  const context: ProviderContext = {
    publicBaseUrl: config.publicBaseUrl ?? null,
    webOtpDomain: config.smsWebOtpDomain,
    seal,
    whatsappCalls,
  };
  const built = providers.flatMap((module) => {
    if (!mayBuild(module, config)) return [];
    const provider = module.create(config, context);
    return provider ? [{ module, provider }] : [];
  });

  const problems: string[] = [];
  const routes: Partial<Record<Channel, ProviderRoute>> = {};
  for (const spec of CHANNEL_SPECS) {
    const channel: Channel = spec.name;
    const own = built.filter((b) => b.module.channel === channel);
    if (spec.routedByCountry) {
      // The channel's providers by name, in the registry's order: the default route tries them so.
      // Its routes are checked even when none is configured: they may name one that is not.
      const byName = new Map(own.map((b) => [b.module.name, b.provider]));
      const parsed = parseRoutes(spec.name, routesValue(config, spec.name), {
        known: providerNames(providers, channel),
        configured: [...byName.keys()],
      });
      problems.push(...parsed.problems);
      if (own.length === 0) continue;
      routes[channel] = (r) =>
        routeFor(parsed.routes, r.country)
          .map((name) => byName.get(name))
          .filter((p): p is ChannelProvider => p !== undefined);
    } else if (own.length > 0) {
      const first = new Map(
        routedTypes(channel).map((t) => [t, own.find((b) => serves(b.module, channel, t))?.provider]),
      );
      routes[channel] = (r) => {
        const provider = first.get(routedType(channel, r.deliveryType));
        return provider ? [provider] : [];
      };
    }
  }
  if (problems.length > 0)
    throw new DeliverySettingsError(`Invalid configuration:\n  ${problems.join('\n  ')}`);

  const outbox = new OutboxProvider(store, renderOptions(config));
  return new Dispatcher(
    outbox,
    routes,
    built.map((b) => b.provider),
    {
      clock,
      breaker: {
        failures: config.circuitBreakerFailures,
        cooldownMs: config.circuitBreakerCooldownSeconds * 1000,
      },
      checkIntervalMs: config.providerCheckIntervalSeconds * 1000,
      liveOutbox: config.liveOutbox,
    },
  );
}
