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
    description: 'SMS and WhatsApp sends per account and destination country per hour.',
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
