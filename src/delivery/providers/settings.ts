import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';

/**
 * Provider settings are described as data: each carries the provider it belongs to and whether
 * that provider needs it. One description drives config validation, secret masking, the
 * partial-configuration check and the settings table.
 */
export interface ProviderSettingSchema extends TSchema {
  env: string;
  provider: string;
  providerRequired?: boolean;
  secret?: boolean;
  default?: unknown;
}

/**
 * The values of a group of settings as the parsed configuration holds them: what a provider's
 * options are read from, without depending on the whole configuration (which includes it).
 */
export type SettingsValues<T extends Record<string, TSchema>> = Static<TObject<T>>;

interface StringSetting {
  env: string;
  description: string;
  /** The provider cannot work without it: setting some but not all of these fails at boot. */
  required?: boolean;
  secret?: boolean;
  pattern?: string;
}

/** An optional string setting of `provider`. */
export const providerString = (provider: string, s: StringSetting) =>
  Type.Optional(
    Type.String({
      env: s.env,
      description: s.description,
      secret: Boolean(s.secret),
      minLength: 1,
      provider,
      providerRequired: Boolean(s.required),
      ...(s.pattern ? { pattern: s.pattern } : {}),
    }),
  );

/** A string setting of `provider` with a default (base URLs, API versions, languages). */
export const providerDefault = (provider: string, env: string, value: string, description: string) =>
  Type.String({ env, default: value, description, provider, minLength: 1 });

/** A base URL; tests and proxies point it elsewhere. */
export const providerBaseUrl = (provider: string, env: string, value: string, label: string) =>
  Type.String({
    env,
    default: value,
    description: `${label} API base URL.`,
    provider,
    pattern: '^https?://[^\\s]+$',
  });

/** How long one call to `provider` may take before it counts as a retryable failure. */
export const providerTimeout = (provider: string, env: string, value: number, label: string) =>
  Type.Integer({
    env,
    default: value,
    minimum: 50,
    maximum: 120_000,
    description: `Timeout of one ${label} request in milliseconds; a timeout is a retryable failure (the route's next provider is tried).`,
    provider,
  });

/**
 * Names the settings missing from providers that are only partly configured: a provider is
 * configured when all its required settings are present, and setting any of its other settings
 * without them is a mistake worth failing the boot for.
 */
export function incompleteProviders(
  settings: Record<string, TSchema>,
  values: Record<string, unknown>,
  /** Settings another feature uses as well (a lookup provider's credentials): they show no intent. */
  shared: ReadonlySet<string> = new Set(),
): string[] {
  const groups = new Map<string, Array<[string, ProviderSettingSchema]>>();
  for (const [key, schema] of Object.entries(settings)) {
    const provider = (schema as Partial<ProviderSettingSchema>).provider;
    if (!provider) continue;
    groups.set(provider, [...(groups.get(provider) ?? []), [key, schema as ProviderSettingSchema]]);
  }
  const problems: string[] = [];
  for (const [provider, members] of groups) {
    const required = members.filter(([, s]) => s.providerRequired);
    if (required.length === 0) continue;
    // Settings with a default (base URLs, timeouts) say nothing about intent, nor do shared ones;
    // the others do.
    const own = members.filter(([k, s]) => s.default === undefined && !shared.has(k));
    const given = own.filter(([k]) => values[k] !== undefined).map(([, s]) => s.env);
    const missing = required.filter(([k]) => values[k] === undefined).map(([, s]) => s.env);
    if (given.length > 0 && missing.length > 0) {
      for (const env of missing) {
        problems.push(
          `${env}: required by ${provider}, which is partly configured (${given.join(', ')} set); set ${missing.join(', ')} or unset the others`,
        );
      }
    }
  }
  return problems;
}
