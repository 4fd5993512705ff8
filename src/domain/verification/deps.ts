import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { VerificationEvents } from '../events.js';
import type { Delivery } from '../ports/delivery.js';
import type { NumberLookup } from '../ports/number-lookup.js';
import type { ReadModel } from '../ports/read-model.js';
import type { SilentFallbacks } from '../ports/silent-fallbacks.js';
import type { Verifications } from '../ports/verifications.js';
import { accountLimitScope, type RateLimitPolicy } from '../rate-limit-policy.js';
import type { EffectiveSettings } from '../settings.js';
import type { AuthenticatedKey } from '../types.js';

/** The aggregates a verification works on: its requests, and the read model its screen reads. */
export interface VerificationStorage {
  readonly verifications: Verifications;
  readonly readModel: ReadModel;
  /** The fallbacks of SILENT requests (send-code `fallback`). */
  readonly silentFallbacks: SilentFallbacks;
}

/** What the verification use cases are built with (one object, shared by all of them). */
export interface VerificationDeps {
  store: VerificationStorage;
  limits: RateLimitPolicy;
  delivery: Delivery;
  clock: Clock;
  /** The secret new codes are hashed with. */
  codeSecret: Buffer;
  /** Secrets replaced by a rotation: codes hashed with them still verify until they expire. */
  previousCodeSecrets?: readonly Buffer[];
  /**
   * PUBLIC_BASE_URL: where magic links point (`<base>/v1/links/<token>`); null: sends with `link`
   * are refused.
   */
  linkBaseUrl?: string | null;
  defaults: EffectiveSettings;
  /** The settings of `defaults` the deployment set; the others are built-in defaults. */
  defaultsGiven?: ReadonlySet<string>;
  logger: Logger;
  events?: VerificationEvents;
  /**
   * Carrier lookups (src/lookup), for accounts whose `lookup` setting is not `off`. Absent, such
   * an account's sends get `lookup_unavailable` (and are refused under `lookupFailClosed`).
   */
  numberLookup?: NumberLookup;
}

/** The scope of a key's limits and country windows (its account, and its mode). */
export const limitScope = (key: Pick<AuthenticatedKey, 'accountId' | 'mode'>): string =>
  accountLimitScope(key.accountId, key.mode);
