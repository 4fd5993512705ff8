import { TTV_BIN_EDGES } from '../domain/analytics.js';
import { contactIdOf } from './contacts.js';
import { SETTLED } from './journal.js';

/**
 * The batch fold of the journal into the analytics buckets (migration 060) and the contacts
 * (migration 070), shared by both dialects: `batch` is a predicate on `e` (events) naming the
 * rows of one batch, which the caller holds (SQLite: a range of seq past the cursor; PostgreSQL:
 * locked rows not yet folded). Each table gets one grouped statement per batch, in key order so
 * that two folds lock rows in the same order. Every count goes to the hour (and day) its request
 * was sent in (its cohort).
 */
export function foldSql(dialect: 'sqlite' | 'postgres', batch: string) {
  const yes = dialect === 'postgres' ? 'true' : '1';
  const cohort = 'coalesce(v.created_at, e.created_at)';
  const key = (width: number) =>
    `e.account_id, e.test, ${cohort} - ${cohort} % ${width}, e.channel, coalesce(e.country, ''), coalesce(e.purpose, '')`;
  const count = (type: string) => `sum(CASE WHEN e.type = 'verification.${type}' THEN 1 ELSE 0 END)`;
  // A request's wrong codes count when it settles (migration 080); those journaled as rows of
  // their own before that migration count as they were.
  const wrongCodes = `sum(CASE WHEN e.type IN (${SETTLED}) THEN coalesce(v.wrong_codes, 0)
    WHEN e.type = 'verification.attempt_failed' THEN 1 ELSE 0 END)`;
  // A send counts under the provider that took the message; when the fold comes first, under ''
  // (the request is marked sent_unplaced and trigger journal_provider moves it later).
  const provider = `CASE WHEN e.type = 'verification.created' THEN coalesce(v.provider, '') ELSE coalesce(e.provider, '') END`;
  const sums = (table: string, time: string, width: number) =>
    `INSERT INTO ${table} AS a (account_id, test, ${time}, channel, country, purpose, provider, sent, delivered,
       undelivered, verified, failed, expired, canceled, wrong_codes)
     SELECT ${key(width)}, ${provider}, ${count('created')}, ${count('delivered')}, ${count('undelivered')},
       ${count('verified')}, ${count('failed')}, ${count('expired')}, ${count('canceled')}, ${wrongCodes}
     FROM events e LEFT JOIN verifications v ON v.id = e.request_id
     WHERE ${batch} AND e.channel IS NOT NULL AND e.type IN ('verification.created', 'verification.delivered',
       'verification.undelivered', 'verification.verified', 'verification.failed', 'verification.expired',
       'verification.canceled', 'verification.attempt_failed')
     GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
     ON CONFLICT (account_id, test, ${time}, channel, country, purpose, provider) DO UPDATE SET
       sent = a.sent + excluded.sent, delivered = a.delivered + excluded.delivered,
       undelivered = a.undelivered + excluded.undelivered, verified = a.verified + excluded.verified,
       failed = a.failed + excluded.failed, expired = a.expired + excluded.expired,
       canceled = a.canceled + excluded.canceled, wrong_codes = a.wrong_codes + excluded.wrong_codes`;
  const seconds = '(v.verified_at - v.created_at) / 1000.0';
  const bin = `CASE ${TTV_BIN_EDGES.map((b, i) => `WHEN ${seconds} <= ${b} THEN ${i}`).join(' ')} ELSE ${TTV_BIN_EDGES.length} END`;
  const ttv = (table: string, time: string, width: number) =>
    `INSERT INTO ${table} AS t (account_id, test, ${time}, channel, country, purpose, provider, bin, count)
     SELECT ${key(width)}, coalesce(e.provider, ''), ${bin}, count(*)
     FROM events e JOIN verifications v ON v.id = e.request_id
     WHERE ${batch} AND e.type = 'verification.verified' AND v.verified_at IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
     ON CONFLICT (account_id, test, ${time}, channel, country, purpose, provider, bin) DO UPDATE SET
       count = t.count + excluded.count`;
  // Contacts (migration 070): made on their first send and counted here, not on the hot path. A
  // send names its contact's id (keptContactId in contacts.ts), and the contact is made under the
  // id of the latest send of its first batch; the latest send of a batch sets what a contact shows
  // of its last send (channel, masked destination, risk).
  const later = (column: string) =>
    `${column} = CASE WHEN excluded.last_seen >= c.last_seen THEN excluded.${column} ELSE c.${column} END`;
  const counted = `e.seq > coalesce((SELECT from_seq FROM contacts_fold), 0)`;
  const contactSends = `INSERT INTO contacts AS c (id, account_id, test, destination, channel, masked, first_seen,
       last_seen, sends, risk)
     SELECT contact_id, account_id, test, destination, channel, masked, first_seen, created_at, sends, risk FROM (
       SELECT v.contact_id, v.account_id, v.test, v.destination, v.channel, coalesce(v.masked, e.to_masked, '') AS masked,
         v.created_at, v.risk, min(v.created_at) OVER w AS first_seen, count(*) OVER w AS sends,
         row_number() OVER (PARTITION BY v.account_id, v.destination, v.test ORDER BY v.created_at DESC, v.id DESC) AS latest
       FROM events e JOIN verifications v ON v.id = e.request_id
       WHERE ${batch} AND ${counted} AND e.type = 'verification.created' AND v.contact_id IS NOT NULL
       WINDOW w AS (PARTITION BY v.account_id, v.destination, v.test)
     ) s WHERE latest = 1
     ORDER BY account_id, destination, test
     ON CONFLICT (account_id, destination, test) DO UPDATE SET sends = c.sends + excluded.sends,
       first_seen = ${dialect === 'postgres' ? 'least' : 'min'}(c.first_seen, excluded.first_seen),
       ${later('channel')}, ${later('masked')}, ${later('risk')},
       last_seen = ${dialect === 'postgres' ? 'greatest' : 'max'}(c.last_seen, excluded.last_seen)`;
  // On PostgreSQL two first sends to a destination in concurrent transactions can name two ids
  // (keptContactId): outcomes count on the contact of the request's destination, and on the id
  // the row names only when its request is gone. On SQLite a request always names its contact's id.
  const contactOf =
    dialect === 'postgres'
      ? `coalesce(${contactIdOf('v.account_id', 'v.destination', 'v.test')}, e.contact_id)`
      : 'e.contact_id';
  const contactOutcomes = `UPDATE contacts AS c SET verified = c.verified + o.verified, failed = c.failed + o.failed,
       wrong_codes = c.wrong_codes + o.wrong_codes
     FROM (
       SELECT ${contactOf} AS contact_id, ${count('verified')} AS verified, ${count('failed')} AS failed,
         ${wrongCodes} AS wrong_codes
       FROM events e LEFT JOIN verifications v ON v.id = e.request_id
       WHERE ${batch} AND ${counted} AND e.contact_id IS NOT NULL
         AND e.type IN (${SETTLED}, 'verification.attempt_failed')
       GROUP BY 1 ORDER BY 1
     ) o
     WHERE c.id = o.contact_id`;
  return {
    // A message the outbox kept never gets a provider: nothing to move later, so no row to mark.
    markUnplaced: `UPDATE verifications SET sent_unplaced = ${yes}
      WHERE provider IS NULL AND delivery_status <> 'outbox' AND id IN (
        SELECT e.request_id FROM events e WHERE ${batch} AND e.type = 'verification.created')`,
    upserts: [
      sums('analytics_hourly', 'hour', 3_600_000),
      sums('analytics_daily', 'day', 86_400_000),
      ttv('analytics_ttv', 'hour', 3_600_000),
      ttv('analytics_ttv_daily', 'day', 86_400_000),
      // Sends first: a contact made in this batch is then there for its outcomes.
      contactSends,
      contactOutcomes,
    ],
  };
}
