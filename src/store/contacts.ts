import type { BreakerState } from '../domain/pumping-breaker.js';
import type { Channel, DeliveryStatus, VerificationStatus } from '../domain/types.js';
import { BREAKER_COLUMNS, rowToBreaker } from './breakers.js';
import { SETTLED, unfolded } from './journal.js';

/** Contacts as the store keeps them (migration 020), and the SQL both dialects share. */

export interface ContactRecord {
  id: string;
  accountId: string;
  test: boolean;
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
  status: VerificationStatus;
  purpose: string | null;
  provider: string | null;
  deliveryStatus: DeliveryStatus;
  createdAt: number;
  expiresAt: number;
  verifiedAt: number | null;
  risk: string | null;
}

/** What the risk score reads of a destination at send time. */
export interface DestinationSignals {
  /** Its contact as the batch fold made it (its id, whether an operator blocked it); null before its first fold. */
  contact: { id: string; blocked: boolean } | null;
  /** Its requests of this mode that the retention keeps: the history the score reads (not the contact's counters, which the fold keeps a moment behind). */
  history: { sends: number; verified: number; wrongCodes: number };
  /** Sends to it in the last hour. */
  sendsLastHour: number;
  /** Other numbers of the same block the account sent to in the last hour. */
  neighboursLastHour: number;
  /** The account's SMS/WhatsApp sends and verifications for this country and mode in the current and the previous clock hour. */
  countryHour: { sent: number; verified: number };
  /** The SMS-pumping breaker of the account, mode and country, read with the rest; null when none (or no country). */
  breaker: BreakerState | null;
}

const num = (v: unknown) => Number(v ?? 0);
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

export const rowToContact = (r: Record<string, unknown>): ContactRecord => ({
  id: String(r.id),
  accountId: String(r.account_id),
  test: r.test === true || r.test === 1,
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
  status: r.status as VerificationStatus,
  purpose: r.purpose === null ? null : String(r.purpose),
  provider: r.provider === null ? null : String(r.provider),
  deliveryStatus: r.delivery_status as DeliveryStatus,
  createdAt: num(r.created_at),
  expiresAt: num(r.expires_at),
  verifiedAt: r.verified_at === null ? null : num(r.verified_at),
  risk: r.risk === null || r.risk === undefined ? null : String(r.risk),
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

/** The signals of a row with historyColumns, the contact's id and blocked_at (null when none) and the rest. */
export const rowToSignals = (r: Record<string, unknown>): DestinationSignals => ({
  contact: r.id === null || r.id === undefined ? null : { id: String(r.id), blocked: r.blocked_at != null },
  history: { sends: num(r.h_sends), verified: num(r.h_verified), wrongCodes: num(r.h_wrong_codes) },
  sendsLastHour: num(r.h_last_hour),
  neighboursLastHour: num(r.neighbours),
  countryHour: { sent: num(r.country_sent), verified: num(r.country_verified) },
  breaker: r.breaker_country == null ? null : rowToBreaker(unprefixed(r, 'breaker_')),
});

/** The risk screen's columns of the breaker `b` (pumping_breakers), named apart from the rest of its row. */
export const breakerColumns = BREAKER_COLUMNS.map((c) => `b.${c} AS breaker_${c}`).join(', ');

const unprefixed = (r: Record<string, unknown>, prefix: string) =>
  Object.fromEntries(BREAKER_COLUMNS.map((c) => [c, r[prefix + c]]));

/** The number block a phone number belongs to (all but its last two digits), for the burst signal. */
export const numberBlock = (destination: string) =>
  destination.startsWith('+') && destination.length > 6 ? destination.slice(0, -2) : null;

/** The id of the contact of `destination` in `account` and mode `test`, as a scalar subquery (null when none). */
export const contactIdOf = (account: string, destination: string, test: string) =>
  `(SELECT k.id FROM contacts k WHERE k.account_id = ${account} AND k.destination = ${destination} AND k.test = ${test})`;

/**
 * The contact id a new request names, as SQL over its `account`, `destination`, `test` and the
 * `proposed` id (both dialects): its contact's, else the id its earlier requests name (a contact
 * not folded yet), else the proposed one, which the service makes time-ordered so that a new
 * contact lands at the end of the id index instead of on a page of its own. On SQLite this runs
 * in the write unit, so two sends to a new destination cannot name two ids; on PostgreSQL two
 * sends in concurrent transactions can (see docs/analytics.md, Contacts).
 */
export const keptContactId = (account: string, destination: string, test: string, proposed: string) =>
  `coalesce(${contactIdOf(account, destination, test)},
    (SELECT w.contact_id FROM verifications w WHERE w.destination = ${destination} AND w.account_id = ${account}
      AND w.test = ${test} AND w.contact_id IS NOT NULL LIMIT 1),
    ${proposed})`;

/** The contacts SQL of one dialect (`?` placeholders numbered for PostgreSQL). */
export function contactSql(dialect: 'sqlite' | 'postgres') {
  const fix = dialect === 'postgres' ? numbered : (s: string) => s;
  const cast = (type: string) => (dialect === 'postgres' ? `?::${type}` : '?');
  const bool = (column: string) => (dialect === 'postgres' ? `${column} = ?::boolean` : `${column} = ?`);
  // A contact's wrong codes are folded when their request settles (migration 080): those of its
  // requests still pending, or settled but not folded yet, are added from the requests.
  const columns = `c.id, c.account_id, c.test, c.destination, c.channel, c.masked, c.first_seen, c.last_seen,
    c.sends, c.verified, c.failed, c.blocked_at, c.blocked_reason, c.risk, c.wrong_codes + (
      SELECT coalesce(sum(v.wrong_codes), 0) FROM verifications v
      WHERE v.destination = c.destination AND v.account_id = c.account_id AND v.test = c.test
        AND v.wrong_codes > 0 AND (v.status = 'pending' OR v.id IN (
          SELECT e.request_id FROM events e WHERE ${unfolded(dialect)} AND e.type IN (${SETTLED})))
    ) AS wrong_codes`;
  return {
    get: fix(`SELECT ${columns} FROM contacts c WHERE c.id = ?`),
    // Prefix search: a range on the destination within one account (index contacts_destination).
    search: fix(
      `SELECT ${columns} FROM contacts c WHERE c.account_id = ? AND c.destination >= ? AND c.destination < ?
       ORDER BY c.destination, c.test LIMIT ?`,
    ),
    // By destination (its index): contact_id has no index, and on PostgreSQL a request can name
    // another id for the same contact (keptContactId).
    history: fix(
      `SELECT id, channel, status, purpose, provider, delivery_status, created_at, expires_at, verified_at, risk
       FROM verifications WHERE destination = ? AND account_id = ? AND ${bool('test')}
       ORDER BY id DESC LIMIT ?`,
    ),
    // Phone sends to a country by the hour, kept in the statement of each change (migration 060),
    // so a send sees the one just before it.
    countryHour: fix(
      `SELECT coalesce(sum(sent), 0) AS sent, coalesce(sum(verified), 0) AS verified FROM country_window
       WHERE account_id = ? AND ${bool('test')} AND hour >= ? AND country = ?`,
    ),
    block: fix('UPDATE contacts SET blocked_at = ?, blocked_reason = ? WHERE id = ?'),
    // The block's event, from the contact row just changed (same transaction).
    blockEvent: fix(
      `INSERT INTO events (id, account_id, test, type, channel, to_masked, contact_id, created_at, data)
       SELECT ${cast('text')}, account_id, test, ${cast('text')}, channel, masked, id, ${cast('bigint')},
         ${cast('jsonb')} FROM contacts WHERE id = ?`,
    ),
  };
}

/** The end of a prefix range: every string that starts with `prefix` sorts below it. */
export const prefixEnd = (prefix: string) => `${prefix}\u{10FFFF}`;
