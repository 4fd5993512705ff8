import { destinationField } from '../channels/registry.js';
import { DomainError } from '../errors.js';
import type { Locale } from '../locales.js';
import type {
  AccountSettings,
  Channel,
  DeliveryStatus,
  Mode,
  NewVerification,
  Verification,
  VerificationStatus,
} from '../types.js';
import type { VerificationMethod } from '../verification/method.js';

/** A live row of a group as an attempt reads it: what the guess is compared with. */
export type LiveCode = Pick<Verification, 'id' | 'channel' | 'codeHash'>;

/**
 * A presented code, as an attempt compares it with the live rows of a group. `pick` compares it
 * with each row's stored hash in constant time. `hashesFor` gives the hashes the code would be
 * stored as on row `rowId`, one per accepted secret: a store may compare those inside its own
 * statement instead. That compare is not constant-time, and need not be: it compares two keyed
 * hashes, and without the secret nobody can choose a guess whose hash shares a first byte more
 * with the stored one, so its timing tells nothing of the code.
 */
export interface CodeGuess {
  pick(rows: LiveCode[]): string | null;
  hashesFor?(rowId: string): Buffer[];
}

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

/** What one verify attempt did; see Verifications.attempt. */
export interface AttemptOutcome {
  /** The request as it was before the attempt; null when the account has none with this id. */
  request: AttemptTarget | null;
  /** null when no attempt was counted: not pending, expired, or attempts used up. */
  counted: CountedAttempt | null;
  /** The row whose code matched, and whether this attempt is the one that verified it. */
  winnerId: string | null;
  consumed: boolean;
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

/** Which outbox messages listOutbox reads. */
export interface OutboxFilter {
  accountId?: string;
  to?: string;
  /** The message of this request only. */
  requestId?: string;
  /** The request id of the last message of the previous page. */
  before?: string;
  /** Messages of keys of this mode only; absent: both. */
  mode?: Mode;
  limit: number;
}

/** A message the outbox took, as stored: its content is rendered by the delivery layer. */
export interface OutboxEntry {
  verificationId: string;
  /** Shared by both requests of a dual send (a single send's is its own id). */
  groupId: string;
  /** The other request of a dual send, whether or not the outbox took its message; else null. */
  siblingRequestId: string | null;
  /** The state of its request now. */
  status: VerificationStatus;
  /** When and how its request was verified: set with `status: verified` only, else null. */
  verifiedAt: number | null;
  method: VerificationMethod | null;
  accountId: string;
  channel: Channel;
  /** The destination it counts under (an email's mailbox). */
  to: string;
  /** The address the message went to, as the request gave it. */
  sentTo: string;
  content: string;
  /** The code in clear while the request is pending; null once it settled (the content masks it). */
  code: string | null;
  /** The mode of the key that made it. */
  mode: Mode;
  createdAt: number;
}

/**
 * The refusal of a send to a destination whose contact an operator blocked (403 CONTACT_BLOCKED):
 * the risk screen's, and createVerifications' when the screen did not read the block.
 */
export const contactBlocked = (channel: Channel): DomainError =>
  new DomainError('CONTACT_BLOCKED', 'An operator blocked this destination; no code was sent.', [
    { field: destinationField(channel), channel, message: 'blocked' },
  ]);

/** A request as its magic link finds it (src/domain/verification/link.ts). */
export interface LinkedRequest {
  id: string;
  accountId: string;
  groupId: string;
  channel: Channel;
  /** The destination masked as send-code answers show it. */
  masked: string;
  status: VerificationStatus;
  expiresAt: number;
  locale: Locale | null;
  mode: Mode;
  /** Where the link's POST redirects; null: the service's "verified" page. */
  redirectUrl: string | null;
  /** Its account's settings (the pages' branding), read in the same statement. */
  accountSettings: AccountSettings;
}

export interface SweepResult {
  expired: number;
  deleted: number;
}

/**
 * The verification requests and their attempts: the aggregate of the request path. Each method is
 * one atomic unit whose promise settles only once its effects are durable, so a caller may
 * acknowledge a request on resolution. Every method that changes a request appends its changes
 * (what the read model is folded from) in the same unit.
 */
export interface Verifications {
  /**
   * Inserts the requests of one send (one, or two for a dual pair) and cancels every earlier
   * pending request of the same account, channel, destination and mode. A store whose
   * destination filter may have spared the screen its read of a destination (destinationSignals
   * answered without a query) reads the blocks in the unit that writes: when an operator blocked
   * the contact of one of the destinations (in the account and mode of its row), it writes and
   * cancels nothing, counts the refusal (reason `blocked`, as the screen does) and rejects with
   * contactBlocked. The filter may skip the screen's read, never a block.
   */
  createVerifications(rows: NewVerification[]): Promise<void>;
  /** `mode`: the mode of the asking key; a request of the other mode is not found. */
  getVerification(accountId: string, id: string, mode?: Mode): Promise<Verification | null>;
  /**
   * One verify attempt, the only way to verify: reads the request and, unless it is no longer
   * pending or expired, the live rows of its group; asks `guess` which row the code matches; then
   * one conditional statement counts the attempt on the group while attempts remain (N parallel
   * guesses count N), consumes the group when the pick matched (true for exactly one caller),
   * fails it on the last wrong guess, and counts a wrong guess on the request it was made on.
   */
  attempt(
    accountId: string,
    requestId: string,
    now: number,
    guess: CodeGuess,
    /** The mode of the asking key, as in getVerification. */
    mode?: Mode,
    /** The channels of the asking key: a request of another channel is not found (nothing counted). */
    channels?: readonly Channel[],
  ): Promise<AttemptOutcome>;
  /**
   * The request `id` and the other requests of its group (a dual pair's sibling), ordered by id;
   * empty when the account has no request with this id in `mode`.
   */
  getGroup(accountId: string, id: string, mode?: Mode): Promise<Verification[]>;
  /**
   * Moves the pending requests of a group to `status` when the condition for it holds: `expired`
   * once their lifetime ended, `failed` once their attempts are used up, `canceled` (a cancel)
   * while neither holds, so that a cancel never hides how a request really ended.
   */
  settleGroup(
    groupId: string,
    status: Extract<VerificationStatus, 'expired' | 'failed' | 'canceled'>,
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
   * The request whose magic link's token hashes to one of `hashes` (one per accepted secret), as it
   * is now; null when none has. Changes nothing: a GET of a link (a mail scanner's) consumes nothing.
   */
  findLink(hashes: readonly Buffer[]): Promise<LinkedRequest | null>;
  /**
   * Uses a magic link, in one atomic unit: when its request is pending and unexpired at `now`, it
   * is verified (`verified_at` now, no attempt counted) and the other pending rows of its group
   * canceled, each appending its change; `consumed` is true for exactly one of parallel callers,
   * on every instance. `request` is the request as it was before; null: no request has the link.
   */
  consumeLink(
    hashes: readonly Buffer[],
    now: number,
  ): Promise<{ request: LinkedRequest; consumed: boolean } | null>;
  /** Marks overdue pending requests expired and deletes rows older than the retention, in batches. */
  sweep(now: number, retentionMs: number, batchSize: number): Promise<SweepResult>;
}
