import { asLocale } from '../domain/locales.js';
import type { NewApiKey } from '../domain/ports/keys-and-accounts.js';
import type {
  AttemptOutcome,
  AttemptTarget,
  CodeGuess,
  CountedAttempt,
  LinkedRequest,
  LiveCode,
  OutboxEntry,
} from '../domain/ports/verifications.js';
import type {
  Account,
  AccountSettings,
  ApiKeyRecord,
  AuthenticatedKey,
  Channel,
  Verification,
  VerificationStatus,
} from '../domain/types.js';
import { methodOf } from '../domain/verification/method.js';
import { rowMode } from './mode.js';

/** A stored locale tag; null for rows written before locales were kept (or a tag this build lacks). */
const asStoredLocale = (value: unknown) => (typeof value === 'string' ? asLocale(value) : null);

/** Row shapes and their mapping to domain records, shared by the SQL stores. */

export interface AccountRow {
  id: string;
  name: string;
  settings: string | object;
  created_at: number | string;
}

export interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  channels: string;
  test: number | boolean;
  created_at: number | string;
  revoked_at: number | string | null;
  last_used_at?: number | string | null;
}

// PostgreSQL returns BIGINT as a string; both stores keep epoch milliseconds well below 2^53.
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export const rowToAccount = (r: AccountRow): Account => ({
  id: r.id,
  name: r.name,
  settings: typeof r.settings === 'string' ? JSON.parse(r.settings) : r.settings,
  createdAt: num(r.created_at),
});

export const rowToApiKey = (r: ApiKeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  prefix: r.prefix,
  channels: r.channels.split(',').filter(Boolean) as Channel[],
  mode: rowMode(r.test),
  createdAt: num(r.created_at),
  revokedAt: numOrNull(r.revoked_at),
  lastUsedAt: numOrNull(r.last_used_at),
});

/** A key row joined with its account's settings (`account_settings`: JSON text or JSONB). */
export const rowToAuthenticatedKey = (
  r: ApiKeyRow & { account_settings: string | AccountSettings },
): AuthenticatedKey => ({
  ...rowToApiKey(r),
  accountSettings:
    typeof r.account_settings === 'string' ? JSON.parse(r.account_settings) : r.account_settings,
});

/** The columns rowToVerification reads (not the outbox message, which can be the row's largest). */
export const VERIFICATION_SELECT = `id, account_id, group_id, channel, destination, delivery_type, country, purpose,
  code_hash, status, attempts, max_attempts, created_at, expires_at, verified_at, method, delivery_status,
  delivery_updated_at, provider, provider_message_id, test, locale`;

export const rowToVerification = (r: Record<string, unknown>): Verification => ({
  id: String(r.id),
  accountId: String(r.account_id),
  groupId: String(r.group_id),
  channel: r.channel as Verification['channel'],
  destination: String(r.destination),
  deliveryType: strOrNull(r.delivery_type) as Verification['deliveryType'],
  country: strOrNull(r.country),
  purpose: strOrNull(r.purpose),
  codeHash: r.code_hash as Buffer,
  status: r.status as Verification['status'],
  attempts: num(r.attempts),
  maxAttempts: num(r.max_attempts),
  createdAt: num(r.created_at),
  expiresAt: num(r.expires_at),
  verifiedAt: numOrNull(r.verified_at),
  method: strOrNull(r.method) as Verification['method'],
  deliveryStatus: r.delivery_status as Verification['deliveryStatus'],
  deliveryUpdatedAt: numOrNull(r.delivery_updated_at),
  provider: strOrNull(r.provider),
  providerMessageId: strOrNull(r.provider_message_id),
  mode: rowMode(r.test),
  locale: asStoredLocale(r.locale),
});

/**
 * The attempt counted on a group, from the rows its counting UPDATE returned (`id`, `channel`,
 * `country`, `attempts`, `max_attempts`); null when none was counted. Every row of a group
 * carries the same attempts.
 */
export function rowsToCountedAttempt(rows: Array<Record<string, unknown>>): CountedAttempt | null {
  const first = rows[0];
  if (!first) return null;
  return {
    rows: rows.map((r) => ({
      id: String(r.id),
      channel: r.channel as Verification['channel'],
      country: strOrNull(r.country),
    })),
    attempts: num(first.attempts),
    maxAttempts: num(first.max_attempts),
  };
}

/** The attempted request's columns that attemptRead reads, of table alias `alias`. */
export const ATTEMPT_READ_SELECT = (alias: string) =>
  [
    'id',
    'group_id',
    'channel',
    'destination',
    'status',
    'attempts',
    'max_attempts',
    'expires_at',
    'created_at',
  ]
    .map((c) => `${alias}.${c}`)
    .join(', ');

/**
 * The first half of an attempt, read by both dialects as one row per live row of the request's
 * group (`counted_id`, `counted_channel`, `counted_code_hash`; nulls when none is live): the
 * request as it stands, and the rows whose codes the guess is compared with.
 */
export function attemptRead(read: Array<Record<string, unknown>>): {
  request: AttemptTarget | null;
  live: LiveCode[];
} {
  const first = read[0];
  if (!first) return { request: null, live: [] };
  const live = read
    .filter((r) => r.counted_id !== null && r.counted_id !== undefined)
    .map((r) => ({
      id: String(r.counted_id),
      channel: r.counted_channel as Verification['channel'],
      codeHash: r.counted_code_hash as Buffer,
    }));
  const request: AttemptTarget = {
    id: String(first.id),
    groupId: String(first.group_id),
    channel: first.channel as Channel,
    destination: String(first.destination),
    status: first.status as Verification['status'],
    attempts: num(first.attempts),
    maxAttempts: num(first.max_attempts),
    expiresAt: num(first.expires_at),
    createdAt: num(first.created_at),
  };
  return { request, live };
}

/**
 * The first half of an attempt as the asking key may see it: a request of a channel the key is
 * not enabled for is not found, exactly as an unknown one (no oracle).
 */
export function attemptReadFor(
  read: Array<Record<string, unknown>>,
  channels: readonly Channel[] | undefined,
): ReturnType<typeof attemptRead> {
  const seen = attemptRead(read);
  return seen.request && channels && !channels.includes(seen.request.channel)
    ? { request: null, live: [] }
    : seen;
}

/** The live row the guess matches, or null: an id that is not one of them matches nothing. */
export function pickWinner(live: LiveCode[], guess: CodeGuess): string | null {
  const id = guess.pick(live);
  return live.some((r) => r.id === id) ? id : null;
}

/** What an attempt did, from the rows its counting statement changed (none: nothing counted). */
export function attemptOutcome(
  request: AttemptTarget,
  guessed: string | null,
  decided: Array<Record<string, unknown>>,
): AttemptOutcome {
  const counted = rowsToCountedAttempt(decided);
  const consumed = guessed !== null && decided.some((r) => r.id === guessed && r.status === 'verified');
  return { request, counted, winnerId: counted ? guessed : null, consumed };
}

/** The columns rowToLinkedRequest reads. */
export const LINKED_SELECT = `id, account_id, group_id, channel, masked, status, expires_at, locale, test,
  link_redirect, (SELECT a.settings FROM accounts a WHERE a.id = account_id) AS account_settings`;

export const rowToLinkedRequest = (r: Record<string, unknown>): LinkedRequest => ({
  id: String(r.id),
  accountId: String(r.account_id),
  groupId: String(r.group_id),
  channel: r.channel as Channel,
  masked: String(r.masked ?? ''),
  status: r.status as VerificationStatus,
  expiresAt: num(r.expires_at),
  locale: asStoredLocale(r.locale),
  mode: rowMode(r.test),
  redirectUrl: strOrNull(r.link_redirect),
  accountSettings:
    typeof r.account_settings === 'string'
      ? (JSON.parse(r.account_settings) as AccountSettings)
      : ((r.account_settings as AccountSettings | null) ?? {}),
});

/**
 * The columns rowToOutboxEntry reads, from `verifications` (unaliased), with `sibling` the store's
 * expression of the row's dual sibling (the other row of its group), read through its indexes.
 */
export const outboxSelect = (sibling: string) =>
  `id, account_id, status, channel, destination, coalesce(address, destination) AS sent_to, outbox, outbox_code,
  test, created_at, verified_at, method, group_id, ${sibling} AS sibling_id`;

/** outboxSelect's sibling where the whole group is in verifications_group (SQLite). */
export const SIBLING_BY_GROUP_INDEX = `(SELECT s.id FROM verifications s
    WHERE s.group_id = verifications.group_id AND s.id <> verifications.id LIMIT 1)`;

export const rowToOutboxEntry = (r: Record<string, unknown>): OutboxEntry => ({
  verificationId: String(r.id),
  groupId: String(r.group_id),
  siblingRequestId: strOrNull(r.sibling_id),
  accountId: String(r.account_id),
  status: r.status as VerificationStatus,
  // Of a verified dual pair only the request whose code matched was verified (the attempt rule
  // stamps the time on both rows): the other shows no time, as on the resource.
  verifiedAt: r.status === 'verified' ? numOrNull(r.verified_at) : null,
  method: methodOf(String(r.status), strOrNull(r.method), String(r.channel)),
  channel: r.channel as Channel,
  to: String(r.destination),
  sentTo: String(r.sent_to),
  content: String(r.outbox),
  code: strOrNull(r.outbox_code),
  mode: rowMode(r.test),
  createdAt: num(r.created_at),
});

/** addOutboxMessage found no request to keep the message on. */
export const noRequestForOutbox = (id: string) =>
  new Error(`no verification request ${id} to keep an outbox message on`);

/** The record of a key just inserted: everything but its hash, which never leaves the store. */
export const newKeyRecord = (k: NewApiKey): ApiKeyRecord => ({
  id: k.id,
  accountId: k.accountId,
  name: k.name,
  prefix: k.prefix,
  channels: k.channels,
  mode: k.mode,
  createdAt: k.createdAt,
  revokedAt: null,
  lastUsedAt: null,
});
