import { readFileSync } from 'node:fs';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { ProviderList } from '../delivery/providers/registry.js';
import { deliveryConfigProblems, deliverySettings, deliverySettingsOf } from '../delivery/settings.js';
import { ACCOUNT_LIMITS, type AccountLimitName } from '../domain/account-limits.js';
import { PHONE_CHANNEL_TITLES } from '../domain/channels/registry.js';
import { lookupConfigProblems, lookupSettings, sharedWithDelivery } from '../lookup/settings.js';
import { mediaSettings } from '../media/settings.js';
import { webhookSettings } from '../webhooks/settings.js';
import { databaseUrlProblem } from './hints.js';
import { trustProxyProblem } from './trust-proxy.js';

/**
 * Every setting of the service, described once: its environment variable, type, default and
 * meaning. The same description validates the environment at boot, masks secrets and writes the
 * README's settings table (`npm run settings-table`).
 */
const int = (env: string, def: number, min: number, max: number, description: string) =>
  Type.Integer({ env, default: def, minimum: min, maximum: max, description });
const optionalString = (env: string, description: string, secret = false) =>
  Type.Optional(Type.String({ env, description, secret, minLength: 1 }));

/** The per-account limits' variables, from their one description in the domain. */
function accountLimitSettings() {
  const entries = Object.entries(ACCOUNT_LIMITS).map(([name, l]) => [
    name,
    int(l.env, l.default, l.min, l.max, l.description),
  ]);
  return Object.fromEntries(entries) as { [K in AccountLimitName]: ReturnType<typeof int> };
}

export const settings = {
  port: int('PORT', 8080, 0, 65535, 'TCP port the HTTP server listens on.'),
  host: Type.String({
    env: 'HOST',
    default: '127.0.0.1',
    description: 'Address to bind; 0.0.0.0 in containers.',
  }),
  databaseUrl: Type.String({
    env: 'DATABASE_URL',
    default: 'sqlite:./data/verify.db',
    description: '`sqlite:<path>` (embedded default) or `postgres://…` for PostgreSQL.',
  }),
  databasePoolSize: int(
    'DATABASE_POOL_SIZE',
    10,
    1,
    200,
    'PostgreSQL connections per process (each worker has its own pool), besides DATABASE_SEND_POOL_SIZE. Ignored for SQLite.',
  ),
  databaseSendPoolSize: int(
    'DATABASE_SEND_POOL_SIZE',
    4,
    0,
    50,
    "PostgreSQL connections per process for the send's write and the verify's statements, planned once per connection by index (docs/deployment.md). 0 runs them on the main pool, planned at every run: set 0 behind PgBouncer in transaction mode, which would hand these connections' settings to other clients. Ignored for SQLite.",
  ),
  redisUrl: optionalString(
    'REDIS_URL',
    'Redis for rate limits shared by every instance; in-process when unset.',
  ),
  redisKeyPrefix: Type.String({
    env: 'REDIS_KEY_PREFIX',
    default: 'cv',
    minLength: 1,
    description: 'Prefix of every rate-limit key in Redis (lets several deployments share one Redis).',
  }),
  metricsToken: optionalString(
    'METRICS_TOKEN',
    'Bearer token required by GET /metrics. When unset, /metrics is open: keep it off the public load balancer.',
    true,
  ),
  adminToken: Type.Optional(
    Type.String({
      env: 'ADMIN_TOKEN',
      description:
        'Bearer token of the admin API, at least 32 characters. When unset, one is generated on first start, stored (hashed) and printed once.',
      secret: true,
      // A short token can be guessed; the generated one has 256 bits.
      minLength: 32,
    }),
  ),
  adminTokenPrevious: Type.Optional(
    Type.String({
      env: 'ADMIN_TOKEN_PREVIOUS',
      description:
        'The admin token being replaced, still accepted beside ADMIN_TOKEN while a rotation rolls over every instance; remove it once done (docs/operations.md).',
      secret: true,
      minLength: 32,
    }),
  ),
  adminAuthFailuresPerMinute: int(
    'ADMIN_AUTH_FAILURES_PER_MINUTE',
    10,
    1,
    100_000,
    'Wrong admin tokens presented (Authorization header of the admin API, or dashboard sign-in) per client address per minute, past which that address gets 429, even with the right token. Requests without credentials and dashboard sessions are neither counted nor refused.',
  ),
  dashboardSessionMinutes: int(
    'DASHBOARD_SESSION_MINUTES',
    480,
    5,
    10_080,
    'How long a sign-in to the operator dashboard lasts (the session cookie and its stored row); then the operator signs in again.',
  ),
  codeSecret: optionalString(
    'CODE_SECRET',
    'HMAC secret for code hashes; takes precedence over the stored one. Set it in production (kept apart from the database). When unset, one is generated on first start and stored in the database.',
    true,
  ),
  codeSecretPrevious: optionalString(
    'CODE_SECRET_PREVIOUS',
    'The code secret being replaced, during a rotation of CODE_SECRET: codes sent under it still verify until they expire, webhook signing secrets sealed under it are sealed again under CODE_SECRET at start, and dashboard CSRF tokens made with it are still accepted. New codes use CODE_SECRET. Remove it once the longest code lifetime has passed (docs/operations.md): while it is set, every start logs a warning and /health shows `codeSecretRotation`.',
    true,
  ),
  ...accountLimitSettings(),
  allowedCountries: Type.String({
    env: 'ALLOWED_COUNTRIES',
    default: '*',
    description: `Comma-separated ISO codes that ${PHONE_CHANNEL_TITLES} may reach (\`*\`: all). Accounts may narrow it.`,
  }),
  logLevel: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { env: 'LOG_LEVEL', default: 'info', description: 'pino log level.' },
  ),
  trustProxy: Type.String({
    env: 'TRUST_PROXY',
    default: 'false',
    description:
      'Which proxies in front of the service may speak for the client in X-Forwarded-For, -Proto and -Host: their addresses or networks, comma-separated (`10.0.0.0/8`, `loopback`, `uniquelocal`); or their number (`1`: the load balancer only; right only where the service cannot be reached around them); `false`: none. The client is the right-most address no trusted proxy wrote (the admin throttle counts by it). `true` trusts every hop, so the left-most address, which the client writes: avoid it (a warning at start).',
  }),
  requestTimeoutSeconds: int(
    'REQUEST_TIMEOUT_SECONDS',
    30,
    1,
    3600,
    'Time a client has to send a whole request (headers and body); a slower one is cut off with 408.',
  ),
  headersTimeoutSeconds: int(
    'HEADERS_TIMEOUT_SECONDS',
    10,
    1,
    3600,
    'Time a client has to send the request headers.',
  ),
  keepAliveTimeoutSeconds: int(
    'KEEP_ALIVE_TIMEOUT_SECONDS',
    5,
    1,
    3600,
    'How long an idle keep-alive connection stays open; keep it above the load balancer idle timeout behind one.',
  ),
  connectionTimeoutSeconds: int(
    'CONNECTION_TIMEOUT_SECONDS',
    60,
    1,
    3600,
    'A socket with no activity for this long is closed.',
  ),
  tlsTerminated: Type.Boolean({
    env: 'TLS_TERMINATED',
    default: false,
    description: 'Set when clients reach the service over HTTPS (a TLS proxy in front): answers carry HSTS.',
  }),
  hstsMaxAgeSeconds: int(
    'HSTS_MAX_AGE_SECONDS',
    31_536_000,
    0,
    63_072_000,
    'max-age of Strict-Transport-Security when TLS_TERMINATED is set.',
  ),
  workers: int('WORKERS', 1, 1, 64, 'Processes to run with node:cluster (one per core at most).'),
  retentionDays: int(
    'RETENTION_DAYS',
    30,
    1,
    3650,
    'Verification requests and outbox messages older than this are deleted.',
  ),
  sweepIntervalSeconds: int('SWEEP_INTERVAL_SECONDS', 60, 1, 86400, 'How often the retention sweeper runs.'),
  liveOutbox: Type.Union([Type.Literal('allow'), Type.Literal('refuse')], {
    env: 'LIVE_OUTBOX',
    // Filled in by loadConfig: the default depends on NODE_ENV.
    defaultText: '`refuse` with `NODE_ENV=production`, else `allow`',
    description:
      "What a live key's send does on a channel with no provider: `allow` parks the code in the outbox (never delivered; /health and the dashboard say so), `refuse` answers 503 CHANNEL_UNAVAILABLE and stores nothing. Test keys always use the outbox.",
  }),
  // Per database (environmentDefaults). SQLite folds on the request thread: a fold of 250 ms of
  // traffic held the event loop long enough to put send-code's p99 at 30-40 ms; at 50 ms p99 fell
  // under 25 ms for a few per cent of send-code's throughput (small batches every 250 ms did not
  // help: they still come together). PostgreSQL folds on the server, where each batch is planned
  // anew (about a millisecond): an idle instance would pay that 20 times a second for no gain in
  // p99 (docs/architecture.md, the write path and the fold).
  foldIntervalMs: Type.Integer({
    env: 'FOLD_INTERVAL_MS',
    default: 50,
    minimum: 10,
    maximum: 3_600_000,
    defaultText: '`50` on SQLite, `250` on PostgreSQL',
    description:
      'How often each instance folds the changes of requests into analytics, contacts and webhook deliveries (off the request path; reads of analytics and contacts fold first).',
  }),
  idempotencyLeaseSeconds: int(
    'IDEMPOTENCY_LEASE_SECONDS',
    60,
    1,
    3600,
    'How long a send-code with an Idempotency-Key that has not answered (its process died) blocks the key.',
  ),
  // Providers, SMS routing and callbacks: described in src/delivery/settings.ts and each provider folder.
  ...deliverySettings,
  // Media of calls whose audio this service sends itself: src/media/settings.ts.
  ...mediaSettings,
  // Carrier lookups: src/lookup/settings.ts and each lookup provider's folder.
  ...lookupSettings,
  ...webhookSettings,
};

export const ConfigSchema = Type.Object(settings);
export type Config = Static<typeof ConfigSchema> & {
  /** The settings the deployment gave (environment or CONFIG_FILE); the others hold their defaults. */
  readonly given: ReadonlySet<keyof typeof settings>;
};

/**
 * The settings with the delivery part described by `providers` instead of the registry (a
 * deployment, or a test, that adds a provider); the registry's when `providers` is not given.
 */
function settingsWith(providers: ProviderList | undefined): Record<string, TSchema> {
  if (!providers) return settings;
  const others = Object.entries(settings).filter(([key]) => !(key in deliverySettings));
  return { ...Object.fromEntries(others), ...deliverySettingsOf(providers) };
}

/** Raised at boot with a message that names the variable at fault. */
export class ConfigError extends Error {}

type SettingSchema = TSchema & {
  env: string;
  secret?: boolean;
  description?: string;
  default?: unknown;
  /** A default that is not one value, in words (for the settings page). */
  defaultText?: string;
};

/**
 * Defaults that depend on the deployment rather than being one value: a production start
 * (`NODE_ENV=production`, as the container image sets) never parks live codes in the outbox, and
 * the fold's interval depends on where it runs (see foldIntervalMs).
 */
function environmentDefaults(
  env: NodeJS.ProcessEnv,
  raw: Record<string, unknown>,
): Partial<Record<keyof typeof settings, unknown>> {
  const database = String(raw.databaseUrl ?? settings.databaseUrl.default);
  return {
    liveOutbox: env.NODE_ENV === 'production' ? 'refuse' : 'allow',
    foldIntervalMs: /^postgres(ql)?:/.test(database) ? 250 : 50,
  };
}

/**
 * Reads the settings from the environment, falling back to a JSON config file named by
 * `CONFIG_FILE` that uses the same variable names; the environment wins.
 */
export function loadConfig(env: NodeJS.ProcessEnv, providers?: ProviderList): Config {
  const file = readConfigFile(env.CONFIG_FILE);
  const all = settingsWith(providers);
  const configSchema = providers ? Type.Object(all) : ConfigSchema;
  const raw: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(all) as unknown as Array<[string, SettingSchema]>) {
    const value = env[schema.env] ?? file[schema.env];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const given = new Set(Object.keys(raw) as Array<keyof typeof settings>);
  for (const [key, value] of Object.entries(environmentDefaults(env, raw))) raw[key] ??= value;
  const converted = Value.Convert(configSchema, Value.Default(configSchema, raw));
  // One problem per variable: a union reports one error per member and one for itself.
  const seen = new Set<string>();
  const problems = [...Value.Errors(configSchema, converted)].flatMap((e) => {
    const key = e.path.split('/')[1] ?? '';
    if (seen.has(key)) return [];
    seen.add(key);
    const schema = (all as Record<string, SettingSchema>)[key];
    const choices = (schema?.anyOf as Array<{ const?: unknown }> | undefined)?.map((m) => m.const);
    const message = choices?.every((c) => c !== undefined)
      ? `must be one of ${choices.join(', ')}`
      : e.message;
    return [`${schema?.env ?? key}: ${message}${schema?.secret ? '' : ` (got ${JSON.stringify(raw[key])})`}`];
  });
  const databaseProblem = databaseUrlProblem(String((converted as Config).databaseUrl ?? ''));
  if (databaseProblem) problems.push(databaseProblem);
  const proxyProblem = trustProxyProblem(String((converted as Config).trustProxy ?? ''));
  if (proxyProblem) problems.push(proxyProblem);
  if (problems.length === 0) {
    const config = converted as Config;
    problems.push(
      ...deliveryConfigProblems(all, config, providers, sharedWithDelivery(config)),
      ...lookupConfigProblems(config),
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return { ...(converted as Omit<Config, 'given'>), given };
}

function readConfigFile(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`CONFIG_FILE ${path} could not be read as JSON: ${(err as Error).message}`);
  }
}

/** Every variable name the service reads, for the misspelling hint at start. */
export const SETTING_NAMES: readonly string[] = [
  'CONFIG_FILE',
  'NODE_ENV',
  ...(Object.values(settings) as unknown as SettingSchema[]).map((s) => s.env),
];

/** The descriptions of every setting (with `providers`' delivery settings), for docs and the settings table. */
export function describeSettings(providers?: ProviderList): Array<{
  env: string;
  default: unknown;
  defaultText?: string;
  secret: boolean;
  description: string;
}> {
  return (Object.values(settingsWith(providers)) as SettingSchema[]).map((s) => ({
    env: s.env,
    default: s.default,
    defaultText: s.defaultText,
    secret: Boolean(s.secret),
    description: s.description ?? '',
  }));
}
