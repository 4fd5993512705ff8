import type { BreakerState } from '../pumping-breaker.js';
import type { Channel, DeliveryStatus, Mode, VerificationStatus } from '../types.js';
import type { VerificationMethod } from '../verification/method.js';

/** What analytics may group by. */
export const GROUP_BY = ['channel', 'country', 'purpose', 'provider', 'method'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export interface AnalyticsQuery {
  /** Absent: every account. */
  accountId?: string;
  mode: Mode;
  /** Epoch ms, inclusive; `to` exclusive. Both are rounded down to the hour. */
  from: number;
  to: number;
  intervalMs: number;
  groupBy?: GroupBy;
}

/** One bucket's sums; `group` is '' when not grouped or when the request had no value. */
export interface BucketSums {
  start: number;
  group: string;
  sent: number;
  delivered: number;
  undelivered: number;
  verified: number;
  failed: number;
  expired: number;
  canceled: number;
  wrongCodes: number;
  /** SILENT requests that fell back to a code. */
  fellBack: number;
}

export interface AnalyticsRows {
  buckets: BucketSums[];
  /** Histogram of seconds-to-verify per bucket: counts per bin (see src/domain/analytics.ts). */
  ttv: Array<{ start: number; group: string; bin: number; count: number }>;
  refusals: Array<{ start: number; group: string; reason: string; count: number }>;
}

/** A send refused before a request existed (rate limit, risk, blocked contact, breaker). */
export interface Refusal {
  accountId: string;
  mode: Mode;
  at: number;
  channel: Channel;
  country: string | null;
  purpose: string | null;
  /** `limit:<name>`, `risk`, `blocked`, `breaker`, or a carrier lookup's `line_type`, `sim_swap`, `lookup_unavailable`. */
  reason: string;
}

/** A destination an account sent to, in one mode, with what its requests add up to. */
export interface ContactRecord {
  id: string;
  accountId: string;
  mode: Mode;
  destination: string;
  channel: Channel;
  masked: string;
  firstSeen: number;
  lastSeen: number;
  counts: { sends: number; verified: number; failed: number; wrongCodes: number };
  blocked: { at: number; reason: string | null } | null;
  /** The last risk assessment (JSON text), or null. */
  risk: string | null;
}

/** One request of a contact's history: never its code. */
export interface ContactHistoryEntry {
  requestId: string;
  channel: Channel;
  /** Where its message went: the email address as given (a contact is its canonical mailbox), or the number. */
  address: string;
  status: VerificationStatus;
  purpose: string | null;
  provider: string | null;
  deliveryStatus: DeliveryStatus;
  /** Why it was not delivered (a WhatsApp call's reason code first), when it was not. */
  deliveryError: string | null;
  createdAt: number;
  expiresAt: number;
  /** When and how it was verified: with `status: verified` only (./verification/method.ts). */
  verifiedAt: number | null;
  method: VerificationMethod | null;
  risk: string | null;
  /** Its email carried a magic link beside the code (docs/links.md). */
  link: boolean;
}

/** Which contacts listContacts reads: one account, one mode or both, a page after a cursor. */
export interface ContactListFilter {
  accountId: string;
  /** Contacts of this mode only; absent: both. */
  mode?: Mode;
  /** The last contact of the previous page: the page starts after it. */
  after?: { lastSeen: number; id: string };
  limit: number;
}

/** What the risk score reads of a destination at send time. */
export interface DestinationSignals {
  /** Whether an operator blocked its contact. */
  blocked: boolean;
  /** Its requests of this mode that the retention keeps: the history the score reads (not the contact's counters, which the fold keeps a moment behind). */
  history: { sends: number; verified: number; wrongCodes: number };
  /** Sends to it in the last hour. */
  sendsLastHour: number;
  /** Other numbers of the same block the account sent to in the last hour. */
  neighboursLastHour: number;
  /** The SMS-pumping breaker of the account, mode and country, read with the rest; null when none (or no country). */
  breaker: BreakerState | null;
}

/**
 * What is derived from the requests: analytics buckets, contacts and the SMS-pumping breakers,
 * plus the refusals counted before a request existed. The store folds its change log into them
 * off the request path; every read of analytics and contacts folds what is left first, so counts
 * agree with the requests.
 */
export interface ReadModel {
  /**
   * Folds up to `batchSize` changes into the analytics buckets, the contacts and the webhook
   * queue, off the request path; returns how many it folded. Instances share the work. The changes
   * a store logged as one set (PostgreSQL: the sends of one statement) are folded together, and a
   * batch takes at least one set: a set larger than `batchSize` is folded whole.
   */
  fold(batchSize: number): Promise<number>;
  /** Sums of the analytics buckets for one query. */
  analytics(query: AnalyticsQuery): Promise<AnalyticsRows>;
  /** Counts a send refused before any request existed (limit, risk, blocked contact, breaker). */
  recordRefusal(refusal: Refusal): Promise<void>;
  getContact(id: string): Promise<ContactRecord | null>;
  /**
   * Contacts of an account whose destination starts with `prefix` (an exact one included); `mode`
   * keeps one mode (absent: both).
   */
  searchContacts(accountId: string, prefix: string, limit: number, mode?: Mode): Promise<ContactRecord[]>;
  /** Contacts of an account, most recently seen first, a page at a time. */
  listContacts(filter: ContactListFilter): Promise<ContactRecord[]>;
  /** The contact's last `limit` requests, newest first. */
  contactHistory(contact: ContactRecord, limit: number): Promise<ContactHistoryEntry[]>;
  /** What the risk score reads of a destination at send time (see src/domain/risk.ts). */
  destinationSignals(
    accountId: string,
    mode: Mode,
    destination: string,
    country: string | null,
    now: number,
  ): Promise<DestinationSignals>;
  /** Blocks (`reason` a string) or unblocks (null) a contact, with its journal event. */
  setContactBlocked(id: string, block: { reason: string } | null, now: number): Promise<ContactRecord | null>;
  getBreaker(accountId: string, mode: Mode, country: string): Promise<BreakerState | null>;
  saveBreaker(state: BreakerState): Promise<void>;
  /** Breakers of one account (or all), only the tripped ones when `trippedOnly`. */
  listBreakers(filter: { accountId?: string; trippedOnly?: boolean }): Promise<BreakerState[]>;
}
