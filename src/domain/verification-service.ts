import type { OutboxEntry, OutboxFilter } from './ports/verifications.js';
import type { SendRequest } from './send-request.js';
import type { EffectiveSettings, SettingsInForce } from './settings.js';
import type { AccountSettings, AuthenticatedKey, DeliveryStatus } from './types.js';
import { CancelVerification } from './verification/cancel.js';
import type { VerificationDeps } from './verification/deps.js';
import { type LinkPage, VerifyLink } from './verification/link.js';
import { OutboxSearch } from './verification/outbox.js';
import { ProviderStatus } from './verification/provider-status.js';
import { ReadVerification, type VerificationResource } from './verification/resource.js';
import { SendCode } from './verification/send.js';
import type { SendEntry } from './verification/send-entry.js';
import { RequestSettings } from './verification/settings.js';
import { SilentFallbackSender } from './verification/silent-fallback.js';
import { VerifyCode, type VerifyResult } from './verification/verify.js';

export type { VerificationEvents } from './events.js';
export type { VerificationDeps, VerificationStorage } from './verification/deps.js';
export type { LinkPage } from './verification/link.js';
export { outboxDestination } from './verification/outbox.js';
export type { VerificationResource } from './verification/resource.js';
export type { SendEntry } from './verification/send-entry.js';
export type { VerifyResult } from './verification/verify.js';

/**
 * The verification use cases behind the API, one method each: routes call these and nothing
 * else of the domain's verifications. Each use case is a class of ./verification/ built over the
 * same dependencies; this knows nothing of HTTP, nor of which database or providers are behind
 * them.
 */
export class VerificationService {
  private readonly settings: RequestSettings;
  private readonly sendCode: SendCode;
  private readonly verifyCode: VerifyCode;
  private readonly readVerification: ReadVerification;
  private readonly cancelVerification: CancelVerification;
  private readonly verifyLink: VerifyLink;
  private readonly outboxSearch: OutboxSearch;
  private readonly providerStatus: ProviderStatus;
  /** Fires the fallback codes of SILENT requests (the timeout worker uses it). */
  readonly fallbackSender: SilentFallbackSender;

  constructor(deps: VerificationDeps) {
    this.settings = new RequestSettings(deps.defaults, deps.defaultsGiven);
    this.sendCode = new SendCode(deps, this.settings);
    this.verifyCode = new VerifyCode(deps, this.settings);
    this.readVerification = new ReadVerification(deps, this.settings);
    this.cancelVerification = new CancelVerification(deps, this.settings);
    this.verifyLink = new VerifyLink(deps, this.settings);
    this.outboxSearch = new OutboxSearch(deps.store.verifications);
    this.providerStatus = new ProviderStatus(deps.store.verifications, deps.clock);
    this.fallbackSender = new SilentFallbackSender(deps);
  }

  /** An account's settings over the deployment defaults (what its sends use; the branding preview). */
  settingsOf(accountSettings: AccountSettings): EffectiveSettings {
    return this.settings.of(accountSettings);
  }

  /** Each setting an account may override: the value its requests use and where it comes from. */
  settingsInForce(accountSettings: AccountSettings): SettingsInForce {
    return this.settings.inForce(accountSettings);
  }

  /** Settings for requests made with `key`: deployment defaults with the account's overrides. */
  settingsFor(key: AuthenticatedKey): EffectiveSettings {
    return this.settings.forKey(key);
  }

  /** send-code (./verification/send.ts). */
  send(key: AuthenticatedKey, request: SendRequest, onStarted?: () => void): Promise<SendEntry[]> {
    return this.sendCode.send(key, request, onStarted);
  }

  /** verify-code (./verification/verify.ts). */
  verify(key: AuthenticatedKey, requestId: string, code: string | null): Promise<VerifyResult> {
    return this.verifyCode.verify(key, requestId, code);
  }

  /** A verification request as a resource (./verification/resource.ts). */
  get(key: AuthenticatedKey, requestId: string): Promise<VerificationResource> {
    return this.readVerification.get(key, requestId);
  }

  /** Cancels a pending request and its dual sibling; idempotent (./verification/cancel.ts). */
  cancel(key: AuthenticatedKey, requestId: string): Promise<VerificationResource> {
    return this.cancelVerification.cancel(key, requestId);
  }

  /** GET of a magic link: the page it shows, changing nothing (./verification/link.ts). */
  openLink(token: string): Promise<LinkPage> {
    return this.verifyLink.open(token);
  }

  /** POST of a magic link: verifies its request once (./verification/link.ts). */
  useLink(token: string): Promise<LinkPage> {
    return this.verifyLink.use(token);
  }

  /** The outbox's messages (./verification/outbox.ts). */
  outbox(filter: OutboxFilter): Promise<OutboxEntry[]> {
    return this.outboxSearch.outbox(filter);
  }

  /** A provider's report on a message it took (./verification/provider-status.ts). */
  recordProviderStatus(
    provider: string,
    providerMessageId: string,
    status: DeliveryStatus,
    error: string | null,
  ): Promise<boolean> {
    return this.providerStatus.record(provider, providerMessageId, status, error);
  }
}
