import type {
  ContactHistoryEntry,
  ContactListFilter,
  ContactRecord,
  DestinationSignals,
} from '../domain/ports/read-model.js';
import type { Channel, DeliveryStatus, Mode, VerificationStatus } from '../domain/types.js';
import { methodOf } from '../domain/verification/method.js';
import { BREAKER_COLUMNS, rowToBreaker } from './breakers.js';
import { modeColumn, rowMode } from './mode.js';
import { placeholdersFor } from './placeholders.js';
import { TO_DESTINATION } from './postgres/request-reads.js';

/** Contacts as the store keeps them (migration 020), and the SQL both dialects share. */

const num = (v: unknown) => Number(v ?? 0);

export const rowToContact = (r: Record<string, unknown>): ContactRecord => ({
  id: String(r.id),
  accountId: String(r.account_id),
  mode: rowMode(r.test),
  destination: String(r.destination),
  channel: r.channel as Channel,
  masked: String(r.masked),
  firstSeen: num(r.first_seen),
  lastSeen: num(r.last_seen),
  counts: {
    sends: num(r.sends),
    verified: num(r.verified),
    failed: num(r.failed),
    wrongCodes: num(r.wrong_codes),
  },
  blocked:
    r.blocked_at === null || r.blocked_at === undefined
      ? null
      : { at: num(r.blocked_at), reason: r.blocked_reason === null ? null : String(r.blocked_reason) },
  risk: r.risk === null || r.risk === undefined ? null : String(r.risk),
});

export const rowToHistory = (r: Record<string, unknown>): ContactHistoryEntry => ({
  requestId: String(r.id),
  channel: r.channel as Channel,
  address: String(r.address),
  status: r.status as VerificationStatus,
  purpose: r.purpose === null ? null : String(r.purpose),
  provider: r.provider === null ? null : String(r.provider),
  deliveryStatus: r.delivery_status as DeliveryStatus,
  deliveryError:
    r.delivery_error === null || r.delivery_error === undefined ? null : String(r.delivery_error),
  createdAt: num(r.created_at),
  expiresAt: num(r.expires_at),
  // Of a verified dual pair only the request whose code matched was verified (the attempt rule
  // stamps the time on both rows), as the resource says.
  verifiedAt: r.status === 'verified' && r.verified_at !== null ? num(r.verified_at) : null,
  method: methodOf(
    String(r.status),
    r.method === null || r.method === undefined ? null : String(r.method),
    String(r.channel),
  ),
  risk: r.risk === null || r.risk === undefined ? null : String(r.risk),
  link: r.link === true || r.link === 1,
});

/**
 * The risk screen's read of one destination, as columns of one row over its requests `v` (both
 * dialects): sends, those of the last hour (after `hourAgo`), those verified (a group's right code
 * sets verified_at on every row of it) and wrong codes (each row counts its group's attempts, the
 * right one included).
 */
export const historyColumns = (hourAgo: string) => {
  const verified = 'coalesce(sum(CASE WHEN v.verified_at IS NOT NULL THEN 1 ELSE 0 END), 0)';
  return `count(*) AS h_sends, coalesce(sum(CASE WHEN v.created_at > ${hourAgo} THEN 1 ELSE 0 END), 0) AS h_last_hour,
    ${verified} AS h_verified, coalesce(sum(v.attempts), 0) - ${verified} AS h_wrong_codes`;
};

/** The signals of a row with historyColumns, the contact's blocked_at (null when none) and the rest. */
export const rowToSignals = (r: Record<string, unknown>): DestinationSignals => ({
  blocked: r.blocked_at != null,
  history: { sends: num(r.h_sends), verified: num(r.h_verified), wrongCodes: num(r.h_wrong_codes) },
  sendsLastHour: num(r.h_last_hour),
  neighboursLastHour: num(r.neighbours),
  breaker: r.breaker_country == null ? null : rowToBreaker(unprefixed(r, 'breaker_')),
});

/** The risk screen's columns of the breaker `b` (pumping_breakers), named apart from the rest of its row. */
export const breakerColumns = BREAKER_COLUMNS.map((c) => `b.${c} AS breaker_${c}`).join(', ');

const unprefixed = (r: Record<string, unknown>, prefix: string) =>
  Object.fromEntries(BREAKER_COLUMNS.map((c) => [c, r[prefix + c]]));

/** The number block a phone number belongs to (all but its last two digits), for the burst signal. */
export const numberBlock = (destination: string) =>
  destination.startsWith('+') && destination.length > 6 ? destination.slice(0, -2) : null;

/** The contacts SQL of one dialect (`?` placeholders numbered for PostgreSQL). */
export function contactSql(dialect: 'sqlite' | 'postgres') {
  const fix = (sql: string) => placeholdersFor(dialect, sql);
  const bool = (column: string) => (dialect === 'postgres' ? `${column} = ?::boolean` : `${column} = ?`);
  // A parameter PostgreSQL meets first in `IS NULL` needs its type said.
  const typed = (type: string) => (dialect === 'postgres' ? `?::${type}` : '?');
  // A contact's wrong codes are folded when their request settles: those of its requests still
  // pending are added from the requests (reads fold the settled ones first).
  const columns = `c.id, c.account_id, c.test, c.destination, c.channel, c.masked, c.first_seen, c.last_seen,
    c.sends, c.verified, c.failed, c.blocked_at, c.blocked_reason, c.risk, c.wrong_codes + (
      SELECT coalesce(sum(v.wrong_codes), 0) FROM verifications v
      WHERE v.destination = c.destination AND v.account_id = c.account_id AND v.test = c.test
        AND v.wrong_codes > 0 AND v.status = 'pending'
    ) AS wrong_codes`;
  // The requests to the destination of the first parameter, as a FROM item.
  const requestsTo =
    dialect === 'postgres'
      ? `(SELECT ?::text AS asked) q CROSS JOIN LATERAL ${TO_DESTINATION((d) => `${d}.destination = q.asked`)} v`
      : '(SELECT * FROM verifications WHERE destination = ?) v';
  return {
    get: fix(`SELECT ${columns} FROM contacts c WHERE c.id = ?`),
    // Prefix search: a range on the destination within one account (index contacts_destination).
    search: fix(
      `SELECT ${columns} FROM contacts c WHERE c.account_id = ? AND c.destination >= ? AND c.destination < ?
         AND (${typed('boolean')} IS NULL OR ${bool('c.test')})
       ORDER BY c.destination, c.test LIMIT ?`,
    ),
    // Most recently seen first, one page after the cursor (last_seen, id) when one is given; a
    // null mode is both. No index on last_seen: the fold moves it on every send, and an index on
    // it would stop those updates from staying in place (PostgreSQL HOT), so a page sorts the
    // account's contacts (found by contacts_destination) instead.
    recent: fix(
      `SELECT ${columns} FROM contacts c WHERE c.account_id = ?
         AND (${typed('boolean')} IS NULL OR ${bool('c.test')})
         AND (${typed('bigint')} IS NULL OR c.last_seen < ${typed('bigint')}
           OR (c.last_seen = ${typed('bigint')} AND c.id < ${typed('text')}))
       ORDER BY c.last_seen DESC, c.id DESC LIMIT ?`,
    ),
    // A contact's requests are those to its destination (SQLite: index verifications_destination;
    // PostgreSQL: TO_DESTINATION).
    history: fix(
      `SELECT id, channel, coalesce(address, destination) AS address, status, purpose, provider, delivery_status,
         delivery_error, created_at, expires_at, verified_at, method, risk, link_hash IS NOT NULL AS link
       FROM ${requestsTo} WHERE account_id = ? AND ${bool('test')}
       ORDER BY id DESC LIMIT ?`,
    ),
    block: fix('UPDATE contacts SET blocked_at = ?, blocked_reason = ? WHERE id = ?'),
  };
}

/** A mode filter as the dialect binds it: null for both modes. */
const modeParam = (mode: Mode | undefined, dialect: 'sqlite' | 'postgres') =>
  mode === undefined ? null : modeColumn(mode, dialect);

/** The parameters of contactSql's `search`, in order. */
export const searchParams = (
  accountId: string,
  prefix: string,
  limit: number,
  mode: Mode | undefined,
  dialect: 'sqlite' | 'postgres',
) => {
  const test = modeParam(mode, dialect);
  return [accountId, prefix, prefixEnd(prefix), test, test, limit];
};

/** The parameters of contactSql's `recent`, in order (booleans as the dialect writes them). */
export const recentParams = (filter: ContactListFilter, dialect: 'sqlite' | 'postgres') => {
  const test = modeParam(filter.mode, dialect);
  const lastSeen = filter.after?.lastSeen ?? null;
  return [filter.accountId, test, test, lastSeen, lastSeen, lastSeen, filter.after?.id ?? null, filter.limit];
};

/** The end of a prefix range: every string that starts with `prefix` sorts below it. */
export const prefixEnd = (prefix: string) => `${prefix}\u{10FFFF}`;
