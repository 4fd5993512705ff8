import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { TrustedProxies } from '../config/trust-proxy.js';
import type { Delivery } from '../delivery/interface.js';
import type { RenderOptions } from '../delivery/messages.js';
import type { AccountAdmin } from '../domain/accounts.js';
import type { Analytics } from '../domain/analytics.js';
import type { Breakers } from '../domain/breakers.js';
import type { Clock } from '../domain/clock.js';
import type { Contacts } from '../domain/contacts.js';
import type { IdempotencyStore } from '../domain/ports/idempotency.js';
import type { InstancesReport } from '../domain/ports/instances.js';
import type { LookupHealth } from '../domain/ports/number-lookup.js';
import type { RateLimitStore } from '../domain/ports/rate-limits.js';
import type { VerificationService } from '../domain/verification-service.js';
import type { AdminGate } from './auth.js';
import type { HttpTimeouts } from './hardening.js';
import type { KeyLookup } from './key-cache.js';
import type { KeyUseRecorder } from './key-uses.js';

/** Everything the HTTP layer needs, built once by the composition root. */
export interface AppDeps {
  /** The database's health (GET /health). */
  database: { check(): Promise<boolean> };
  /** The instances serving on the database, as this one last saw them (GET /health). */
  instances: { report(): InstancesReport };
  /** Where API keys are looked up (cached per process). */
  keys: KeyLookup;
  /** Idempotency-Key claims of send-code. */
  idempotency: IdempotencyStore;
  counters: RateLimitStore;
  service: VerificationService;
  admin: AccountAdmin;
  analytics: Analytics;
  contacts: Contacts;
  breakers: Breakers;
  delivery: Delivery;
  /** The carrier lookup provider's state (GET /health); absent or null without a provider. */
  lookups?: { health(): LookupHealth | null };
  clock: Clock;
  /** How admin routes admit a caller: the admin token, its throttle and dashboard sessions. */
  adminGate: AdminGate;
  logger: Logger;
  version: string;
  /** How many previous code secrets are still accepted (CODE_SECRET_PREVIOUS): /health shows a rotation in progress. */
  previousCodeSecrets?: number;
  /** Which hops may speak for the client in X-Forwarded-* (TRUST_PROXY; none when absent). */
  trustProxy?: TrustedProxies;
  /** Request, header, keep-alive and idle timeouts of the HTTP server (Node's defaults when absent). */
  timeouts?: HttpTimeouts;
  /** HSTS max-age when clients reach the service over HTTPS; null or absent: no HSTS. */
  hstsMaxAgeSeconds?: number | null;
  /** How long an Idempotency-Key claim without an answer blocks its key (default 60 s). */
  idempotencyLeaseSeconds?: number;
  /** What the deployment adds to rendered messages (WebOTP line, public URL): for the branding preview. */
  renderOptions?: RenderOptions;
  /** Records when API keys are used (written in batches, off the request path). */
  keyUses?: KeyUseRecorder;
  /** The built dashboard front end; DASHBOARD_DIR when absent (tests give a fixture). */
  dashboardDir?: string;
  /** Extra routes (metrics, provider callbacks) registered by later layers. */
  plugins?: Array<(app: FastifyInstance) => Promise<void> | void>;
  /**
   * Sees every answered request (metrics): called once per route with its pattern, it returns the
   * route's onResponse observer; requests that match no route are observed as `unmatched`.
   */
  observeRoute?: (route: string) => (request: FastifyRequest, reply: FastifyReply) => void;
}
