import { breakerColumns, historyColumns, keptContactId } from '../contacts.js';
import { OUTBOX_SELECT, VERIFICATION_SELECT } from '../rows.js';

/** The PostgreSQL statements of the store; the same meaning as the SQLite ones, statement by statement. */

/**
 * The pending rows of one group (one row, two for a dual pair), for statements that look a group
 * up by verifications_group. Written plainly, `status = 'pending'` matches the predicate of the
 * partial index verifications_pending_expiry, and with statistics older than the newest rows (a
 * table that grew since autovacuum last analysed it) the planner ANDed that index with the group
 * index: every attempt read the index entry of every pending row in the table (measured: verify
 * at 400 req/s on a table that had just taken 25,000 sends). Behind `|| ''` the predicate cannot
 * match the partial index, so the group index alone is used, whatever the statistics say.
 */
const GROUP_PENDING = (alias: string) => `${alias}status || '' = 'pending'`;

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
  // first; an unreferenced data-modifying CTE may run after the main statement). A send racing
  // this one to the same destination is caught by verifications_one_live and retried.
  // The plan must not depend on the batch's size or the statistics: a join of many fresh rows
  // with the table was planned as a hash join over every pending row, a cost that grows with
  // the table. So each fresh row looks up its pending predecessor in verifications_one_live
  // (OFFSET 0 keeps the lookup from being flattened into such a join), and the predecessors
  // are updated by primary key.
  // Each row names its contact (contact_id) and carries its masked destination, which the
  // journal's triggers copy; the contact row itself is made by the batch fold (migration 070).
  supersedeAndInsert: `WITH fresh AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
        $8::text[], $9::bytea[], $10::int[], $11::bigint[], $12::bigint[], $13::text[], $14::text[],
        $15::boolean[], $16::text[], $17::text[], $18::text[])
        AS f(${VERIFICATION_COLUMNS}, contact_id, masked, risk)
    ), superseded AS (
      UPDATE verifications v SET status = 'canceled'
      WHERE v.id = ANY (ARRAY(
          SELECT old.id FROM fresh f CROSS JOIN LATERAL (
            SELECT w.id FROM verifications w
            WHERE w.destination = f.destination AND w.account_id = f.account_id
              AND w.channel = f.channel AND w.test = f.test AND w.status = 'pending'
            OFFSET 0
          ) old
        ))
        AND ${GROUP_PENDING('v.')}
      RETURNING v.id
    )
    INSERT INTO verifications (${VERIFICATION_COLUMNS}, contact_id, masked, risk)
    SELECT ${VERIFICATION_COLUMNS.replace(/(\w+)/g, 'f.$1')},
      ${keptContactId('f.account_id', 'f.destination', 'f.test', 'f.contact_id')}, f.masked, f.risk
    FROM fresh f WHERE (SELECT count(*) FROM superseded) >= 0`,
  getVerification: `SELECT ${VERIFICATION_SELECT} FROM verifications WHERE id = $1 AND account_id = $2 AND test = $3`,
  // The first half of a verify attempt: the request ($1 id, $2 account, $3 mode), and, when it is
  // pending and unexpired at $4, the live rows of its group, whose codes the caller compares with
  // the guess. Nothing is counted here: countOrConsume decides under the rows' locks.
  readGroup: `SELECT req.*, g.id AS counted_id, g.channel AS counted_channel, g.code_hash AS counted_code_hash
    FROM (SELECT ${VERIFICATION_SELECT} FROM verifications WHERE id = $1 AND account_id = $2 AND test = $3) req
    LEFT JOIN LATERAL (
      SELECT w.id, w.channel, w.code_hash FROM verifications w
      WHERE req.status = 'pending' AND req.expires_at > $4
        AND w.group_id = req.group_id AND ${GROUP_PENDING('w.')} AND w.expires_at > $4
      OFFSET 0
    ) g ON true ORDER BY g.id`,
  // The second half, one statement: counts the attempt on the group's pending rows while attempts
  // remain, and when the guess matched ($2, the winner's id) consumes the group in the same
  // update. A parallel guess waits for these row locks, then finds the group no longer pending
  // and counts nothing: N parallel right codes verify once and count one attempt. A guess whose
  // update finds nothing has no effect at all, so no more than max_attempts guesses are ever
  // decided, however many were compared. A wrong guess ($2 null) is counted on the request it was
  // made on ($4; migration 080) in the same update, so it is counted exactly when its attempt is.
  countOrConsume: `UPDATE verifications
    SET attempts = attempts + 1,
      wrong_codes = wrong_codes + CASE WHEN $2::text IS NULL AND id = $4 THEN 1 ELSE 0 END,
      status = CASE WHEN $2::text IS NULL THEN status WHEN id = $2 THEN 'verified' ELSE 'canceled' END,
      verified_at = CASE WHEN $2::text IS NULL THEN verified_at ELSE $3 END
    WHERE group_id = $1 AND ${GROUP_PENDING('')} AND attempts < max_attempts AND expires_at > $3
    RETURNING id, channel, code_hash, attempts, max_attempts`,
  // The risk screen's reads for the sends of one event-loop turn ($1 accounts, $2 destinations,
  // $3 modes, $4 an hour ago, $5 number blocks or nulls, $6 the block's end, $7 the country
  // window's first hour, $8 countries or nulls): each destination's contact as the fold made it,
  // its history from its requests (historyColumns), the other numbers of its block sent to in
  // that hour, its country's phone sends and verifications, and its country's breaker; one round
  // trip for the turn.
  // Rows carry the send's ordinal `n`, and rowToSignals reads them.
  destinationSignals: `WITH asked AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::bigint[], $5::text[], $6::text[],
          $7::bigint[], $8::text[])
        WITH ORDINALITY AS a(account_id, destination, test, hour_ago, block, block_end, window_start, country, n)
    )
    SELECT a.n, c.id, c.blocked_at, h.*,
      CASE WHEN a.block IS NULL THEN 0 ELSE (
        SELECT count(DISTINCT nb.destination) FROM verifications nb
        WHERE nb.destination >= a.block AND nb.destination < a.block_end AND nb.destination <> a.destination
          AND nb.account_id = a.account_id AND nb.test = a.test AND nb.created_at > a.hour_ago
      ) END AS neighbours,
      cw.country_sent, cw.country_verified, ${breakerColumns}
    FROM asked a
    CROSS JOIN LATERAL (
      SELECT ${historyColumns('a.hour_ago')} FROM verifications v
      WHERE v.destination = a.destination AND v.account_id = a.account_id AND v.test = a.test
    ) h
    LEFT JOIN contacts c ON c.account_id = a.account_id AND c.destination = a.destination AND c.test = a.test
    LEFT JOIN LATERAL (
      SELECT coalesce(sum(w.sent), 0) AS country_sent, coalesce(sum(w.verified), 0) AS country_verified
      FROM country_window w
      WHERE a.country IS NOT NULL AND w.account_id = a.account_id AND w.test = a.test
        AND w.hour >= a.window_start AND w.country = a.country
    ) cw ON true
    LEFT JOIN pumping_breakers b ON b.account_id = a.account_id AND b.test = a.test AND b.country = a.country`,
  // readGroup for the guesses of one event-loop turn ($1 ids, $2 accounts, $3 modes, $4 times):
  // each request by primary key, its group by verifications_group (OFFSET 0 keeps those lookups
  // from being flattened into a join planned over the table). Rows carry the guess's ordinal `n`.
  readGroups: `WITH tried AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::bigint[])
        WITH ORDINALITY AS t(id, account_id, test, tried_at, n)
    )
    SELECT t.n, req.*, g.id AS counted_id, g.channel AS counted_channel, g.code_hash AS counted_code_hash
    FROM tried t
    CROSS JOIN LATERAL (
      SELECT ${VERIFICATION_SELECT} FROM verifications
      WHERE id = t.id AND account_id = t.account_id AND test = t.test
      OFFSET 0
    ) req
    LEFT JOIN LATERAL (
      SELECT w.id, w.channel, w.code_hash FROM verifications w
      WHERE req.status = 'pending' AND req.expires_at > t.tried_at
        AND w.group_id = req.group_id AND ${GROUP_PENDING('w.')} AND w.expires_at > t.tried_at
      OFFSET 0
    ) g ON true ORDER BY t.n, g.id`,
  // countOrConsume for the guesses of one event-loop turn ($1 groups, $2 winners or nulls, $3
  // times), one guess per group (an UPDATE changes a row once however many joined rows name it:
  // the caller runs a second guess on a group after this statement, on its own). Each group's
  // pending rows are found by verifications_group and updated by primary key, re-checked under
  // their locks as in the single form. Rows carry the guess's ordinal `n`.
  countOrConsumeMany: `WITH won AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])
        WITH ORDINALITY AS t(group_id, winner, tried_at, guessed_on, n)
    ), target AS (
      SELECT won.n, won.winner, won.tried_at, won.guessed_on, g.id FROM won CROSS JOIN LATERAL (
        SELECT r.id FROM verifications r WHERE r.group_id = won.group_id AND ${GROUP_PENDING('r.')}
        OFFSET 0
      ) g
    )
    UPDATE verifications v
    SET attempts = v.attempts + 1,
      wrong_codes = v.wrong_codes + CASE WHEN target.winner IS NULL AND v.id = target.guessed_on THEN 1 ELSE 0 END,
      status = CASE WHEN target.winner IS NULL THEN v.status WHEN v.id = target.winner THEN 'verified'
        ELSE 'canceled' END,
      verified_at = CASE WHEN target.winner IS NULL THEN v.verified_at ELSE target.tried_at END
    FROM target
    -- The ANY gives the planner the rows' keys: they are fetched by primary key, never by a scan.
    WHERE v.id = ANY (ARRAY(SELECT id FROM target)) AND v.id = target.id
      AND ${GROUP_PENDING('v.')} AND v.attempts < v.max_attempts AND v.expires_at > target.tried_at
    RETURNING target.n, v.id, v.channel, v.code_hash, v.attempts, v.max_attempts`,
  // The attempt is counted before the code is compared, and only while attempts remain: N
  // parallel guesses can never evaluate more than max_attempts codes. Row locks serialise them.
  countAttempt: `UPDATE verifications SET attempts = attempts + 1
    WHERE group_id = $1 AND ${GROUP_PENDING('')} AND attempts < max_attempts AND expires_at > $2
    RETURNING id, channel, code_hash, attempts, max_attempts`,
  // Locking the winner first makes a concurrent consume wait, then find it no longer pending.
  consume: `WITH winner AS (
      SELECT id FROM verifications WHERE id = $1 AND group_id = $3 AND status = 'pending' FOR UPDATE
    )
    UPDATE verifications v
    SET status = CASE WHEN v.id = $1 THEN 'verified' ELSE 'canceled' END, verified_at = $2
    FROM winner WHERE v.group_id = $3 AND ${GROUP_PENDING('v.')}`,
  /**
   * The consumes of one event-loop turn: each winner is locked and checked as in `consume`; of the
   * consumes of one group only the first that finds its winner pending takes effect, as if they had
   * run one after the other (an UPDATE changes a row once however many joined rows name it, so two
   * winners of one group must never reach it). The group's pending rows are found by the group
   * index and settled by primary key (the OFFSET 0 keeps both lookups from being planned as a join
   * over the table). Returns the ordinal of each consume that took effect.
   */
  consumeMany: `WITH won AS (
      SELECT DISTINCT ON (t.group_id) t.n, t.group_id, t.verified_at, w.id
      FROM unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS t(id, group_id, verified_at, n)
      CROSS JOIN LATERAL (
        SELECT id FROM verifications WHERE id = t.id AND group_id = t.group_id AND status = 'pending'
        OFFSET 0 FOR UPDATE
      ) w
      ORDER BY t.group_id, t.n
    ), target AS (
      SELECT won.n, won.id AS winner, won.verified_at, g.id FROM won CROSS JOIN LATERAL (
        SELECT r.id FROM verifications r WHERE r.group_id = won.group_id AND ${GROUP_PENDING('r.')}
        OFFSET 0
      ) g
    ), settled AS (
      UPDATE verifications v
      SET status = CASE WHEN v.id = target.winner THEN 'verified' ELSE 'canceled' END,
        verified_at = target.verified_at
      FROM target WHERE v.id = target.id AND ${GROUP_PENDING('v.')}
      RETURNING target.n
    )
    SELECT DISTINCT n FROM settled`,
  expireGroup: `UPDATE verifications SET status = 'expired'
    WHERE group_id = $1 AND ${GROUP_PENDING('')} AND expires_at <= $2`,
  failGroup: `UPDATE verifications SET status = 'failed'
    WHERE group_id = $1 AND ${GROUP_PENDING('')} AND attempts >= max_attempts`,
  recordDelivery: `UPDATE verifications
    SET delivery_status = $1, provider = $2, provider_message_id = $3, delivery_error = $4,
      status = CASE WHEN $6::boolean AND status = 'pending' THEN 'canceled' ELSE status END
    WHERE id = $5`,
  recordDeliveryByProvider: `UPDATE verifications SET delivery_status = $1, delivery_error = $2
    WHERE provider = $3 AND provider_message_id = $4`,
  setOutbox: 'UPDATE verifications SET outbox = $1 WHERE id = $2',
  // Newest first by id: ids are time-ordered (UUIDv7).
  listOutbox: `SELECT ${OUTBOX_SELECT} FROM verifications
    WHERE outbox IS NOT NULL AND ($1::text IS NULL OR account_id = $1) AND $2::text IS NULL
    ORDER BY id DESC LIMIT $3`,
  listOutboxTo: `SELECT ${OUTBOX_SELECT} FROM verifications
    WHERE destination = $2 AND outbox IS NOT NULL AND ($1::text IS NULL OR account_id = $1)
    ORDER BY id DESC LIMIT $3`,
  // Batches chosen with SKIP LOCKED: sweepers on every instance take disjoint rows, never wait. The
  // batch is a CTE (materialised once); as an `IN (subquery)` PostgreSQL may rescan it and go
  // past its LIMIT.
  sweepExpire: `WITH batch AS (
      SELECT id FROM verifications WHERE status = 'pending' AND expires_at <= $1
      LIMIT $2 FOR UPDATE SKIP LOCKED)
    UPDATE verifications v SET status = 'expired' FROM batch WHERE v.id = batch.id`,
  sweepCountryWindow: 'DELETE FROM country_window WHERE hour < $1',
  sweepEvents: `DELETE FROM events WHERE seq IN (
      SELECT seq FROM events WHERE created_at < $1 AND folded ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)`,
  sweepDelete: `WITH batch AS (
      SELECT id FROM verifications WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
    DELETE FROM verifications v USING batch WHERE v.id = batch.id`,
} as const;
