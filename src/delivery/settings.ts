import { type TSchema, Type } from '@sinclair/typebox';
import type { LiveOutbox } from './interface.js';
import {
  PROVIDERS,
  type ProviderList,
  providerSettings,
  settingsOf,
  smsProviderNames,
} from './providers/registry.js';
import { incompleteProviders, type SettingsValues } from './providers/settings.js';
import { parseSmsRoutes } from './routing.js';

/** SMS_ROUTES, its example and its default named from the SMS providers of `providers`. */
function smsRoutesSetting(providers: ProviderList) {
  const names = smsProviderNames(providers);
  const [a = 'provider', b = a] = names;
  return Type.Optional(
    Type.Union([Type.String({ minLength: 1 }), Type.Record(Type.String(), Type.Array(Type.String()))], {
      env: 'SMS_ROUTES',
      description: `SMS providers per destination country, tried in order: \`US=${a},${b};GB=${b},${a};*=${a}\`. Default: every configured SMS provider (${names.join(', ')}).`,
    }),
  );
}

/** Delivery settings shared by the providers: routing, breaker, public URL, branding. */
const commonSettings = (providers: ProviderList) => ({
  smsRoutes: smsRoutesSetting(providers),
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
        'Public URL of this service (no trailing slash). Sends then ask providers to post delivery status to `<PUBLIC_BASE_URL>/v1/callbacks/<provider>`, and signatures over the URL a provider called are checked against it.',
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

/** The SMS providers whose required settings are all present, in the order of `providers`. */
export function configuredSmsProviders(
  config: DeliveryConfig,
  providers: ProviderList = PROVIDERS,
): string[] {
  const context = { publicBaseUrl: null, webOtpDomain: undefined };
  return providers.filter((p) => p.channel === 'SMS' && p.configured(config, context)).map((p) => p.name);
}

/** Cross-setting mistakes of the delivery configuration, each naming its variable. */
export function deliveryConfigProblems(
  settings: Record<string, TSchema>,
  config: DeliveryConfig,
  providers: ProviderList = PROVIDERS,
  /** Settings another feature uses as well (see incompleteProviders). */
  shared?: ReadonlySet<string>,
): string[] {
  const problems = incompleteProviders(settings, config as unknown as Record<string, unknown>, shared);
  if (problems.length > 0) return problems;
  const configured = configuredSmsProviders(config, providers);
  if (config.smsRoutes !== undefined && configured.length === 0) {
    const titles = providers.filter((p) => p.channel === 'SMS').map((p) => p.title);
    return [`SMS_ROUTES: set, but no SMS provider (${titles.join(', ')}) is configured`];
  }
  return parseSmsRoutes(config.smsRoutes, { known: smsProviderNames(providers), configured }).problems;
}
