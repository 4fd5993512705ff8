import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config/schema.js';
import { trustedProxies, trustProxyWarnings } from './config/trust-proxy.js';
import { buildDelivery, deliveryWarnings, renderOptions } from './delivery/factory.js';
import type { Delivery } from './delivery/interface.js';
import { PROVIDERS, type ProviderList } from './delivery/providers/registry.js';
import { stateSeal } from './delivery/providers/state-seal.js';
import type { CallTimings, WhatsAppCallFlow } from './delivery/providers/whatsapp/whatsapp.call-flow.js';
import { buildWhatsAppCalls } from './delivery/providers/whatsapp/whatsapp.call-setup.js';
import { AccountAdmin } from './domain/accounts.js';
import { Analytics } from './domain/analytics.js';
import { Breakers } from './domain/breakers.js';
import { type Clock, DAY_MS, systemClock } from './domain/clock.js';
import { Contacts } from './domain/contacts.js';
import type { RateLimitStore } from './domain/ports/rate-limits.js';
import { counterKeySecret, RateLimitPolicy } from './domain/rate-limit-policy.js';
import { DEFAULT_BRANDING, deploymentDefaults } from './domain/settings.js';
import { SilentFallbackWorker } from './domain/verification/silent-fallback-worker.js';
import { VerificationService } from './domain/verification-service.js';
import { AdminThrottle } from './http/admin-throttle.js';
import { buildApp } from './http/app.js';
import type { AdminGate } from './http/auth.js';
import { csrfKeyFrom, DashboardSessions } from './http/dashboard/sessions.js';
import { IDEMPOTENCY_WINDOW_MS } from './http/idempotency.js';
import { KeyUseRecorder } from './http/key-uses.js';
import { callbackRoutes } from './http/routes/callbacks.js';
import { metricsRoute } from './http/routes/metrics.js';
import { webhookAdminRoutes } from './http/routes/webhooks.js';
import { DurableMemoryRateLimitStore } from './limits/durable-memory-store.js';
import { MemoryRateLimitStore } from './limits/memory-store.js';
import { buildNumberLookup } from './lookup/factory.js';
import { mediaOptions } from './media/settings.js';
import { ServiceMetrics } from './metrics/metrics.js';
import type { Store } from './store/factory.js';
import { openStore } from './store/factory.js';
import { FoldWorker } from './store/fold-worker.js';
import { InstanceRegistry } from './store/instances/registry.js';
import { KnownDestinations } from './store/known-destinations.js';
import { toleratedNote } from './store/migrations.js';
import { SqliteStore } from './store/sqlite/sqlite-store.js';
import { Sweeper } from './store/sweeper.js';
import { WebhookAdmin } from './webhooks/admin.js';
import { webhookMetrics } from './webhooks/metrics.js';
import { resealWebhookSecrets, SecretBox } from './webhooks/secrets.js';
import { webhookOptions } from './webhooks/settings.js';
import { WebhookWorker } from './webhooks/worker.js';

export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

export interface Service {
  app: FastifyInstance;
  store: Store;
  counters: RateLimitStore;
  delivery: Delivery;
  admin: AccountAdmin;
  /** The in-process webhook worker (tests run steps with runOnce). */
  webhooks: WebhookWorker;
  /** The in-process fold of the change log (tests run it with runOnce). */
  folds: FoldWorker;
  /** The timeout worker of SILENT fallbacks (tests run it with runOnce). */
  silentFallbacks: SilentFallbackWorker;
  /** This instance's registration on the database, and what it sees of the others. */
  instances: InstanceRegistry;
  /** The WhatsApp calling flow, when WhatsApp can call (tests run its worker with runOnce). */
  whatsappCalls: WhatsAppCallFlow | null;
  /** Set when this start generated the admin token: the only time it can be shown. */
  generatedAdminToken: string | null;
  /**
   * Closes the HTTP server (in-flight requests finish), the workers, then the stores: every part,
   * even when one of them fails (the promise then rejects, naming each failure).
   */
  close(): Promise<void>;
}

export interface ComposeOptions {
  logger: Logger;
  clock?: Clock;
  /** How often API keys' last uses are written (KEY_USE_FLUSH_MS; tests shorten it). */
  keyUseFlushMs?: number;
  /** The built dashboard (DASHBOARD_DIR; tests give a fixture directory). */
  dashboardDir?: string;
  /** The providers (the registry by default; the configuration must be loaded with the same list). */
  providers?: ProviderList;
  /** How often this instance says on the database that it is alive (tests shorten it). */
  instanceHeartbeatMs?: number;
  /** The WhatsApp calls' timers (tests shorten the ring timeout and the worker's pace). */
  whatsappCallTimings?: Partial<CallTimings>;
}

/**
 * Builds the whole service from its configuration: store, limits, providers, domain, HTTP, then
 * starts the workers, once everything they need exists. Every part that closes is registered as
 * it is made: should a later step throw, everything made so far is closed before the error goes
 * on, and close() closes every part even when one of them fails.
 */
export async function compose(config: Config, options: ComposeOptions): Promise<Service> {
  const parts = new Parts();
  try {
    return await build(config, options, parts);
  } catch (err) {
    await parts
      .closeAll()
      .catch((closing: unknown) =>
        options.logger.error({ err: (closing as Error).message }, 'closing a service that failed to start'),
      );
    throw err;
  }
}

async function build(config: Config, options: ComposeOptions, parts: Parts): Promise<Service> {
  const clock = options.clock ?? systemClock;
  // Without Redis this should be the only instance (several need it for their limits: see
  // cluster.ts), so every code sent on this database is sent by this process and its destination
  // filter sees them all; the instance registry suspends the filter while another is there.
  const filter = config.redisUrl || config.workers > 1 ? undefined : new KnownDestinations();
  const store = parts.add(
    'store',
    await openStore(config.databaseUrl, {
      poolSize: config.databasePoolSize,
      sendPoolSize: config.databaseSendPoolSize,
      clock,
      filter,
    }),
    (s) => s.close(),
  );
  // Registered before anything is served: a start next to an instance without Redis is said at
  // once, and this process's filter is suspended before a send if any other is there.
  const instances = new InstanceRegistry({
    instances: store.instances,
    clock,
    logger: options.logger,
    self: { host: hostname(), pid: process.pid, version: VERSION, redis: Boolean(config.redisUrl) },
    heartbeatMs: options.instanceHeartbeatMs,
    onNotAlone: () => filter?.suspend(),
    onAlone: () => void filter?.reload(),
  });
  await instances.start();
  parts.add('instance registry', instances, (i) => i.stop());
  const counters = parts.add('rate-limit store', await openCounters(config, store, clock), (c) => c.close());
  const admin = new AccountAdmin(store.accounts, clock);
  await admin.ensureDefaultAccount();

  if (store.newerMigrations.length > 0) options.logger.warn(toleratedNote([...store.newerMigrations]));
  const { current: codeSecret, previous: previousCodeSecrets } = await resolveCodeSecrets(config, store);
  if (previousCodeSecrets.length > 0)
    options.logger.warn(
      'CODE_SECRET_PREVIOUS is set: codes, webhook signing secrets and dashboard CSRF tokens made with the previous code secret are still accepted. It is for a rotation only: remove it and restart once the longest code lifetime (at most 30 minutes) has passed since every instance runs with the new CODE_SECRET (docs/operations.md). /health shows codeSecretRotation while it is set.',
    );
  const { adminTokenHash, generatedAdminToken } = await resolveAdminToken(config, store);

  const providers = options.providers ?? PROVIDERS;
  // What providers carry through their APIs to their webhooks, sealed under the code secrets.
  const seal = stateSeal([codeSecret, ...previousCodeSecrets]);
  // WhatsApp calls (WHATSAPP with deliveryType CALL): their jobs on the database, media in this process.
  const whatsappCalls = buildWhatsAppCalls(config, {
    jobs: store.whatsappCalls,
    verifications: store.verifications,
    seal,
    media: mediaOptions(config),
    clock,
    logger: options.logger,
    instanceId: instances.id,
    timings: options.whatsappCallTimings,
  });
  const delivery = buildDelivery(config, store, clock, providers, seal, whatsappCalls);
  for (const warning of deliveryWarnings(config, providers)) options.logger.warn(warning);
  for (const warning of trustProxyWarnings(config.trustProxy)) options.logger.warn(warning);
  // One line per channel whose live codes are not delivered: a warning when sends are refused,
  // a plain statement when they are parked in the outbox (LIVE_OUTBOX=allow).
  for (const [channel, live] of Object.entries(delivery.liveRouting())) {
    if (live.liveCodes === 'refused') options.logger.warn({ channel }, live.note);
    else if (live.liveCodes === 'outbox') options.logger.info({ channel }, live.note);
  }
  const metrics = new ServiceMetrics();
  metrics.watchBreakers(async () => (await store.readModel.listBreakers({ trippedOnly: true })).length);
  // Registered after the counters, so closed before them: the points it still carries are counted.
  const limits = parts.add(
    'rate-limit policy',
    new RateLimitPolicy(counters, counterKeySecret(codeSecret), metrics.events),
    (l) => l.flush(),
  );
  // Carrier lookups: the provider of LOOKUP_PROVIDER (none: test keys still get the test numbers),
  // cached in Redis when REDIS_URL is set, else in the database. Sends of an account consult it
  // only once the account turns `lookup` on.
  const numberLookup = parts.add(
    'lookup cache',
    await buildNumberLookup(config, {
      store: store.lookups,
      codeSecret,
      clock,
      onCacheError: (err, operation) =>
        options.logger.warn(
          { err: (err as Error)?.message ?? String(err), operation },
          'the lookup cache failed: the provider is asked instead',
        ),
      // Several instances on one cache ask a provider about a number once between them.
      sharing: () => instances.report().live > 1,
    }),
    (l) => l.close(),
  );
  const service = new VerificationService({
    store,
    limits,
    delivery,
    clock,
    codeSecret,
    previousCodeSecrets,
    linkBaseUrl: config.publicBaseUrl ?? null,
    defaults: deploymentDefaults(config, {
      ...DEFAULT_BRANDING,
      brandName: config.brandName ?? DEFAULT_BRANDING.brandName,
    }),
    defaultsGiven: config.given,
    logger: options.logger,
    events: metrics.events,
    numberLookup: numberLookup.lookup,
  });
  const sweeper = new Sweeper({
    verifications: store.verifications,
    clock,
    logger: options.logger,
    retentionDays: config.retentionDays,
    intervalSeconds: config.sweepIntervalSeconds,
    extraSweeps: [
      {
        name: 'idempotency_keys',
        sweep: (now, batch) => store.idempotency.sweep(now - IDEMPOTENCY_WINDOW_MS, batch),
      },
      { name: 'dashboard_sessions', sweep: (now, batch) => store.sessions.sweep(now, batch) },
      { name: 'instances', sweep: (now, batch) => store.instances.sweep(now - DAY_MS, batch) },
      // Carrier lookups cached in the database past both parts' freshness (src/lookup).
      { name: 'number_lookups', sweep: (now, batch) => store.lookups.sweep(now, batch) },
      // Finished fallbacks of SILENT requests, kept as long as the requests (the resource shows them).
      {
        name: 'silent_fallbacks',
        sweep: (now, batch) => store.silentFallbacks.sweep(now - config.retentionDays * DAY_MS, batch),
      },
      {
        // Finished deliveries are kept as long as verification requests.
        name: 'webhook_deliveries',
        sweep: (now, batch) => store.webhooks.sweep(now - config.retentionDays * DAY_MS, batch),
      },
    ],
  });
  const silentFallbacks = new SilentFallbackWorker({
    fallbacks: store.silentFallbacks,
    sender: service.fallbackSender,
    settingsFor: async (accountId) => {
      const account = await store.accounts.getAccount(accountId);
      return account ? service.settingsOf(account.settings) : null;
    },
    clock,
    logger: options.logger,
  });
  const folds = new FoldWorker({
    readModel: store.readModel,
    logger: options.logger,
    intervalMs: config.foldIntervalMs,
  });
  const webhookSettings = webhookOptions(config);
  const secrets = new SecretBox(codeSecret, previousCodeSecrets);
  if (previousCodeSecrets.length > 0) {
    // A rotation of CODE_SECRET: the signing secrets move under the new one, so that dropping
    // CODE_SECRET_PREVIOUS later loses none (the CLI's `webhooks reseal` does the same). Before
    // the webhook worker starts: it signs with them.
    const report = await resealWebhookSecrets(store.webhooks, secrets);
    options.logger.info(
      { resealed: report.resealed, unreadable: report.unreadable },
      'webhook signing secrets sealed again under CODE_SECRET',
    );
  }
  const webhooks = new WebhookWorker({
    store: store.webhooks,
    secrets,
    clock,
    logger: options.logger,
    options: webhookSettings,
    observer: webhookMetrics(metrics.registry, () =>
      store.webhooks.countSlowEndpoints(webhookSettings.slowAfterTimeouts),
    ),
  });
  // One throttle for every admin route, the webhook routes and the sign-in included: an address's
  // wrong tokens count together.
  const adminThrottle = new AdminThrottle(counters, {
    perAddressPerMinute: config.adminAuthFailuresPerMinute,
  });
  const adminGate: AdminGate = {
    tokenHash: adminTokenHash,
    previousTokenHash: config.adminTokenPrevious ? sha256(config.adminTokenPrevious) : undefined,
    throttle: adminThrottle,
    sessions: new DashboardSessions(
      store.sessions,
      clock,
      [codeSecret, ...previousCodeSecrets].map(csrfKeyFrom),
      config.dashboardSessionMinutes * 60,
    ),
  };
  const keyUses = new KeyUseRecorder(store.accounts, clock, options.logger, options.keyUseFlushMs);
  const app = parts.add(
    'HTTP server',
    await buildApp({
      database: store,
      instances,
      keys: store.accounts,
      idempotency: store.idempotency,
      counters,
      service,
      admin,
      analytics: new Analytics(store.readModel, clock),
      contacts: new Contacts(store.readModel, clock, {
        lookup: numberLookup.lookup,
        accounts: store.accounts,
      }),
      breakers: new Breakers(store.readModel, limits, clock),
      delivery,
      lookups: numberLookup.lookup,
      clock,
      adminGate,
      logger: options.logger,
      version: VERSION,
      trustProxy: trustedProxies(config.trustProxy),
      previousCodeSecrets: previousCodeSecrets.length,
      timeouts: config,
      hstsMaxAgeSeconds: config.tlsTerminated ? config.hstsMaxAgeSeconds : null,
      idempotencyLeaseSeconds: config.idempotencyLeaseSeconds,
      renderOptions: renderOptions(config),
      keyUses,
      dashboardDir: options.dashboardDir,
      plugins: [
        metricsRoute(metrics, config.metricsToken),
        callbackRoutes({ config, service, clock, logger: options.logger, providers, seal, whatsappCalls }),
        webhookAdminRoutes({
          webhooks: new WebhookAdmin(store, secrets, clock, webhookSettings.allowPrivate),
          adminGate,
        }),
      ],
      observeRoute: metrics.observeRoute,
    }),
    // First of all: in-flight requests finish while everything they use is still there.
    (a) => a.close(),
    { closesFirst: true },
  );

  // The workers last, once everything they use exists. Each stops (its work under way done)
  // before the stores close, in the reverse order: the key uses' last flush first, the fold's
  // last batch before the webhook worker.
  for (const [name, worker] of [
    ['webhook worker', webhooks],
    ['fold worker', folds],
    ['silent fallback worker', silentFallbacks],
    ['sweeper', sweeper],
    ['key-use recorder', keyUses],
  ] as const) {
    worker.start();
    parts.add(name, worker, (w) => w.stop());
  }
  if (whatsappCalls) {
    // Due jobs (no reply, no answer, jobs of a process that died) and the erasure of sealed codes.
    whatsappCalls.flow.startWorker();
    parts.add('WhatsApp call worker', whatsappCalls.flow, (f) => f.stop());
  }

  return {
    app,
    store,
    counters,
    delivery,
    admin,
    webhooks,
    folds,
    silentFallbacks,
    instances,
    whatsappCalls: whatsappCalls?.flow ?? null,
    generatedAdminToken,
    close: () => parts.closeAll(),
  };
}

/**
 * What a service is made of and must close: registered as each part is made, closed in the
 * reverse order (the HTTP server first of all), every one of them even when another fails.
 */
class Parts {
  private readonly closers: Array<{ name: string; close: () => Promise<void> | void; first: boolean }> = [];
  private closing: Promise<void> | null = null;

  add<T>(name: string, part: T, close: (part: T) => Promise<void> | void, how = { closesFirst: false }): T {
    this.closers.push({ name, close: () => close(part), first: how.closesFirst });
    return part;
  }

  /** Closes every part once (a second call waits for the first); rejects with every failure. */
  closeAll(): Promise<void> {
    this.closing ??= this.closeEach();
    return this.closing;
  }

  private async closeEach(): Promise<void> {
    const lastMadeFirst = [...this.closers].reverse();
    const order = [...lastMadeFirst.filter((c) => c.first), ...lastMadeFirst.filter((c) => !c.first)];
    const failures: Error[] = [];
    for (const part of order) {
      try {
        await part.close();
      } catch (err) {
        failures.push(
          new Error(`closing the ${part.name} failed: ${(err as Error)?.message ?? err}`, { cause: err }),
        );
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, failures.map((f) => f.message).join('; '));
  }
}

/** CODE_SECRET, or the one generated and stored on first start (the CLI needs it too). */
export async function resolveCodeSecret(config: Config, store: Store): Promise<Buffer> {
  return Buffer.from(
    config.codeSecret ??
      (await store.getOrCreateSetting('code_secret', randomBytes(32).toString('base64url'))).value,
  );
}

/** The code secret, and the one a rotation replaces (CODE_SECRET_PREVIOUS) while it is set. */
export async function resolveCodeSecrets(
  config: Config,
  store: Store,
): Promise<{ current: Buffer; previous: Buffer[] }> {
  const current = await resolveCodeSecret(config, store);
  const previous = config.codeSecretPrevious ? [Buffer.from(config.codeSecretPrevious)] : [];
  return { current, previous: previous.filter((p) => !p.equals(current)) };
}

/** The rate-limit store: Redis when configured (its own clock), else this process's, on `clock`. */
async function openCounters(config: Config, store: Store, clock: Clock): Promise<RateLimitStore> {
  if (!config.redisUrl) {
    // The embedded default keeps its counters in its own file: a restart forgives nothing.
    if (store instanceof SqliteStore)
      return new DurableMemoryRateLimitStore(store.counterPersistence(), clock);
    return new MemoryRateLimitStore(clock);
  }
  const { RedisRateLimitStore } = await import('./limits/redis-store.js');
  return RedisRateLimitStore.connect(config.redisUrl, { prefix: config.redisKeyPrefix });
}

/**
 * ADMIN_TOKEN from the configuration, or one generated on first start: only its SHA-256 is
 * stored, so it is printed once and never again.
 */
const sha256 = (s: string) => createHash('sha256').update(s).digest();

async function resolveAdminToken(config: Config, store: Store) {
  if (config.adminToken) return { adminTokenHash: sha256(config.adminToken), generatedAdminToken: null };
  const candidate = `cva_${randomBytes(32).toString('base64url')}`;
  const stored = await store.getOrCreateSetting('admin_token_sha256', sha256(candidate).toString('hex'));
  return {
    adminTokenHash: Buffer.from(stored.value, 'hex'),
    generatedAdminToken: stored.created ? candidate : null,
  };
}
