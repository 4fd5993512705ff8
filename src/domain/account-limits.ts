import { COUNTRY_WINDOW_CHANNELS } from './channels/registry.js';
import type { NumberIntelligenceOverrides } from './number-intelligence-settings.js';

/**
 * The numbers a deployment sets for every account and an account may override, described once:
 * the configuration's variables (src/config/schema.ts), the admin API's settings PATCH
 * (src/http/routes/admin.ts) and the types below are all derived from this table.
 */
export const ACCOUNT_LIMITS = {
  codeLength: {
    env: 'CODE_LENGTH',
    default: 6,
    min: 4,
    max: 10,
    description: 'Digits in a code (accounts may override).',
  },
  codeTtlSeconds: {
    env: 'CODE_TTL_SECONDS',
    default: 600,
    min: 60,
    max: 1800,
    description: 'Lifetime of a code (accounts may override).',
  },
  maxAttempts: {
    env: 'MAX_ATTEMPTS',
    default: 5,
    min: 1,
    max: 20,
    description: 'Checks allowed per verification request or dual pair.',
  },
  resendCooldownSeconds: {
    env: 'RESEND_COOLDOWN_SECONDS',
    default: 30,
    min: 0,
    max: 3600,
    description: 'Wait between two sends to one destination and channel.',
  },
  sendsPerDestinationPerHour: {
    env: 'SENDS_PER_DESTINATION_PER_HOUR',
    default: 5,
    min: 1,
    max: 1000,
    description: 'Sends per destination and channel per hour.',
  },
  failuresPerDestinationPerDay: {
    env: 'FAILURES_PER_DESTINATION_PER_DAY',
    default: 20,
    min: 1,
    max: 10000,
    description: 'Wrong codes per destination per 24 h, past which sends to it are refused.',
  },
  keySendPerSecond: {
    env: 'KEY_SEND_PER_SECOND',
    default: 100,
    min: 1,
    max: 1_000_000,
    description: 'send-code requests per API key per second.',
  },
  keyVerifyPerSecond: {
    env: 'KEY_VERIFY_PER_SECOND',
    default: 500,
    min: 1,
    max: 1_000_000,
    description: 'verify-code requests per API key per second.',
  },
  countrySendsPerHour: {
    env: 'COUNTRY_SENDS_PER_HOUR',
    default: 1000,
    min: 1,
    max: 100_000_000,
    description: `${COUNTRY_WINDOW_CHANNELS} sends per account and destination country per hour.`,
  },
} as const satisfies Record<
  string,
  { env: string; default: number; min: number; max: number; description: string }
>;

export type AccountLimitName = keyof typeof ACCOUNT_LIMITS;
/** Every limit, as a deployment sets it. */
export type AccountLimits = { [K in AccountLimitName]: number };
/** The limits an account overrides. */
export type AccountLimitOverrides = { [K in AccountLimitName]?: number };

/** Settings only an account sets (no deployment variable); absent or null means the default. */
export const ACCOUNT_ONLY_SETTINGS = {
  riskThreshold: {
    default: null,
    min: 1,
    max: 100,
    integer: true,
    description: 'Refuse sends scoring this risk (0–100) or more with RISK_TOO_HIGH; null: off.',
  },
  pumpingMinSends: {
    default: 50,
    min: 1,
    max: 1_000_000,
    integer: true,
    description:
      'SMS-pumping breaker: it trips on at least this many SMS/WhatsApp sends to a country in an hour …',
  },
  pumpingMinConversion: {
    default: 0.2,
    min: 0,
    max: 1,
    integer: false,
    description: '… converting below this share (0–1).',
  },
} as const satisfies Record<
  string,
  { default: number | null; min: number; max: number; integer: boolean; description: string }
>;

type AccountOnly = typeof ACCOUNT_ONLY_SETTINGS;
/** The account-only settings in effect (their defaults, or the account's values). */
export type AccountOnlyValues = {
  [K in keyof AccountOnly]: AccountOnly[K]['default'] extends null ? number | null : number;
};
/** What an account holds of them: the numbers above, and number intelligence's (its own table). */
export type AccountOnlyOverrides = { [K in keyof AccountOnly]?: number } & NumberIntelligenceOverrides;

/** The defaults of the account-only settings. */
export const accountOnlyDefaults = (): AccountOnlyValues =>
  Object.fromEntries(
    Object.entries(ACCOUNT_ONLY_SETTINGS).map(([name, s]) => [name, s.default]),
  ) as AccountOnlyValues;
