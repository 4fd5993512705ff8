import { type TSchema, Type } from '@sinclair/typebox';
import { ROUTED_CHANNELS, type RoutedChannel } from '../domain/channels/registry.js';
import type { LiveOutbox } from './interface.js';
import type { ProviderModule } from './providers/module.js';
import {
  PROVIDERS,
  type ProviderList,
  providerNames,
  providerSettings,
  settingsOf,
} from './providers/registry.js';
import { incompleteProviders, type SettingsValues } from './providers/settings.js';
import { parseRoutes, type RoutesValue, routesKey, routesVariable } from './routing.js';

/** A channel's `<CHANNEL>_ROUTES`, its example and its default named from its providers in `providers`. */
function routesSetting(channel: RoutedChannel, providers: ProviderList) {
  const names = providerNames(providers, channel);
  const [a = 'provider', b = a] = names;
  return Type.Optional(
    Type.Union([Type.String({ minLength: 1 }), Type.Record(Type.String(), Type.Array(Type.String()))], {
      env: routesVariable(channel),
      description: `${channel} providers per destination country, tried in order: \`US=${a},${b};GB=${b},${a};*=${a}\`. Default: every configured ${channel} provider (${names.join(', ')}).`,
    }),
  );
}

type RoutesSettings = {
  [C in RoutedChannel as `${Lowercase<C>}Routes`]: ReturnType<typeof routesSetting>;
};

/** The routes setting of every channel routed per country (ChannelSpec.routedByCountry). */
const routesSettings = (providers: ProviderList): RoutesSettings =>
  Object.fromEntries(
    ROUTED_CHANNELS.map((c) => [routesKey(c), routesSetting(c, providers)]),
  ) as RoutesSettings;

/**
 * SILENT_PROVIDER: which of the SILENT channel's providers carries it, by the `choice` each one
 * declares (their folders name their vendors; this names none).
 */
function silentProviderSetting(providers: ProviderList) {
  const chosen = providers.filter((p) => p.channel === 'SILENT' && p.choice);
  return Type.Optional(
    Type.Union(
      chosen.map((p) => Type.Literal(p.choice as string)),
      {
        env: 'SILENT_PROVIDER',
        description: `The provider of the SILENT channel (silent network authentication): ${chosen
          .map((p) => `\`${p.choice}\` (${p.title}: ${p.setup ?? 'its settings'})`)
          .join(
            ', or ',
          )}. Unset: SILENT requests of live keys go to the outbox, or are refused under LIVE_OUTBOX=refuse (docs/silent.md).`,
      },
    ),
  );
}

/** Whether `module` may be built: a provider chosen by a setting only when that setting names it. */
export const mayBuild = (module: ProviderModule, config: { silentProvider?: string }): boolean =>
  module.choice === undefined || config.silentProvider === module.choice;

/** Delivery settings shared by the providers: routing, breaker, public URL, branding. */
const commonSettings = (providers: ProviderList) => ({
  ...routesSettings(providers),
  silentProvider: silentProviderSetting(providers),
  smsWebOtpDomain: Type.Optional(
    Type.String({
      env: 'SMS_WEBOTP_DOMAIN',
      pattern: '^[A-Za-z0-9.-]+(:[0-9]+)?$',
      description:
        "Adds the WebOTP line `@<domain> #<code>` to SMS so browsers autofill the code on that site (docs/one-tap.md); an account's own `webOtpHost` wins over it.",
    }),
  ),
  publicBaseUrl: Type.Optional(
    Type.String({
      env: 'PUBLIC_BASE_URL',
      pattern: '^https?://[^\\s]+[^/\\s]$',
      description:
        'Public URL of this service (no trailing slash). Sends then ask providers to post delivery status to `<PUBLIC_BASE_URL>/v1/callbacks/<provider>`, and signatures over the URL a provider called are checked against it. Magic links point to `<PUBLIC_BASE_URL>/v1/links/<token>`: without it send-code refuses `link` (docs/links.md).',
    }),
  ),
  brandName: Type.Optional(
    Type.String({
      env: 'BRAND_NAME',
      minLength: 1,
      maxLength: 60,
      description: 'Deployment default brand name in messages ("Contact Verify"); accounts may override it.',
    }),
  ),
  circuitBreakerFailures: Type.Integer({
    env: 'CIRCUIT_BREAKER_FAILURES',
    default: 5,
    minimum: 1,
    maximum: 1000,
    description: 'Consecutive retryable failures after which a provider is skipped (and shown down).',
  }),
  circuitBreakerCooldownSeconds: Type.Integer({
    env: 'CIRCUIT_BREAKER_COOLDOWN_SECONDS',
    default: 30,
    minimum: 1,
    maximum: 3600,
    description: 'How long a provider is skipped once its circuit opened; then one request tries it again.',
  }),
  providerCheckIntervalSeconds: Type.Integer({
    env: 'PROVIDER_CHECK_INTERVAL_SECONDS',
    default: 60,
    minimum: 1,
    maximum: 86400,
    description: 'How long /health reuses a provider check (an authenticated read that sends nothing).',
  }),
});

/** Every delivery setting of the registry's providers, spread into the config schema. */
export const deliverySettings = {
  ...commonSettings(PROVIDERS),
  ...providerSettings,
};

/** Every delivery setting of `providers` (a list that adds to the registry). */
export const deliverySettingsOf = (providers: ProviderList): Record<string, TSchema> => ({
  ...commonSettings(providers),
  ...settingsOf(providers),
});

/** The delivery part of the parsed configuration. */
type DeliveryConfig = SettingsValues<typeof deliverySettings>;

/**
 * What building the delivery layer reads of the configuration: its own settings and LIVE_OUTBOX.
 * The configuration assembles it (it depends on delivery, not the other way round).
 */
export type DeliverySettings = DeliveryConfig & { liveOutbox: LiveOutbox };

/** A delivery configuration that cannot work, with a message that names the variable at fault. */
export class DeliverySettingsError extends Error {}

/** The providers of `channel` whose required settings are all present, in the order of `providers`. */
export function configuredProviders(
  config: DeliveryConfig,
  channel: RoutedChannel,
  providers: ProviderList = PROVIDERS,
): string[] {
  const context = { publicBaseUrl: config.publicBaseUrl ?? null, webOtpDomain: undefined };
  return providers.filter((p) => p.channel === channel && p.configured(config, context)).map((p) => p.name);
}

/** A routed channel's routes as the configuration holds them. */
export const routesValue = (config: DeliveryConfig, channel: RoutedChannel): RoutesValue =>
  (config as unknown as Record<string, RoutesValue>)[routesKey(channel)];

/** Cross-setting mistakes of the delivery configuration, each naming its variable. */
export function deliveryConfigProblems(
  settings: Record<string, TSchema>,
  config: DeliveryConfig,
  providers: ProviderList = PROVIDERS,
  /** Settings another feature uses as well (see incompleteProviders). */
  shared?: ReadonlySet<string>,
): string[] {
  const context = { publicBaseUrl: config.publicBaseUrl ?? null, webOtpDomain: config.smsWebOtpDomain };
  // A vendor's account settings serve each of its products: those a configured provider uses
  // (an account's credentials, for its voice calls alone) make no other provider partly configured.
  const used = providers.filter((p) => p.configured(config, context)).flatMap((p) => Object.keys(p.settings));
  const problems = incompleteProviders(
    settings,
    config as unknown as Record<string, unknown>,
    new Set([...(shared ?? []), ...used]),
  );
  // A provider's own mistakes say more than the half-configured provider they may leave behind.
  const own = providers.flatMap((p) => p.problems?.(config, context) ?? []);
  for (const p of providers)
    if (p.choice !== undefined && config.silentProvider === p.choice && !p.configured(config, context))
      own.push(`SILENT_PROVIDER=${p.choice}: ${p.title} needs ${p.setup ?? 'its settings'}`);
  if (problems.length > 0 || own.length > 0) return [...own, ...problems];
  return ROUTED_CHANNELS.flatMap((channel) => {
    const value = routesValue(config, channel);
    const configured = configuredProviders(config, channel, providers);
    if (value !== undefined && configured.length === 0) {
      const titles = providers.filter((p) => p.channel === channel).map((p) => p.title);
      return [
        `${routesVariable(channel)}: set, but no ${channel} provider (${titles.join(', ')}) is configured`,
      ];
    }
    return parseRoutes(channel, value, { known: providerNames(providers, channel), configured }).problems;
  });
}
