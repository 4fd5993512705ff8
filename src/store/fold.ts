import { TTV_BIN_EDGES } from '../domain/analytics.js';
import { DAY_MS, HOUR_MS } from '../domain/clock.js';
import { methodOf } from '../domain/verification/method.js';
import type { WebhookEvent, WebhookEventType } from '../webhooks/events.js';
import { SETTLED_KINDS } from './changes.js';
import { rowMode } from './mode.js';

/** The counters of an analytics bucket, in the tables' column order. */
const SUMS = [
  'sent',
  'delivered',
  'undelivered',
  'verified',
  'failed',
  'expired',
  'canceled',
  'wrong_codes',
  // SILENT requests that fell back to a code (migration 176).
  'fell_back',
];
/** An analytics bucket's key after its time column. */
const BUCKET = 'channel, country, purpose, provider, method';
/**
 * A request's `method` in the buckets (migration 177): `link` when its email carried a magic link
 * beside the code, else `code`. Every count of the request goes under it, so a bucket's conversion
 * compares link emails with code-only sends.
 */
export const OFFERED_METHOD_SQL = (alias: string) =>
  `CASE WHEN ${alias}.link_hash IS NULL THEN 'code' ELSE 'link' END`;
/** The columns of a batch's hourly counts (`sumsByHour`), and of its hourly histogram (`ttvByHour`). */
export const HOURLY_SUMS_COLUMNS = `account_id, test, hour, ${BUCKET}, ${SUMS.join(', ')}`;
export const HOURLY_TTV_COLUMNS = `account_id, test, hour, ${BUCKET}, bin, count`;
/** `1, 2, …, n`: the first n columns, to group or order by. */
const firstColumns = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(', ');

/** The change kinds a contact counts (its sends, and how they settled). */
const CONTACT_KINDS = `'created', ${SETTLED_KINDS}`;

/**
 * The fold of the change log (migration 100) into what is read later: the hourly and daily
 * analytics buckets, the seconds-to-verify histograms, the contacts, and the events webhooks
 * announce. SQL shared by both dialects over `rows`, a relation `c` of one batch of changes
 * (SQLite: a range of seq in the one writer's transaction, each change's request joined where it
 * is read; PostgreSQL: `perChange`'s rows, each change with its request's columns, its contact and
 * the sums of that contact in the batch, read once). Counts go to the hour (and day) their request
 * was sent in (its cohort). Every part adds, so batches fold in any order.
 *
 * The batch is grouped once per hour (`sumsByHour`, `ttvByHour`: the join with the requests and
 * the sort are most of the fold's cost); each table's upsert then reads those few rows from
 * `sources` (SQLite: temporary tables filled from them; PostgreSQL: CTEs), a day adding up its
 * hours. Every table gets one grouped upsert per batch, in key order so that two folds lock rows
 * in the same order.
 */
export function foldSql(
  dialect: 'sqlite' | 'postgres',
  rows: string,
  sources: { sums: string; ttv: string },
) {
  const pg = dialect === 'postgres';
  // A row of `table` joined to each change by `on`: on PostgreSQL looked up by its index for each
  // change (LATERAL … OFFSET 0), never a join the planner may make a hash join over the whole
  // table, as it did for a prepared fold's plan kept for a table it had measured small (every
  // batch then read every request). SQLite looks a join up by its index anyway.
  const joinEach = (table: string, alias: string, on: string, left = false) =>
    pg
      ? `${left ? 'LEFT' : 'CROSS'} JOIN LATERAL (SELECT * FROM ${table} ${alias} WHERE ${on} OFFSET 0) ${alias}${left ? ' ON true' : ''}`
      : `${left ? 'LEFT ' : ''}JOIN ${table} ${alias} ON ${on}`;
  // Where a change's request is read: on PostgreSQL the change's row carries its request's columns
  // (perChange; `c.id` is null when the request is gone), on SQLite the request is joined to it.
  const v = pg ? 'c' : 'v';
  const requestOf = (left = false) => (pg ? '' : joinEach('verifications', 'v', 'v.id = c.request_id', left));
  const withRequest = pg ? ' AND c.id IS NOT NULL' : '';
  const hourOf = `${v}.created_at - ${v}.created_at % ${HOUR_MS}`;
  const key = `${v}.account_id AS account_id, ${v}.test AS test, ${hourOf} AS hour, ${v}.channel AS channel,
       coalesce(${v}.country, '') AS country, coalesce(${v}.purpose, '') AS purpose`;
  const count = (kind: string) => `sum(CASE WHEN c.kind = '${kind}' THEN 1 ELSE 0 END) AS ${kind}`;
  const wrongCodes = `sum(CASE WHEN c.kind IN (${SETTLED_KINDS}) THEN ${v}.wrong_codes ELSE 0 END) AS wrong_codes`;
  // A send counts under '' until its provider is known; the change that names the provider moves
  // it there (one row taken away from '', one added to the provider). The outbox is known at once.
  const sides = `JOIN (SELECT 0 AS side UNION ALL SELECT 1) s ON s.side = 0 OR c.kind = 'dispatched'`;
  const provider = `CASE WHEN c.kind = 'dispatched' AND s.side = 0 THEN '' ELSE coalesce(c.provider, '') END AS provider`;
  const sent = `sum(CASE WHEN c.kind = 'created' THEN 1 WHEN c.kind = 'dispatched' THEN 2 * s.side - 1 ELSE 0 END) AS sent`;
  const method = `${OFFERED_METHOD_SQL(v)} AS method`;
  const sumsByHour = `SELECT ${key}, ${provider}, ${method}, ${sent}, ${count('delivered')}, ${count('undelivered')},
       ${count('verified')}, ${count('failed')}, ${count('expired')}, ${count('canceled')}, ${wrongCodes},
       sum(CASE WHEN c.kind = 'fallback' THEN 1 ELSE 0 END) AS fell_back
     FROM ${rows} ${requestOf()} ${sides}
     WHERE c.kind IN ('created', 'dispatched', 'delivered', 'undelivered', 'fallback', ${SETTLED_KINDS})${withRequest}
     GROUP BY ${firstColumns(8)}`;
  /** The rows of `source` (hourly) as buckets `width` wide: as they are, or added up per day. */
  const buckets = (source: string, width: number, counters: string[], extraKey = '') => {
    const keys = 8 + (extraKey ? 1 : 0);
    if (width === HOUR_MS)
      return `SELECT account_id, test, hour, ${BUCKET}${extraKey}, ${counters.join(', ')} FROM ${source}`;
    return `SELECT account_id, test, hour - hour % ${width}, ${BUCKET}${extraKey}, ${counters.map((n) => `sum(${n})`).join(', ')}
       FROM ${source} GROUP BY ${firstColumns(keys)}`;
  };
  const sums = (table: string, time: string, width: number) =>
    `INSERT INTO ${table} AS a (account_id, test, ${time}, ${BUCKET}, ${SUMS.join(', ')})
     ${buckets(sources.sums, width, SUMS)}
     ORDER BY ${firstColumns(8)}
     ON CONFLICT (account_id, test, ${time}, ${BUCKET}) DO UPDATE SET
       ${SUMS.map((n) => `${n} = a.${n} + excluded.${n}`).join(', ')}`;
  const seconds = `(${v}.verified_at - ${v}.created_at) / 1000.0`;
  const bin = `CASE ${TTV_BIN_EDGES.map((b, i) => `WHEN ${seconds} <= ${b} THEN ${i}`).join(' ')} ELSE ${TTV_BIN_EDGES.length} END`;
  const ttvByHour = `SELECT ${key}, coalesce(c.provider, '') AS provider, ${method}, ${bin} AS bin, count(*) AS count
     FROM ${rows} ${requestOf()}
     WHERE c.kind = 'verified' AND ${v}.verified_at IS NOT NULL
     GROUP BY ${firstColumns(9)}`;
  const ttv = (table: string, time: string, width: number) =>
    `INSERT INTO ${table} AS t (account_id, test, ${time}, ${BUCKET}, bin, count)
     ${buckets(sources.ttv, width, ['count'], ', bin')}
     ORDER BY ${firstColumns(9)}
     ON CONFLICT (account_id, test, ${time}, ${BUCKET}, bin) DO UPDATE SET count = t.count + excluded.count`;
  // A contact is one destination per account and mode, made by the first batch that names it
  // (under a new time-ordered id) and counted by every batch; the latest request of a batch sets
  // what it shows of its last send (channel, masked destination, risk). `from`: the batch's row.
  const later = (column: string, from: string) =>
    `${column} = CASE WHEN ${from}.last_seen >= k.last_seen THEN ${from}.${column} ELSE k.${column} END`;
  const counted = (from: string) => `sends = k.sends + ${from}.sends,
       verified = k.verified + ${from}.verified, failed = k.failed + ${from}.failed,
       wrong_codes = k.wrong_codes + ${from}.wrong_codes,
       first_seen = ${pg ? 'least' : 'min'}(k.first_seen, ${from}.first_seen),
       ${later('channel', from)}, ${later('masked', from)}, ${later('risk', from)},
       last_seen = ${pg ? 'greatest' : 'max'}(k.last_seen, ${from}.last_seen)`;
  const contactColumns =
    'account_id, test, destination, channel, masked, first_seen, last_seen, sends, verified, failed, wrong_codes, risk';
  /** The contacts of `from` inserted under `id`. */
  const insertContacts = (from: string, id: string) => `INSERT INTO contacts AS k (id, ${contactColumns})
     SELECT ${id}, ${contactColumns} FROM ${from}`;
  const sameKey = (a: string, b: string) =>
    `${a}.account_id = ${b}.account_id AND ${a}.destination = ${b}.destination AND ${a}.test = ${b}.test`;
  // Over the requests' columns (`v`: joined to the changes on SQLite, looked up by perChange).
  const perContact = 'PARTITION BY v.account_id, v.destination, v.test';
  const isContactKind = `c.kind IN (${CONTACT_KINDS})`;
  // A contact's sums over the batch's changes to it (a window over its destination), and which
  // change is its latest send (latest = 1: a change it counts, the request sent last). On SQLite
  // the rows are the changes a contact counts already; on PostgreSQL they are every change.
  const ofContact = (expr: string) => (pg ? `CASE WHEN ${isContactKind} THEN ${expr} END` : expr);
  const contactSums = `min(${ofContact('v.created_at')}) OVER w AS first_seen,
         max(${ofContact('v.created_at')}) OVER w AS last_seen,
         sum(CASE WHEN c.kind = 'created' THEN 1 ELSE 0 END) OVER w AS sends,
         sum(CASE WHEN c.kind = 'verified' THEN 1 ELSE 0 END) OVER w AS verified,
         sum(CASE WHEN c.kind = 'failed' THEN 1 ELSE 0 END) OVER w AS failed,
         sum(CASE WHEN c.kind IN (${SETTLED_KINDS}) THEN v.wrong_codes ELSE 0 END) OVER w AS contact_wrong_codes,
         row_number() OVER (${perContact} ORDER BY ${pg ? `${isContactKind} DESC, ` : ''}v.created_at DESC, v.id DESC, c.seq DESC) AS latest`;
  // The UUIDv7 of a new contact, written out inline (a call per row to a function with its own
  // query cost more than the rest of the PostgreSQL fold together): the time of its first send, and
  // random bits (PostgreSQL: those of `randomUuid`, its variant's too).
  const uuid7 = (time: string, randomUuid = 'gen_random_uuid()') => {
    const hex = pg ? `lpad(to_hex(${time}), 12, '0')` : `printf('%012x', ${time})`;
    return pg
      ? `overlay(overlay(overlay((${randomUuid})::text PLACING substr(${hex}, 1, 8) FROM 1 FOR 8)
        PLACING substr(${hex}, 9, 4) FROM 10 FOR 4) PLACING '7' FROM 15 FOR 1)`
      : `lower(substr(${hex}, 1, 8) || '-' || substr(${hex}, 9, 4)
        || '-7' || substr(hex(randomblob(2)), 2, 3) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1)
        || substr(hex(randomblob(2)), 2, 3) || '-' || hex(randomblob(6)))`;
  };
  /**
   * PostgreSQL: each change of `batch` with what every part of the fold reads of it, looked up
   * once: its request's columns, the contact of the request's destination as it stood (`known`),
   * its contact's sums in the batch, and its contact's id: the known one, or the new one this
   * batch makes (a random UUID drawn for the first change to it, under the contact's first send),
   * the same on every change to it, so that the events read it without a join with the inserted
   * rows. The random UUID is a column of a subquery of its own, so that the window reads one value
   * of it; it is drawn only where the contact is not known. `batch`'s rows: seq, part (a change's
   * place in its set, postgres/fold.ts), kind, at (null: the request's created_at), request_id,
   * contact_id, provider.
   */
  const perChange = (batch: string) => `SELECT c.seq, c.part, c.kind, coalesce(c.at, v.created_at) AS at,
         c.request_id, c.contact_id, c.provider,
         v.id, v.account_id, v.test, v.group_id, v.channel, v.destination, v.country, v.purpose, v.locale,
         v.masked, v.risk, v.created_at, v.verified_at, v.link_hash, v.wrong_codes, v.status, v.method,
         v.delivery_status, v.delivery_error, e.id AS known, ${contactSums},
         coalesce(e.id, CASE WHEN bool_or(${isContactKind}) OVER w
           THEN ${uuid7(`min(${ofContact('v.created_at')}) OVER w`, 'first_value(r.fresh) OVER w')} END) AS contact
       FROM ${batch} c ${joinEach('verifications', 'v', 'v.id = c.request_id', true)}
       ${joinEach('contacts', 'e', sameKey('e', 'v'), true)}
       CROSS JOIN LATERAL (SELECT CASE WHEN e.id IS NULL THEN gen_random_uuid() END AS fresh OFFSET 0) r
       WINDOW w AS (${perContact})`;
  /** The batch's contacts, one row each with its counts and its latest send (SQLite). */
  const contactBatch = `SELECT ${contactColumns.replace('wrong_codes', 'contact_wrong_codes AS wrong_codes')} FROM (
       SELECT v.account_id, v.test, v.destination, v.channel, coalesce(v.masked, '') AS masked, v.risk, ${contactSums}
       FROM ${rows} ${requestOf()}
       WHERE ${isContactKind}
       WINDOW w AS (${perContact})
     ) s WHERE latest = 1`;
  // SQLite: one upsert, in key order, a new contact under a new id.
  const contacts = `${insertContacts(`(${contactBatch}) b`, uuid7('first_seen'))}
     ORDER BY account_id, destination, test
     ON CONFLICT (account_id, destination, test) DO UPDATE SET ${counted('excluded')}`;
  // PostgreSQL: the batch's contacts (`contactsKnown`, from perChange's rows: each with its id and
  // whether it was known), the new ones apart from the known ones. A new contact is inserted
  // plainly: through the upsert its insert would be speculative, confirmed by a WAL record of its
  // own (48 bytes a send). A known one goes through the upsert, which finds it by its key for each
  // row whatever the batch's size (an UPDATE … FROM the batch is a join, planned for the batch at
  // hand), under the id it has (no contact is ever deleted, so it always meets its row).
  // The fold's advisory lock keeps any other fold from making the same contact meanwhile
  // (postgres/fold.ts: beside an older version that takes none, the insert may meet its contact,
  // and the batch is rolled back and run again).
  const contactsKnown = `SELECT c.account_id, c.test, c.destination, c.channel, coalesce(c.masked, '') AS masked,
       c.first_seen, c.last_seen, c.sends, c.verified, c.failed, c.contact_wrong_codes AS wrong_codes, c.risk,
       c.contact AS id, c.known
     FROM ${rows} WHERE c.latest = 1 AND ${isContactKind}${withRequest}`;
  const contactsApart = (from: string) => ({
    made: `${insertContacts(`${from} b`, 'id')} WHERE known IS NULL ORDER BY account_id, destination, test`,
    counted: `${insertContacts(`${from} b`, 'known')} WHERE known IS NOT NULL ORDER BY account_id, destination, test
     ON CONFLICT (account_id, destination, test) DO UPDATE SET ${counted('excluded')}`,
  });
  // What webhooks announce of each change: the request or contact it names, with the contact of a
  // request's destination (PostgreSQL: perChange's, made before or by this very statement; SQLite:
  // read after this batch's contacts were written). A dispatched change only moves a count:
  // rowToWebhookEvent makes no event of it.
  const sameContact = (alias: string) =>
    `${alias}.account_id = v.account_id AND ${alias}.destination = v.destination AND ${alias}.test = v.test`;
  const events = `SELECT c.seq, c.kind, c.at, c.request_id, c.provider,
       coalesce(${v}.account_id, k.account_id) AS account_id, coalesce(${v}.test, k.test) AS test, ${v}.group_id,
       coalesce(${v}.channel, k.channel) AS channel, ${v}.country, ${v}.purpose, ${v}.locale,
       coalesce(${v}.masked, k.masked) AS masked, coalesce(k.id, ${pg ? 'c.contact' : 'd.id'}) AS contact_id,
       ${v}.status, ${v}.method, ${v}.delivery_status, ${v}.delivery_error,
       f.channel AS fallback_channel, f.sibling_id AS fallback_request_id, f.reason AS fallback_reason
     FROM ${rows}
     ${requestOf(true)}
     ${joinEach('silent_fallbacks', 'f', "c.kind = 'fallback' AND f.request_id = c.request_id", true)}
     ${pg ? '' : joinEach('contacts', 'd', sameContact('d'), true)}
     ${joinEach('contacts', 'k', 'k.id = c.contact_id', true)}
     ORDER BY c.seq${pg ? ', c.part' : ''}`;
  return {
    sumsByHour,
    ttvByHour,
    upserts: [
      sums('analytics_hourly', 'hour', HOUR_MS),
      sums('analytics_daily', 'day', DAY_MS),
      ttv('analytics_ttv', 'hour', HOUR_MS),
      ttv('analytics_ttv_daily', 'day', DAY_MS),
      contacts,
    ],
    perChange,
    contactsKnown,
    contactsApart,
    events,
  };
}

/** The event of one row of foldSql's `events` (`id`: its new event id); null when it announces none. */
export function rowToWebhookEvent(r: Record<string, unknown>, id: string): WebhookEvent | null {
  const kind = String(r.kind);
  if (kind === 'dispatched' || r.account_id === null || r.account_id === undefined) return null;
  const contact = kind.startsWith('contact.');
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    id,
    type: (contact ? kind : `verification.${kind}`) as WebhookEventType,
    accountId: String(r.account_id),
    mode: rowMode(r.test),
    requestId: str(r.request_id),
    groupId: str(r.group_id),
    contactId: str(r.contact_id),
    channel: str(r.channel),
    toMasked: str(r.masked),
    country: str(r.country),
    purpose: str(r.purpose),
    locale: str(r.locale),
    // A settling change names the status it settled in; a created one, pending; a delivery
    // report, the request's status as it is.
    status: contact ? null : kind === 'created' ? 'pending' : isSettled(kind) ? kind : str(r.status),
    // How it was verified: a request verified before methods were kept was verified by a code.
    method: kind === 'verified' ? methodOf('verified', str(r.method)) : null,
    provider: str(r.provider),
    // What a delivery event says of the delivery (read at the fold: the state it is in by then).
    deliveryStatus: deliveryKind(kind) ? publicDeliveryStatus(str(r.delivery_status)) : null,
    deliveryError: kind === 'undelivered' ? str(r.delivery_error) : null,
    fallback:
      kind === 'fallback' && r.fallback_channel
        ? {
            channel: String(r.fallback_channel),
            requestId: str(r.fallback_request_id),
            reason: str(r.fallback_reason),
          }
        : null,
    createdAt: Number(r.at),
  };
}

const deliveryKind = (kind: string) => kind === 'delivered' || kind === 'undelivered';

/** The delivery state as the API names it: the store's `failed` is `undelivered`. */
const publicDeliveryStatus = (status: string | null) => (status === 'failed' ? 'undelivered' : status);

const isSettled = (kind: string) =>
  kind === 'verified' || kind === 'failed' || kind === 'expired' || kind === 'canceled';
