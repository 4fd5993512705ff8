import type { AccountLimitOverrides, AccountOnlyOverrides } from './account-limits.js';
import type { DeliveryType } from './channels/channel.js';
import type { Channel } from './channels/registry.js';
import type { DeliveryStatus } from './delivery-states.js';
import type { LinkSettingOverrides } from './link-settings.js';
import type { Locale } from './locales.js';
import type { MessageSettingOverrides } from './message-settings.js';
import type { BrandingTemplates } from './templates.js';
import type { VerificationMethod } from './verification/method.js';
/** Types shared by the domain, the stores and the HTTP layer. Times are epoch milliseconds. */

/** The mode of a key and of everything made with it: test keys see and count only test data. */
export type Mode = 'live' | 'test';

/** The mode a boolean `test` field of the API names. */
export const modeOf = (test: boolean | undefined): Mode => (test ? 'test' : 'live');

// The channels are described once, in ./channels/registry.ts.
export { DELIVERY_TYPES, type DeliveryType } from './channels/channel.js';
export { CHANNELS, type Channel } from './channels/registry.js';

export const VERIFICATION_STATUSES = ['pending', 'verified', 'expired', 'failed', 'canceled'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** What happened to the message that carried a code (./delivery-states.ts). */
export type { DeliveryStatus } from './delivery-states.js';

/** A logo uploaded for an account (the image itself is in the store's account_logos). */
export interface UploadedLogo {
  contentType: string;
  bytes: number;
  /** When it was uploaded (epoch ms): part of its URL, so a new logo is not hidden by a cache. */
  version: number;
}

/** Branding shown in messages. */
export interface Branding {
  /** The sender name (email From display name). */
  brandName: string;
  /** The `{product}` placeholder; brandName when absent. */
  productName?: string;
  color: string;
  logoUrl?: string;
  supportUrl?: string;
  /** Plain text under every email. */
  emailFooter?: string;
  /** Per-locale, per-channel overrides of the built-in texts. */
  templates?: BrandingTemplates;
  /** Set by the logo upload alone, never by a settings change; used before logoUrl. */
  logo?: UploadedLogo;
}

/** Per-account overrides of deployment defaults; absent fields fall back to the deployment. */
/** An account's overrides of the deployment: its limits (src/domain/account-limits.ts) and more. */
export interface AccountSettings
  extends AccountLimitOverrides,
    AccountOnlyOverrides,
    MessageSettingOverrides,
    LinkSettingOverrides {
  /** ISO 3166-1 alpha-2 codes allowed for SMS/WhatsApp; absent or ['*'] means every country. */
  allowedCountries?: string[];
  branding?: Partial<Branding>;
}

export interface Account {
  id: string;
  name: string;
  settings: AccountSettings;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  /** The first characters of the secret, enough to recognise a key in a list. */
  prefix: string;
  channels: Channel[];
  mode: Mode;
  createdAt: number;
  revokedAt: number | null;
  /** When the key last authenticated a request, to within a minute; null if never. */
  lastUsedAt: number | null;
}

/** An API key resolved from a request, with its account's settings loaded alongside. */
export interface AuthenticatedKey extends ApiKeyRecord {
  accountSettings: AccountSettings;
}

export interface Verification {
  id: string;
  accountId: string;
  /** Both requests of a dual pair share a group id; a single request is its own group. */
  groupId: string;
  channel: Channel;
  destination: string;
  deliveryType: DeliveryType | null;
  country: string | null;
  purpose: string | null;
  codeHash: Buffer;
  status: VerificationStatus;
  attempts: number;
  maxAttempts: number;
  createdAt: number;
  expiresAt: number;
  verifiedAt: number | null;
  /** How it was verified (./verification/method.ts): set with `status: verified`, else null. */
  method: VerificationMethod | null;
  deliveryStatus: DeliveryStatus;
  /** When its delivery state last moved; null until it first did (the row's creation). */
  deliveryUpdatedAt: number | null;
  provider: string | null;
  providerMessageId: string | null;
  /** The mode of the key that made it: test requests are seen only by test keys, superseded and limited apart from live ones. */
  mode: Mode;
  /** The locale its message was written in; null for requests made before locales were kept. */
  locale: Locale | null;
}

export type NewVerification = Omit<
  Verification,
  | 'status'
  | 'attempts'
  | 'verifiedAt'
  | 'method'
  | 'deliveryUpdatedAt'
  | 'provider'
  | 'providerMessageId'
  | 'locale'
> & {
  /** The locale its message is written in. */
  locale?: Locale | null;
  /** The outbox's content when the outbox takes the message (its code masked): written with the row. */
  outbox: string | null;
  /** The code of an outbox message, kept in clear only while the request is pending. */
  outboxCode?: string | null;
  /** The risk assessment of the send (JSON), stored on the request. */
  risk?: string | null;
  /** The email address as given when it is not `destination` (its canonical mailbox); else null. */
  address?: string | null;
  /** The keyed hash of its magic link's token (src/domain/links.ts); null or absent: no link. */
  linkHash?: Buffer | null;
  /** Where its link's POST redirects (checked, normalised); null: the service's "verified" page. */
  linkRedirect?: string | null;
};

/** A message as its recipient sees it; what the outbox stores and providers send. */
export interface OutboundMessage {
  channel: Channel;
  to: string;
  subject?: string;
  text: string;
  html?: string;
}

export interface OutboxMessage extends OutboundMessage {
  id: string;
  accountId: string;
  verificationId: string;
  createdAt: number;
}
