import type { BreakerState } from '../domain/pumping-breaker.js';
import type {
  Account,
  AccountSettings,
  ApiKeyRecord,
  AuthenticatedKey,
  Channel,
  DeliveryStatus,
  NewVerification,
  Verification,
  VerificationStatus,
} from '../domain/types.js';
import type {
  ContactHistoryEntry,
  ContactListFilter,
  ContactRecord,
  DestinationSignals,
} from './contacts.js';
import type { IdempotencyStore } from './idempotency/interface.js';
import type { AnalyticsQuery, AnalyticsRows, Refusal } from './insights.js';
import type { AppliedMigration } from './migrations.js';
import type { SessionStore } from './sessions/interface.js';
import type { WebhookStore } from './webhooks/interface.js';

/** A live row of a group as an attempt reads it: what the guess is compared with. */
export type LiveCode = Pick<Verification, 'id' | 'channel' | 'codeHash'>;

/** The rows of a verification group whose attempt was just counted. */
export interface CountedAttempt {
  rows: Array<Pick<Verification, 'id' | 'channel' | 'country'>>;
  attempts: number;
  maxAttempts: number;
}

/** What verify needs of the request an attempt was made on. */
export type AttemptTarget = Pick<
  Verification,
  | 'id'
  | 'groupId'
  | 'channel'
  | 'destination'
  | 'status'
  | 'attempts'
  | 'maxAttempts'
  | 'expiresAt'
  | 'createdAt'
>;

/** What one verify attempt did; see Store.attempt. */
export interface AttemptOutcome {
  /** The request as it was before the attempt; null when the account has none with this id. */
  request: AttemptTarget | null;
  /** null when no attempt was counted: not pending, expired, or attempts used up. */
  counted: CountedAttempt | null;
  /** The row whose code matched, and whether this attempt is the one that verified it. */
  winnerId: string | null;
  consumed: boolean;
}

export interface NewApiKey {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  keyHash: string;
  channels: Channel[];
  test: boolean;
  createdAt: number;
}

export interface ApiKeyPatch {
  name?: string;
  channels?: Channel[];
}

export interface DeliveryRecord {
  /** When it was found, epoch ms. */
  at: number;
  deliveryStatus: DeliveryStatus;
  provider: string | null;
  providerMessageId: string | null;
  error?: string | null;
  /** Also cancels the request when it is still pending (its code never reached anyone). */
  cancel?: boolean;
}

/** An account's uploaded logo as stored. */
export interface StoredLogo {
  contentType: string;
  data: Buffer;
  updatedAt: number;
}

export interface SweepResult {
  expired: number;
  deleted: number;
}

/**
 * Persistence for every backend (SQLite, PostgreSQL). Each method is one atomic unit: its promise
 * settles only once its effects are durable, so a caller may acknowledge a request on resolution.
 */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** Idempotency-Key claims of send-code, in the same database. */
  readonly idempotency: IdempotencyStore;
  /** Webhook endpoints and their delivery queue, fed from the event journal. */
  readonly webhooks: WebhookStore;
  /** Sessions of the operator dashboard. */
  readonly sessions: SessionStore;
  /**
   * Applies the numbered migrations not yet applied; safe to run from several processes. Rejects
   * with NewerSchemaError when a newer version migrated the database past what this one knows.
   */
  migrate(): Promise<number[]>;
  /** The migrations of a newer version this one runs on because each is marked tolerated. */
  readonly newerMigrations: readonly AppliedMigration[];
  /** Resolves true when the database answers a trivial query. */
  check(): Promise<boolean>;
  close(): Promise<void>;

  /** Stores `value` under `name` unless a value is there already; returns the stored one. */
  getOrCreateSetting(name: string, value: string): Promise<{ value: string; created: boolean }>;

  createAccount(account: Account): Promise<Account>;
  listAccounts(): Promise<Account[]>;
  getAccount(id: string): Promise<Account | null>;
  updateAccountSettings(id: string, settings: AccountSettings): Promise<Account | null>;
  /** Keeps (or replaces) an account's uploaded logo. */
  putAccountLogo(accountId: string, logo: StoredLogo): Promise<void>;
  getAccountLogo(accountId: string): Promise<StoredLogo | null>;
  deleteAccountLogo(accountId: string): Promise<void>;

  createApiKey(key: NewApiKey): Promise<ApiKeyRecord>;
  listApiKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  getApiKey(id: string): Promise<ApiKeyRecord | null>;
  /** The live (not revoked) key with this hash, joined with its account's settings. */
  findActiveApiKey(keyHash: string): Promise<AuthenticatedKey | null>;
  /** Marks a key revoked; false when it does not exist or was revoked already. */
  revokeApiKey(id: string, now: number): Promise<boolean>;
  /** Renames a live key or changes its channels; null when it does not exist or is revoked. */
  updateApiKey(id: string, patch: ApiKeyPatch): Promise<ApiKeyRecord | null>;
  /** Sets each key's last use (epoch ms) unless a later one is stored already. */
  recordApiKeyUses(uses: ReadonlyMap<string, number>): Promise<void>;
  /** Revokes `oldId` and creates `replacement` in one transaction; null when `oldId` is not live. */
  rotateApiKey(oldId: string, replacement: NewApiKey, now: number): Promise<ApiKeyRecord | null>;

  /**
   * Inserts the requests of one send (one, or two for a dual pair) and cancels every earlier
   * pending request of the same account, channel, destination and mode. Like every method that
   * changes a request or a contact, it appends its changes (src/store/changes.ts) in the same unit.
   */
  createVerifications(rows: NewVerification[]): Promise<void>;
  /** `test`: the mode of the asking key; a request of the other mode is not found. */
  getVerification(accountId: string, id: string, test?: boolean): Promise<Verification | null>;
  /**
   * One verify attempt, the only way to verify: reads the request and, unless it is no longer
   * pending or expired, the live rows of its group; asks `pick` which row the code matches; then
   * one conditional statement counts the attempt on the group while attempts remain (N parallel
   * guesses count N), consumes the group when the pick matched (true for exactly one caller),
   * fails it on the last wrong guess, and counts a wrong guess on the request it was made on.
   */
  attempt(
    accountId: string,
    requestId: string,
    now: number,
    pick: (rows: LiveCode[]) => string | null,
    /** The mode of the asking key, as in getVerification. */
    test?: boolean,
    /** The channels of the asking key: a request of another channel is not found (nothing counted). */
    channels?: readonly Channel[],
  ): Promise<AttemptOutcome>;
  /** Moves the pending requests of a group to `status` when the condition for it holds. */
  settleGroup(
    groupId: string,
    status: Extract<VerificationStatus, 'expired' | 'failed'>,
    now: number,
  ): Promise<void>;
  recordDelivery(id: string, delivery: DeliveryRecord): Promise<void>;
  /** Updates the delivery state of the message a provider knows by `providerMessageId`. */
  recordDeliveryByProviderId(
    provider: string,
    providerMessageId: string,
    deliveryStatus: DeliveryStatus,
    error: string | null,
    now: number,
  ): Promise<boolean>;

  /**
   * Keeps the outbox's `content` (opaque to the store, the code masked) and the `code` in clear
   * (kept only while the request is pending) on a stored request. Sends usually write them with
   * the row (NewVerification.outbox); this is for a message routed to the outbox later.
   */
  addOutboxMessage(verificationId: string, content: string, code: string): Promise<void>;
  /**
   * Newest first. `to` filters on the normalised destination; `before` (a request id) starts the
   * page after that message.
   */
  listOutbox(filter: OutboxFilter): Promise<OutboxEntry[]>;

  /**
   * Folds up to `batchSize` changes into the analytics buckets, the contacts and the webhook
   * queue (src/store/fold.ts), off the request path; returns how many it folded. Instances share
   * the work. Reads of analytics and contacts fold what is left first.
   */
  fold(batchSize: number): Promise<number>;

  /** Sums of the analytics buckets (folded from the change log) for one query. */
  analytics(query: AnalyticsQuery): Promise<AnalyticsRows>;
  /** Counts a send refused before any request existed (limit, risk, blocked contact, breaker). */
  recordRefusal(refusal: Refusal): Promise<void>;
  getContact(id: string): Promise<ContactRecord | null>;
  /**
   * Contacts of an account whose destination starts with `prefix` (an exact one included); `test`
   * keeps one mode (absent: both).
   */
  searchContacts(accountId: string, prefix: string, limit: number, test?: boolean): Promise<ContactRecord[]>;
  /** Contacts of an account, most recently seen first, a page at a time. */
  listContacts(filter: ContactListFilter): Promise<ContactRecord[]>;
  /** The contact's last `limit` requests, newest first. */
  contactHistory(contact: ContactRecord, limit: number): Promise<ContactHistoryEntry[]>;
  /** What the risk score reads of a destination at send time (see src/domain/risk.ts). */
  destinationSignals(
    accountId: string,
    test: boolean,
    destination: string,
    country: string | null,
    now: number,
  ): Promise<DestinationSignals>;
  /** Blocks (`reason` a string) or unblocks (null) a contact, with its journal event. */
  setContactBlocked(id: string, block: { reason: string } | null, now: number): Promise<ContactRecord | null>;

  getBreaker(accountId: string, test: boolean, country: string): Promise<BreakerState | null>;
  saveBreaker(state: BreakerState): Promise<void>;
  /** Breakers of one account (or all), only the tripped ones when `trippedOnly`. */
  listBreakers(filter: { accountId?: string; trippedOnly?: boolean }): Promise<BreakerState[]>;

  /** Marks overdue pending requests expired and deletes rows older than the retention, in batches. */
  sweep(now: number, retentionMs: number, batchSize: number): Promise<SweepResult>;
}

/** A message the outbox took, as stored: its content is rendered by the delivery layer. */
/** Which outbox messages listOutbox reads. */
export interface OutboxFilter {
  accountId?: string;
  to?: string;
  /** The request id of the last message of the previous page. */
  before?: string;
  /** true: messages of test keys only; false: of live keys only; absent: both. */
  test?: boolean;
  limit: number;
}

export interface OutboxEntry {
  verificationId: string;
  /** The state of its request now. */
  status: VerificationStatus;
  accountId: string;
  channel: Channel;
  to: string;
  content: string;
  /** The code in clear while the request is pending; null once it settled (the content masks it). */
  code: string | null;
  /** Made with a test key. */
  test: boolean;
  createdAt: number;
}

/**
 * Raised when the database cannot be reached (refused, dropped, shut down, timed out). The HTTP
 * layer answers 503 UNAVAILABLE; the store reconnects by itself once the database is back.
 */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
}
