import {
  ACCOUNT_LIMITS,
  ACCOUNT_ONLY_SETTINGS,
  type AccountLimitName,
  type AccountLimits,
  type AccountOnlyValues,
  accountOnlyDefaults,
} from './account-limits.js';
import { LINK_SETTINGS, type LinkSettings, linkRedirectOriginsOf } from './link-settings.js';
import { MESSAGE_SETTINGS, type MessageSettingName, type MessageSettings } from './message-settings.js';
import type { NumberIntelligenceSettings } from './number-facts.js';
import {
  NUMBER_INTELLIGENCE_SETTING_NAMES,
  NUMBER_INTELLIGENCE_SETTINGS,
  type NumberIntelligenceSettingName,
  numberIntelligenceDefaults,
  numberIntelligenceOf,
  ownNumberIntelligenceValue,
} from './number-intelligence-settings.js';
import type { AccountSettings, Branding } from './types.js';

/** The settings that govern one account's requests: deployment defaults with its overrides. */
export interface EffectiveSettings
  extends AccountLimits,
    AccountOnlyValues,
    NumberIntelligenceSettings,
    MessageSettings,
    LinkSettings {
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
export type DeploymentSettings = AccountLimits & {
  allowedCountries: string | string[];
  /** SMS_WEBOTP_DOMAIN: the WebOTP host of accounts that set no `webOtpHost`. */
  smsWebOtpDomain?: string;
};

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
    ...numberIntelligenceDefaults(),
    locale: null,
    webOtpHost: config.smsWebOtpDomain ?? null,
    appHash: null,
    linkRedirectOrigins: [],
  };
}

const MESSAGE_SETTING_NAMES = Object.keys(MESSAGE_SETTINGS) as MessageSettingName[];

/**
 * Merges an account's overrides onto the defaults. An account may narrow the deployment's country
 * allow-list, never widen it.
 */
export function effectiveSettings(defaults: EffectiveSettings, account: AccountSettings): EffectiveSettings {
  const { allowedCountries, branding, linkRedirectOrigins, ...numbers } = account;
  const merged: EffectiveSettings = { ...defaults };
  for (const [name, value] of Object.entries(numbers)) {
    if (typeof value === 'number') (merged as unknown as Record<string, unknown>)[name] = value;
  }
  // Number intelligence has no deployment variable: the account's valid values, else the defaults.
  Object.assign(merged, numberIntelligenceOf(account as Record<string, unknown>));
  for (const name of MESSAGE_SETTING_NAMES) {
    const value = account[name];
    if (typeof value === 'string') (merged as unknown as Record<string, unknown>)[name] = value;
  }
  const origins = linkRedirectOriginsOf(linkRedirectOrigins);
  if (origins !== undefined) merged.linkRedirectOrigins = origins;
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

/** Where a value in force comes from: the built-in default, the deployment's setting, or the account. */
export type SettingSource = 'default' | 'environment' | 'account';

/** One per-account setting as it holds for an account. */
export interface SettingInForce {
  name: string;
  value: number | null;
  source: SettingSource;
  /** What an account without an override gets: the deployment's setting, or the built-in default. */
  deployment: number | null;
  default: number | null;
  /** The deployment's variable; null for a setting only an account sets. */
  env: string | null;
  min: number;
  max: number;
  description: string;
}

/** One number-intelligence setting (number-intelligence-settings.ts) as it holds for an account. */
export interface NumberIntelligenceSettingInForce {
  name: NumberIntelligenceSettingName;
  value: string | number | boolean | readonly string[] | null;
  /** `default` or `account`: none has a deployment variable. */
  source: SettingSource;
  default: string | number | boolean | readonly string[] | null;
  /** The values it (or each item of a list) may take; null for a number or a boolean. */
  allowed: readonly string[] | null;
  min: number | null;
  max: number | null;
  description: string;
}

/** One message setting (src/domain/message-settings.ts) as it holds for an account. */
export interface MessageSettingInForce {
  name: MessageSettingName;
  /** In force; null: none. */
  value: string | null;
  source: SettingSource;
  /** What an account without its own value gets. */
  deployment: string | null;
  env: string | null;
  /** The values it may take, when they are a list. */
  allowed: readonly string[] | null;
  description: string;
}

/** The magic links' setting (src/domain/link-settings.ts) as it holds for an account. */
export interface LinkSettingInForce {
  name: keyof typeof LINK_SETTINGS;
  value: readonly string[];
  /** `default` or `account`: it has no deployment variable. */
  source: SettingSource;
  default: readonly string[];
  description: string;
}

export interface SettingsInForce {
  limits: SettingInForce[];
  /** Lookups, their refusals and SILENT's timeout. */
  numberIntelligence: NumberIntelligenceSettingInForce[];
  /** The default locale and the SMS one-tap lines. */
  messages: MessageSettingInForce[];
  /** Where magic links may redirect. */
  links: LinkSettingInForce[];
  /** null: every country. */
  allowedCountries: { value: string[] | null; source: SettingSource; deployment: string[] | null };
}

const sortedList = (set: ReadonlySet<string> | null) => (set === null ? null : [...set].sort());

/**
 * Each setting an account may override, with the value its requests use and where that comes
 * from; `given` names the settings the deployment set (the others hold their built-in defaults).
 */
export function settingsInForce(
  defaults: EffectiveSettings,
  given: ReadonlySet<string>,
  account: AccountSettings,
): SettingsInForce {
  const inForce = effectiveSettings(defaults, account);
  const own = account as Record<string, unknown>;
  const limits: SettingInForce[] = [];
  for (const [name, l] of Object.entries(ACCOUNT_LIMITS)) {
    const key = name as AccountLimitName;
    const source = typeof own[name] === 'number' ? 'account' : given.has(name) ? 'environment' : 'default';
    limits.push({
      name,
      value: inForce[key],
      source,
      deployment: defaults[key],
      default: l.default,
      env: l.env,
      min: l.min,
      max: l.max,
      description: l.description,
    });
  }
  for (const [name, s] of Object.entries(ACCOUNT_ONLY_SETTINGS)) {
    const key = name as keyof AccountOnlyValues;
    const source = typeof own[name] === 'number' ? 'account' : 'default';
    limits.push({
      name,
      value: inForce[key],
      source,
      deployment: s.default,
      default: s.default,
      env: null,
      min: s.min,
      max: s.max,
      description: s.description,
    });
  }
  const numberIntelligence = NUMBER_INTELLIGENCE_SETTING_NAMES.map(
    (name): NumberIntelligenceSettingInForce => {
      const s = NUMBER_INTELLIGENCE_SETTINGS[name];
      return {
        name,
        value: inForce[name],
        source: ownNumberIntelligenceValue(name, own[name]) === undefined ? 'default' : 'account',
        default: s.default,
        allowed: 'values' in s ? s.values : null,
        min: 'min' in s ? s.min : null,
        max: 'max' in s ? s.max : null,
        description: s.description,
      };
    },
  );
  const messages = MESSAGE_SETTING_NAMES.map((name): MessageSettingInForce => {
    const s = MESSAGE_SETTINGS[name];
    const deployed = s.deployment !== null && given.has(s.deployment);
    return {
      name,
      value: inForce[name],
      source: typeof own[name] === 'string' ? 'account' : deployed ? 'environment' : 'default',
      deployment: defaults[name],
      env: s.env,
      allowed: s.enum,
      description: s.description,
    };
  });
  const narrowed = account.allowedCountries && parseCountryList(account.allowedCountries) !== null;
  const links: LinkSettingInForce[] = [
    {
      name: 'linkRedirectOrigins',
      value: inForce.linkRedirectOrigins,
      source: Array.isArray(own.linkRedirectOrigins) ? 'account' : 'default',
      default: [],
      description: LINK_SETTINGS.linkRedirectOrigins.description,
    },
  ];
  return {
    limits,
    numberIntelligence,
    messages,
    links,
    allowedCountries: {
      value: sortedList(inForce.allowedCountries),
      source: narrowed ? 'account' : given.has('allowedCountries') ? 'environment' : 'default',
      deployment: sortedList(defaults.allowedCountries),
    },
  };
}
