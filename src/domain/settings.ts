import {
  ACCOUNT_LIMITS,
  type AccountLimitName,
  type AccountLimits,
  type AccountOnlyValues,
  accountOnlyDefaults,
} from './account-limits.js';
import type { AccountSettings, Branding } from './types.js';

/** The settings that govern one account's requests: deployment defaults with its overrides. */
export interface EffectiveSettings extends AccountLimits, AccountOnlyValues {
  /** null: every country. */
  allowedCountries: ReadonlySet<string> | null;
  branding: Branding;
}

export const DEFAULT_BRANDING: Branding = { brandName: 'Contact Verify', color: '#2563eb' };

export function parseCountryList(value: string | string[]): ReadonlySet<string> | null {
  const list = (Array.isArray(value) ? value : value.split(','))
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  return list.length === 0 || list.includes('*') ? null : new Set(list);
}

/** What a deployment sets for every account (the configuration has them by these names). */
export type DeploymentSettings = AccountLimits & { allowedCountries: string | string[] };

/** Deployment defaults, from the configuration. */
export function deploymentDefaults(
  config: DeploymentSettings,
  branding: Branding = DEFAULT_BRANDING,
): EffectiveSettings {
  const limits = Object.fromEntries(
    (Object.keys(ACCOUNT_LIMITS) as AccountLimitName[]).map((name) => [name, config[name]]),
  ) as AccountLimits;
  return {
    ...limits,
    allowedCountries: parseCountryList(config.allowedCountries),
    branding,
    ...accountOnlyDefaults(),
  };
}

/**
 * Merges an account's overrides onto the defaults. An account may narrow the deployment's country
 * allow-list, never widen it.
 */
export function effectiveSettings(defaults: EffectiveSettings, account: AccountSettings): EffectiveSettings {
  const { allowedCountries, branding, ...numbers } = account;
  const merged: EffectiveSettings = { ...defaults };
  for (const [name, value] of Object.entries(numbers)) {
    if (typeof value === 'number') (merged as unknown as Record<string, unknown>)[name] = value;
  }
  if (allowedCountries) {
    const own = parseCountryList(allowedCountries);
    merged.allowedCountries =
      own === null
        ? defaults.allowedCountries
        : defaults.allowedCountries === null
          ? own
          : new Set([...own].filter((c) => defaults.allowedCountries?.has(c)));
  }
  if (branding) merged.branding = { ...defaults.branding, ...branding };
  return merged;
}
