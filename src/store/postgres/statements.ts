import type { VerificationMethod } from '../../domain/verification/method.js';
import { type AttemptDialect, attemptCountsSql, attemptSetSql, columnsOf } from '../attempt-sql.js';
import { breakerColumns, historyColumns } from '../contacts.js';
import { deliveryChangeSql, progressSql } from '../delivery-sql.js';
import { ATTEMPT_READ_SELECT, LINKED_SELECT, outboxSelect, VERIFICATION_SELECT } from '../rows.js';
import { GROUP_ROWS, IN_GROUP, TO_DESTINATION } from './request-reads.js';

/** The method a used link writes on the request it verified (src/domain/verification/method.ts). */
const LINK: VerificationMethod = 'link';

/** The attempted request's columns (see attemptRead). */
const ATTEMPT_READ = ATTEMPT_READ_SELECT('verifications');

/**
 * The PostgreSQL statements of the store; the same meaning as the SQLite ones, statement by
 * statement. Each statement that changes a request appends its changes (src/store/changes.ts) in
 * a data-modifying CTE of its own, so the change and its record commit together.
 */

/** A statement prepared once per connection under its name. */
export interface Named {
  name: string;
  text: string;
  /**
   * Planned once per connection and that plan kept, on connections that plan without sequential
   * scans (planned-once.ts, PLANNED_ONCE_SETTINGS), instead of planned again at every run (on
   * the main pool when DATABASE_SEND_POOL_SIZE is 0). For a statement whose every table access
   * has an index to take whatever the table's size, and whose planning is a large part of its cost
   * (test/store/postgres.plans.test.ts reads both).
   */
  plannedOnce?: true;
}
const named = (name: string, text: string): Named => ({ name, text });
/** A named statement run on the pool that plans it once per connection (`Named.plannedOnce`). */
const namedPlannedOnce = (name: string, text: string): Named => ({ name, text, plannedOnce: true });

/**
 * The pending rows of one group (one row, two for a dual pair), for statements that look a group
 * up by GROUP_ROWS (request-reads.ts). Written plainly, `status = 'pending'` matches the
 * predicate of the partial index verifications_pending_expiry, and with statistics older than
 * the newest rows (a table that grew since autovacuum last analysed it) the planner ANDed that
 * index with the group index: every attempt read the index entry of every pending row in the
 * table (measured: verify at 400 req/s on a table that had just taken 25,000 sends). Behind
 * `|| ''` the predicate cannot match the partial index, so the group's own indexes alone are
 * used, whatever the statistics say.
 */
const GROUP_PENDING = (alias: string) => `${alias}status || '' = 'pending'`;

/** A row's dual sibling (the other row of its group) in outboxSelect, by GROUP_ROWS. */
const SIBLING = `(SELECT s.id FROM ${GROUP_ROWS('verifications.group_id')} s WHERE s.id <> verifications.id LIMIT 1)`;

/** The attempt rule's names in a batch: the updated row `v`, the attempt's values from CTE `source`. */
const batchAttempt = (source: string): AttemptDialect => ({
  column: columnsOf('v'),
  param: (name) => `${source}.${{ now: 'tried_at', winner: 'winner', guessedOn: 'guessed_on' }[name]}`,
  pending: () => GROUP_PENDING('v.'),
});

/** The attempt rule's names in countOrConsume: the row's columns, $2 winner, $3 time, $4 guessed on. */
const SINGLE_ATTEMPT: AttemptDialect = {
  column: columnsOf(''),
  param: (name) => ({ now: '$3::bigint', winner: '$2::text', guessedOn: '$4::text' })[name],
  pending: () => GROUP_PENDING(''),
};

/**
 * The batch decision of verify attempts, as the CTEs `decided` and `logged` of a statement whose
 * CTE `source` holds, per row to count, its guess's ordinal `n`, the row's `id`, `winner` (the
 * matched row's id, or null), `tried_at` and `guessed_on` (the request the guess was made on):
 * the attempt rule (src/domain/attempt-rule.ts) on each row (counts the attempt while attempts
 * remain, consumes the group when the guess matched, fails it on the last wrong guess, counts a
 * wrong guess on its request, erases a settled row's outbox code), then logs the settled rows.
 * Each row is updated by primary key and re-checked under its lock (the ANY gives the planner the
 * rows' keys: they are fetched by primary key, never by a scan).
 */
const DECIDE = (source: string) => `decided AS (
      UPDATE verifications v
      SET ${attemptSetSql(batchAttempt(source))}
      FROM ${source}
      WHERE v.id = ANY (ARRAY(SELECT id FROM ${source})) AND v.id = ${source}.id
        AND ${attemptCountsSql(batchAttempt(source))}
      RETURNING ${source}.n, ${source}.tried_at, v.id, v.channel, v.country, v.attempts, v.max_attempts, v.status,
        v.provider
    ), logged AS (
      INSERT INTO changes (kind, request_id, at, provider)
      SELECT status, id, tried_at, provider FROM decided WHERE status <> 'pending'
    )`;

const VERIFICATION_COLUMNS = `id, account_id, group_id, channel, destination, delivery_type, country, purpose,
  code_hash, max_attempts, created_at, expires_at, delivery_status, outbox, test`;

export const SQL = {
  insertSetting:
    'INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value',
  getSetting: 'SELECT value FROM settings WHERE name = $1',
  insertAccount: 'INSERT INTO accounts (id, name, settings, created_at) VALUES ($1, $2, $3::jsonb, $4)',
  listAccounts: 'SELECT * FROM accounts ORDER BY created_at, id',
  getAccount: 'SELECT * FROM accounts WHERE id = $1',
  putLogo: `INSERT INTO account_logos (account_id, content_type, data, updated_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (account_id) DO UPDATE SET content_type = excluded.content_type, data = excluded.data,
      updated_at = excluded.updated_at`,
  getLogo: 'SELECT content_type, data, updated_at FROM account_logos WHERE account_id = $1',
  deleteLogo: 'DELETE FROM account_logos WHERE account_id = $1',
  updateAccountSettings: 'UPDATE accounts SET settings = $1::jsonb WHERE id = $2 RETURNING *',
  insertKey: `INSERT INTO api_keys (id, account_id, name, prefix, key_hash, channels, test, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  listKeys: 'SELECT * FROM api_keys ORDER BY created_at, id',
  listKeysOf: 'SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id',
  getKey: 'SELECT * FROM api_keys WHERE id = $1',
  findActiveKey: `SELECT k.*, a.settings AS account_settings FROM api_keys k JOIN accounts a ON a.id = k.account_id
    WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
  revokeKey: 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL',
  updateKey: `UPDATE api_keys SET name = COALESCE($1, name), channels = COALESCE($2, channels)
    WHERE id = $3 AND revoked_at IS NULL RETURNING *`,
  // One statement for a whole batch of uses; never backwards (another process may have written a later one).
  recordKeyUses: `UPDATE api_keys k SET last_used_at = u.at
    FROM unnest($1::text[], $2::bigint[]) AS u(id, at)
    WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.at)`,
  // One statement, its own transaction: the UPDATE cancels the earlier pending requests of these
  // destinations, then the INSERT adds the new ones (the count makes PostgreSQL finish the UPDATE
  // first; an unreferenced data-modifying CTE may run after the main statement), and both append
  // their changes. A send racing this one to the same destination is caught by
  // verifications_one_live and retried.
  // The plan must not depend on the batch's size or the statistics: a join of many fresh rows
  // with the table was planned as a hash join over every pending row, a cost that grows with
  // the table. So each fresh row looks up its pending predecessor in verifications_one_live
  // (OFFSET 0 keeps the lookup from being flattened into such a join), and the predecessors
  // are updated by primary key.
  // Planned once per connection: planning it cost more than running it (0.3–0.6 ms of a batch of
  // about 15 sends, measured with pg_stat_statements under a bench:versus load), and each of its
  // table accesses is by an index (test/store/postgres.plans.test.ts, on a table grown after).
  supersedeAndInsert: namedPlannedOnce('send', sendSql(false)),
  // The same, for a store whose destination filter may have let a send's screen skip its read: a
  // send (a group) with a destination whose contact is blocked is left out whole, and its blocked
  // rows are what the statement returns, by their ordinal `n` (src/store/blocks.ts). Each row
  // looks its contact up among the blocked ones, in contacts_blocked (OFFSET 0, as for the
  // predecessor).
  supersedeAndInsertCheckingBlocks: namedPlannedOnce('send_checked', sendSql(true)),
  getVerification: `SELECT ${VERIFICATION_SELECT} FROM verifications WHERE id = $1 AND account_id = $2 AND test = $3`,
  // A magic link's request, by the keyed hashes of its token ($1: the current secret's, then a
  // previous one's during a rotation), through verifications_link.
  findLink: named(
    'find_link',
    `SELECT ${LINKED_SELECT} FROM verifications WHERE link_hash = ANY ($1::bytea[]) AND link_hash IS NOT NULL LIMIT 1`,
  ),
  // A used link, one statement: the link's request is locked while it is pending and unexpired at
  // $2 (a parallel use waits for the lock, then finds it verified and changes nothing), verified
  // with no attempt counted, the other pending rows of its group canceled, every settled row's
  // outbox code erased, and each settled row's change appended. The request comes back as it was
  // before, with \`consumed\` true when this statement verified it.
  consumeLink: named(
    'consume_link',
    `WITH live AS (
      SELECT id, group_id FROM verifications
      WHERE link_hash = ANY ($1::bytea[]) AND link_hash IS NOT NULL AND status = 'pending' AND expires_at > $2
      FOR UPDATE
    ), settled AS (
      UPDATE verifications v
      SET status = CASE WHEN v.id = live.id THEN 'verified' ELSE 'canceled' END,
        verified_at = CASE WHEN v.id = live.id THEN $2::bigint ELSE v.verified_at END,
        method = CASE WHEN v.id = live.id THEN '${LINK}' ELSE v.method END, outbox_code = NULL
      FROM live WHERE v.id = ANY (ARRAY(SELECT r.id FROM live l CROSS JOIN LATERAL ${GROUP_ROWS('l.group_id')} r))
        AND v.group_id = live.group_id AND ${GROUP_PENDING('v.')}
      RETURNING v.id, v.status, v.provider
    ), logged AS (
      INSERT INTO changes (kind, request_id, at, provider) SELECT status, id, $2, provider FROM settled
    )
    SELECT ${LINKED_SELECT}, EXISTS (SELECT 1 FROM settled WHERE status = 'verified') AS consumed
    FROM verifications WHERE link_hash = ANY ($1::bytea[]) AND link_hash IS NOT NULL LIMIT 1`,
  ),
  // consumeLink for the uses of one event-loop turn, one per token ($1 the current secret's hashes,
  // $2 a previous secret's or nulls, $3 times), as verify attempts are batched: each link's
  // request found by verifications_link, locked and re-checked while pending and unexpired, its
  // group settled and logged as in the single form. Rows carry the use's ordinal \`n\`.
  consumeLinks: named(
    'consume_links',
    `WITH given AS (
      SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::bigint[]) WITH ORDINALITY AS g(hash, previous_hash, used_at, n)
    ), req AS (
      SELECT g.n, g.used_at, r.* FROM given g CROSS JOIN LATERAL (
        SELECT ${LINKED_SELECT}, group_id FROM verifications
        WHERE link_hash IN (g.hash, g.previous_hash) AND link_hash IS NOT NULL LIMIT 1
      ) r
    ), live AS (
      SELECT v.id, v.group_id, req.n, req.used_at FROM req JOIN verifications v ON v.id = req.id
      WHERE v.status = 'pending' AND v.expires_at > req.used_at
      FOR UPDATE OF v
    ), settled AS (
      UPDATE verifications v
      SET status = CASE WHEN v.id = live.id THEN 'verified' ELSE 'canceled' END,
        verified_at = CASE WHEN v.id = live.id THEN live.used_at ELSE v.verified_at END,
        method = CASE WHEN v.id = live.id THEN '${LINK}' ELSE v.method END, outbox_code = NULL
      FROM live WHERE v.id = ANY (ARRAY(SELECT r.id FROM live l CROSS JOIN LATERAL ${GROUP_ROWS('l.group_id')} r))
        AND v.group_id = live.group_id AND ${GROUP_PENDING('v.')}
      RETURNING live.n, v.id, v.status, v.provider, live.used_at
    ), logged AS (
      INSERT INTO changes (kind, request_id, at, provider) SELECT status, id, used_at, provider FROM settled
    )
    SELECT req.*, EXISTS (SELECT 1 FROM settled s WHERE s.n = req.n AND s.status = 'verified') AS consumed
    FROM req`,
  ),
  // The first half of a verify attempt: the request ($1 id, $2 account, $3 mode), and, when it is
  // pending and unexpired at $4, the live rows of its group, whose codes the caller compares with
  // the guess. Nothing is counted here: countOrConsume decides under the rows' locks.
  readGroup: `SELECT req.*, g.id AS counted_id, g.channel AS counted_channel, g.code_hash AS counted_code_hash
    FROM (SELECT ${ATTEMPT_READ} FROM verifications WHERE id = $1 AND account_id = $2 AND test = $3) req
    LEFT JOIN LATERAL (
      SELECT w.id, w.channel, w.code_hash FROM ${GROUP_ROWS('req.group_id')} w
      WHERE req.status = 'pending' AND req.expires_at > $4 AND ${GROUP_PENDING('w.')} AND w.expires_at > $4
      OFFSET 0
    ) g ON true ORDER BY g.id`,
  // The second half, one statement: counts the attempt on the group's pending rows while attempts
  // remain, and when the guess matched ($2, the winner's id) consumes the group in the same
  // update; the last wrong guess fails it. A parallel guess waits for these row locks, then finds
  // the group no longer pending and counts nothing: N parallel right codes verify once and count
  // one attempt. A guess whose update finds nothing has no effect at all, so no more than
  // max_attempts guesses are ever decided, however many were compared. A wrong guess ($2 null) is
  // counted on the request it was made on ($4). Settled rows erase their outbox code and append
  // their changes.
  countOrConsume: named(
    'decide',
    `WITH decided AS (
      UPDATE verifications
      SET ${attemptSetSql(SINGLE_ATTEMPT)}
      WHERE ${IN_GROUP('$1')} AND ${attemptCountsSql(SINGLE_ATTEMPT)}
      RETURNING id, channel, country, attempts, max_attempts, status, provider
    ), logged AS (
      INSERT INTO changes (kind, request_id, at, provider)
      SELECT status, id, $3, provider FROM decided WHERE status <> 'pending'
    )
    SELECT * FROM decided`,
  ),
  // The risk screen's reads for the sends of one event-loop turn ($1 accounts, $2 destinations,
  // $3 modes, $4 an hour ago; for phones also $5 number blocks or nulls, $6 the blocks' ends, $7
  // countries or nulls): each destination's contact as the fold made it, its history from its
  // requests (historyColumns), and for a phone the other numbers of its block sent to in that hour
  // and its country's breaker; one round trip for the turn. A turn of emails only takes the
  // statement without the phone's parts: it is planned on every run, and they were most of that.
  // Rows carry the send's ordinal `n`, and rowToSignals reads them.
  destinationSignals: named('signals', signalsSql(true)),
  destinationSignalsEmail: named('signals_email', signalsSql(false)),
  // readGroup for the guesses of one event-loop turn ($1 ids, $2 accounts, $3 modes, $4 times):
  // each request by primary key, its group by GROUP_ROWS (OFFSET 0 keeps those lookups
  // from being flattened into a join planned over the table). Rows carry the guess's ordinal `n`.
  readGroups: namedPlannedOnce(
    'read_attempts',
    `WITH tried AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::bigint[])
        WITH ORDINALITY AS t(id, account_id, test, tried_at, n)
    )
    SELECT t.n, req.*, g.id AS counted_id, g.channel AS counted_channel, g.code_hash AS counted_code_hash
    FROM tried t
    CROSS JOIN LATERAL (
      SELECT ${ATTEMPT_READ} FROM verifications
      WHERE id = t.id AND account_id = t.account_id AND test = t.test
      OFFSET 0
    ) req
    LEFT JOIN LATERAL (
      SELECT w.id, w.channel, w.code_hash FROM ${GROUP_ROWS('req.group_id')} w
      WHERE req.status = 'pending' AND req.expires_at > t.tried_at AND ${GROUP_PENDING('w.')}
        AND w.expires_at > t.tried_at
      OFFSET 0
    ) g ON true ORDER BY t.n, g.id`,
  ),
  // A whole attempt in one statement, for the guesses of one event-loop turn whose request is the
  // only live row of its group (a single channel, or a dual pair whose sibling has settled): $1
  // ids, $2 accounts, $3 modes, $4 times, $5 the asking key's channels joined by commas (null:
  // all), $6 and $7 the hashes each guess would have on its request under the current secret and
  // a previous one (or null; CodeGuess). It reads what readGroups reads, and for those requests
  // counts the attempt as countOrConsume would, comparing the hashes here: a match verifies, the
  // last wrong guess fails, a wrong guess is counted. The row is updated by primary key and
  // re-checked under its lock, so parallel guesses count no more than the attempts left. A
  // group's rows are made together and never become live again, so "the only live row" read
  // here still holds when the update runs. Rows carry the guess's ordinal `n`, `alone` (the
  // update was tried) and, when it counted, the decided row's columns (decided_*); the caller
  // decides the others as before (countOrConsumeMany). No correlated subquery, which would add to
  // its plan. Like the verify's other two statements, planned once per connection: planning it
  // cost a quarter of its run (0.35 of 1.3 ms a batch, pg_stat_statements under a verify load),
  // and each of its table accesses is by an index (test/store/postgres.plans.test.ts).
  tryAttempts: namedPlannedOnce(
    'try_attempts',
    `WITH tried AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::bigint[], $5::text[], $6::bytea[],
          $7::bytea[])
        WITH ORDINALITY AS t(id, account_id, test, tried_at, scope, hash, previous_hash, n)
    ), req AS (
      SELECT t.n, t.tried_at, t.scope, t.hash, t.previous_hash, r.* FROM tried t CROSS JOIN LATERAL (
        SELECT ${ATTEMPT_READ} FROM verifications
        WHERE id = t.id AND account_id = t.account_id AND test = t.test
        OFFSET 0
      ) r
    ), live AS (
      SELECT req.n, w.id, w.channel, w.code_hash, count(*) OVER (PARTITION BY req.n) AS rows_live,
        req.id = w.id AND (req.scope IS NULL OR req.channel = ANY (string_to_array(req.scope, ',')))
          AS on_request,
        w.code_hash IN (req.hash, req.previous_hash) AS matched, req.tried_at
      FROM req CROSS JOIN LATERAL (
        SELECT w.id, w.channel, w.code_hash FROM ${GROUP_ROWS('req.group_id')} w
        WHERE req.status = 'pending' AND req.expires_at > req.tried_at AND ${GROUP_PENDING('w.')}
          AND w.expires_at > req.tried_at
        OFFSET 0
      ) w
    ), alone AS (
      SELECT n, id, CASE WHEN matched THEN id END AS winner, tried_at, id AS guessed_on
      FROM live WHERE rows_live = 1 AND on_request
    ), ${DECIDE('alone')}
    SELECT req.n, ${ATTEMPT_READ_SELECT('req')}, l.id AS counted_id, l.channel AS counted_channel,
      l.code_hash AS counted_code_hash, l.rows_live = 1 AND l.on_request AS alone,
      d.id AS decided_id, d.channel AS decided_channel, d.country AS decided_country,
      d.attempts AS decided_attempts, d.max_attempts AS decided_max_attempts, d.status AS decided_status
    FROM req LEFT JOIN live l ON l.n = req.n LEFT JOIN decided d ON d.n = req.n
    ORDER BY req.n, l.id`,
  ),
  // countOrConsume for the guesses of one event-loop turn ($1 groups, $2 winners or nulls, $3
  // times), one guess per group (an UPDATE changes a row once however many joined rows name it:
  // the caller runs a second guess on a group after this statement, on its own). Each group's
  // pending rows are found by GROUP_ROWS and updated by primary key, re-checked under
  // their locks as in the single form. Rows carry the guess's ordinal `n`.
  countOrConsumeMany: namedPlannedOnce(
    'decide_many',
    `WITH won AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])
        WITH ORDINALITY AS t(group_id, winner, tried_at, guessed_on, n)
    ), target AS (
      SELECT won.n, won.winner, won.tried_at, won.guessed_on, g.id FROM won CROSS JOIN LATERAL (
        SELECT r.id FROM ${GROUP_ROWS('won.group_id')} r WHERE ${GROUP_PENDING('r.')}
        OFFSET 0
      ) g
    ), ${DECIDE('target')}
    SELECT * FROM decided`,
  ),
  expireGroup: `WITH settled AS (
      UPDATE verifications SET status = 'expired', outbox_code = NULL
      WHERE ${IN_GROUP('$1')} AND ${GROUP_PENDING('')} AND expires_at <= $2 RETURNING id, provider
    )
    INSERT INTO changes (kind, request_id, at, provider) SELECT 'expired', id, $2, provider FROM settled`,
  // A cancel (POST …/cancel): the group's rows a verify could still settle, and no other. The
  // rows are locked in id order first, the order a verify's update takes them in, so that a
  // cancel and a verify of one pair wait for each other instead of deadlocking.
  cancelGroup: `WITH locked AS (
      SELECT id FROM verifications WHERE ${IN_GROUP('$1')} ORDER BY id FOR UPDATE
    ), settled AS (
      UPDATE verifications v SET status = 'canceled', outbox_code = NULL
      FROM locked l
      WHERE v.id = l.id AND ${GROUP_PENDING('v.')} AND v.expires_at > $2 AND v.attempts < v.max_attempts
      RETURNING v.id, v.provider
    )
    INSERT INTO changes (kind, request_id, at, provider) SELECT 'canceled', id, $2, provider FROM settled`,
  // A request and the other rows of its group (the resource's sibling), by GROUP_ROWS.
  getGroup: `SELECT ${VERIFICATION_SELECT} FROM (SELECT group_id AS asked FROM verifications
      WHERE id = $1 AND account_id = $2 AND test = $3) req
    CROSS JOIN LATERAL ${GROUP_ROWS('req.asked')} g
    ORDER BY id`,
  failGroup: `WITH settled AS (
      UPDATE verifications SET status = 'failed', outbox_code = NULL
      WHERE ${IN_GROUP('$1')} AND ${GROUP_PENDING('')} AND attempts >= max_attempts RETURNING id, provider
    )
    INSERT INTO changes (kind, request_id, at, provider) SELECT 'failed', id, $2::bigint, provider FROM settled`,
  // What a delivery attempt found ($1 state, $2 provider or null, $3 its message id, $4 error, $5
  // request, $6 cancel, $7 when), with its changes: the provider that took the message (so the
  // send counts under it), a move to delivered or failed, the cancel of a code nobody received. A
  // provider the request already names is kept: a later record of the same attempt has none.
  recordDelivery: `WITH before AS (
      SELECT id, delivery_status, provider, status FROM verifications WHERE id = $5 FOR UPDATE
    ), after AS (
      UPDATE verifications v SET delivery_status = $1, provider = coalesce($2, v.provider),
        provider_message_id = coalesce($3, v.provider_message_id), delivery_error = $4,
        delivery_updated_at = $7::bigint,
        status = CASE WHEN $6::boolean AND v.status = 'pending' THEN 'canceled' ELSE v.status END,
        outbox_code = CASE WHEN $6::boolean THEN NULL ELSE v.outbox_code END
      FROM before b WHERE v.id = b.id
      RETURNING v.id, v.provider, v.status, v.delivery_status, b.provider AS old_provider,
        b.status AS old_status, b.delivery_status AS old_delivery_status
    )
    INSERT INTO changes (kind, request_id, at, provider)
    SELECT k.kind, a.id, $7::bigint, a.provider FROM after a CROSS JOIN LATERAL (VALUES
      (CASE WHEN a.old_provider IS NULL AND a.provider IS NOT NULL THEN 'dispatched' END),
      (${deliveryChangeSql('a.old_delivery_status', 'a.delivery_status')}),
      (CASE WHEN a.old_status = 'pending' AND a.status = 'canceled' THEN 'canceled' END)
    ) k(kind) WHERE k.kind IS NOT NULL`,
  // A provider's report on a message ($1 state, $2 error, $3 provider, $4 its message id, $5 when):
  // it moves the delivery state forward or sideways, never back (a late `answered` after
  // `completed`: src/domain/delivery-states.ts). `n`: the requests that have this message, moved
  // or not.
  recordDeliveryByProvider: `WITH before AS (
      SELECT id, delivery_status FROM verifications WHERE provider = $3 AND provider_message_id = $4 FOR UPDATE
    ), after AS (
      UPDATE verifications v SET delivery_status = $1, delivery_error = $2, delivery_updated_at = $5::bigint
      FROM before b WHERE v.id = b.id AND ${progressSql('$1::text')} >= ${progressSql('b.delivery_status')}
      RETURNING v.id, v.provider, v.delivery_status, b.delivery_status AS old_delivery_status
    ), logged AS (
      INSERT INTO changes (kind, request_id, at, provider)
      SELECT k, id, $5::bigint, provider FROM (
        SELECT ${deliveryChangeSql('old_delivery_status', 'delivery_status')} AS k, id, provider FROM after
      ) x WHERE k IS NOT NULL
    )
    SELECT count(*) AS n FROM before`,
  setOutbox: `UPDATE verifications SET outbox = $1, outbox_code = CASE WHEN status = 'pending' THEN $2 END
    WHERE id = $3`,
  // Newest first by id: ids are time-ordered (UUIDv7).
  listOutbox: `SELECT ${outboxSelect(SIBLING)} FROM verifications
    WHERE outbox IS NOT NULL AND ($1::text IS NULL OR account_id = $1) AND $2::text IS NULL
      AND ($4::text IS NULL OR id < $4) AND ($5::boolean IS NULL OR test = $5)
    ORDER BY id DESC LIMIT $3`,
  listOutboxTo: `SELECT ${outboxSelect(SIBLING)} FROM ${TO_DESTINATION((d) => `${d}.destination = $2`)} verifications
    WHERE outbox IS NOT NULL AND ($1::text IS NULL OR account_id = $1)
      AND ($4::text IS NULL OR id < $4) AND ($5::boolean IS NULL OR test = $5)
    ORDER BY id DESC LIMIT $3`,
  listOutboxRequest: `SELECT ${outboxSelect(SIBLING)} FROM verifications
    WHERE id = $6 AND outbox IS NOT NULL AND ($1::text IS NULL OR account_id = $1)
      AND ($2::text IS NULL OR destination = $2) AND ($4::text IS NULL OR id < $4)
      AND ($5::boolean IS NULL OR test = $5)
    LIMIT $3`,
  // Batches chosen with SKIP LOCKED: sweepers on every instance take disjoint rows, never wait. The
  // batch is a CTE (materialised once); as an `IN (subquery)` PostgreSQL may rescan it and go
  // past its LIMIT.
  sweepExpire: `WITH batch AS (
      SELECT id FROM verifications WHERE status = 'pending' AND expires_at <= $1
      LIMIT $2 FOR UPDATE SKIP LOCKED
    ), expired AS (
      UPDATE verifications v SET status = 'expired', outbox_code = NULL FROM batch WHERE v.id = batch.id
      RETURNING v.id, v.provider
    ), logged AS (
      INSERT INTO changes (kind, request_id, at, provider) SELECT 'expired', id, $1, provider FROM expired
    )
    SELECT count(*) AS n FROM expired`,
  // By primary key: ids are UUIDv7, ordered by creation time, so the rows older than the cutoff
  // are those below its id ($3); the table keeps no index of created_at for this sweep alone.
  sweepDelete: `WITH batch AS (
      SELECT id FROM verifications WHERE id < $3 AND created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
    DELETE FROM verifications v USING batch WHERE v.id = batch.id`,
} as const;

/** The risk screen's read of a turn's destinations (see destinationSignals), with or without the phone's parts. */
function signalsSql(phone: boolean): string {
  const phoneParams = phone ? ', $5::text[], $6::text[], $7::text[]' : '';
  const phoneColumns = phone ? ', block, block_end, country' : '';
  return `WITH asked AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::bigint[]${phoneParams})
        WITH ORDINALITY AS a(account_id, destination, test, hour_ago${phoneColumns}, n)
    )
    SELECT a.n, c.blocked_at, h.*${
      phone
        ? `,
      CASE WHEN a.block IS NULL THEN 0 ELSE (
        SELECT count(DISTINCT nb.destination)
        FROM ${TO_DESTINATION((d) => `${d}.destination >= a.block AND ${d}.destination < a.block_end`)} nb
        WHERE nb.destination <> a.destination AND nb.account_id = a.account_id AND nb.test = a.test AND nb.created_at > a.hour_ago
      ) END AS neighbours,
      ${breakerColumns}`
        : ''
    }
    FROM asked a
    CROSS JOIN LATERAL (
      SELECT ${historyColumns('a.hour_ago')} FROM ${TO_DESTINATION((d) => `${d}.destination = a.destination`)} v
      WHERE v.account_id = a.account_id AND v.test = a.test
    ) h
    LEFT JOIN contacts c ON c.account_id = a.account_id AND c.destination = a.destination AND c.test = a.test${
      phone
        ? `
    LEFT JOIN pumping_breakers b ON b.account_id = a.account_id AND b.test = a.test AND b.country = a.country`
        : ''
    }`;
}

/** The send statement (see supersedeAndInsert), with or without the check of its destinations' blocks. */
function sendSql(checkBlocks: boolean): string {
  const unnest = `unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
        $8::text[], $9::bytea[], $10::int[], $11::bigint[], $12::bigint[], $13::text[], $14::text[],
        $15::boolean[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::bytea[],
        $22::text[])`;
  const columns = `${VERIFICATION_COLUMNS}, outbox_code, masked, risk, address, locale, link_hash, link_redirect`;
  const fresh = checkBlocks
    ? `given AS (
      SELECT * FROM ${unnest}
        WITH ORDINALITY AS f(${columns}, n)
    ), blocked AS (
      SELECT g.n, g.group_id FROM given g CROSS JOIN LATERAL (
        SELECT 1 FROM contacts c
        WHERE c.account_id = g.account_id AND c.destination = g.destination AND c.test = g.test
          AND c.blocked_at IS NOT NULL
        OFFSET 0
      ) c
    ), fresh AS (
      SELECT * FROM given WHERE group_id NOT IN (SELECT group_id FROM blocked)
    )`
    : `fresh AS (
      SELECT * FROM ${unnest}
        AS f(${columns})
    )`;
  // The superseded rows' changes, one row each (few: a resend), and the new rows' `created`
  // changes as one set per provider (migration 187: a row for the batch, not one per send).
  // The count makes the cancellations draw their seq first, so that they are announced first.
  const canceledChanges = `canceled AS (
      INSERT INTO changes (kind, request_id, at, provider)
      SELECT 'canceled', s.id, (SELECT min(created_at) FROM fresh), s.provider FROM superseded s
      RETURNING seq
    )`;
  const createdSet = `INSERT INTO change_sets (kind, provider, request_ids)
    SELECT 'created', i.provider, array_agg(i.id::uuid ORDER BY i.id) FROM (
      SELECT id, CASE WHEN delivery_status = 'outbox' THEN 'outbox' END AS provider FROM inserted
    ) i WHERE (SELECT count(*) FROM canceled) >= 0 GROUP BY i.provider`;
  return `WITH ${fresh}, superseded AS (
      UPDATE verifications v SET status = 'canceled', outbox_code = NULL
      WHERE v.id = ANY (ARRAY(
          SELECT old.id FROM fresh f CROSS JOIN LATERAL (
            SELECT w.id FROM verifications w
            WHERE w.destination = f.destination AND w.account_id = f.account_id
              AND w.channel = f.channel AND w.test = f.test AND w.status = 'pending'
            OFFSET 0
          ) old
        ))
        AND ${GROUP_PENDING('v.')}
      RETURNING v.id, v.provider
    ), inserted AS (
      INSERT INTO verifications (${columns})
      SELECT ${VERIFICATION_COLUMNS.replace(/(\w+)/g, 'f.$1')}, f.outbox_code, f.masked, f.risk, f.address, f.locale,
        f.link_hash, f.link_redirect
      FROM fresh f WHERE (SELECT count(*) FROM superseded) >= 0
      RETURNING id, delivery_status
    ), ${canceledChanges}${checkBlocks ? `, sets AS (${createdSet}) SELECT n FROM blocked` : ` ${createdSet}`}`;
}
