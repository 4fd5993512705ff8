import type { Database, Statement } from 'better-sqlite3';
import type { VerificationMethod } from '../../domain/verification/method.js';
import { refusalSql } from '../analytics.js';
import { type AttemptDialect, attemptCountsSql, attemptSetSql, columnsOf } from '../attempt-sql.js';
import { APPEND_CHANGE_SQL } from '../changes.js';
import {
  ATTEMPT_READ_SELECT,
  LINKED_SELECT,
  outboxSelect,
  SIBLING_BY_GROUP_INDEX,
  VERIFICATION_SELECT,
} from '../rows.js';

/** The statements of the SQLite store's aggregates, prepared once on its connection. */
export type Statements = ReturnType<typeof prepare>;

/** The attempt rule's names on SQLite: the row's own columns and the statement's named parameters. */
const SQLITE_ATTEMPT: AttemptDialect = {
  column: columnsOf(''),
  param: (name) => `@${name}`,
  pending: () => "status = 'pending'",
};

/** The method a used link writes on the request it verified (src/domain/verification/method.ts). */
const LINK: VerificationMethod = 'link';

/** What a decided attempt returns of each row it counted (see rowsToCountedAttempt). */
const DECIDED = 'id, channel, country, attempts, max_attempts, status, provider';

export function prepare(db: Database) {
  const s = (sql: string): Statement => db.prepare(sql);
  return {
    ping: s('SELECT 1'),
    appendChange: s(APPEND_CHANGE_SQL),
    appendContactChange: s('INSERT INTO changes (kind, contact_id, at, data) VALUES (?, ?, ?, ?)'),
    insertSetting: s('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
    getSetting: s('SELECT value FROM settings WHERE name = ?'),
    insertAccount: s('INSERT INTO accounts (id, name, settings, created_at) VALUES (?, ?, ?, ?)'),
    listAccounts: s('SELECT * FROM accounts ORDER BY created_at, id'),
    getAccount: s('SELECT * FROM accounts WHERE id = ?'),
    updateAccountSettings: s('UPDATE accounts SET settings = ? WHERE id = ?'),
    putLogo: s(
      `INSERT INTO account_logos (account_id, content_type, data, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET content_type = excluded.content_type, data = excluded.data,
         updated_at = excluded.updated_at`,
    ),
    getLogo: s('SELECT content_type, data, updated_at FROM account_logos WHERE account_id = ?'),
    deleteLogo: s('DELETE FROM account_logos WHERE account_id = ?'),
    insertKey: s(
      `INSERT INTO api_keys (id, account_id, name, prefix, key_hash, channels, test, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    listKeys: s('SELECT * FROM api_keys ORDER BY created_at, id'),
    listKeysOf: s('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id'),
    getKey: s('SELECT * FROM api_keys WHERE id = ?'),
    findActiveKey: s(
      `SELECT k.*, a.settings AS account_settings FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    ),
    revokeKey: s('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    updateKey: s('UPDATE api_keys SET name = ?, channels = ? WHERE id = ? AND revoked_at IS NULL'),
    // Never backwards: another process may have written a later use.
    recordKeyUse: s(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
    ),
    // Whether an operator blocked the contact of a destination (src/store/blocks.ts), by
    // contacts_destination; and the refusal a send to it counts.
    blockedContact: s(
      'SELECT 1 FROM contacts WHERE account_id = ? AND destination = ? AND test = ? AND blocked_at IS NOT NULL',
    ),
    recordRefusal: s(refusalSql('sqlite')),
    // One live code per destination, channel and mode: a send cancels the pending one first.
    supersede: s(
      `UPDATE verifications SET status = 'canceled', outbox_code = NULL
       WHERE destination = ? AND account_id = ? AND channel = ? AND test = ? AND status = 'pending'
       RETURNING id, provider`,
    ),
    insertVerification: s(
      `INSERT INTO verifications (id, account_id, group_id, channel, destination, delivery_type, country, purpose,
         code_hash, max_attempts, created_at, expires_at, delivery_status, outbox, outbox_code, masked, risk, test,
         address, locale, link_hash, link_redirect)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // A magic link's request, by the keyed hash of its token (verifications_link; at most two
    // hashes during a rotation of CODE_SECRET: the current one, then the previous).
    findLink: s(
      `SELECT ${LINKED_SELECT} FROM verifications WHERE link_hash IS NOT NULL AND link_hash IN (@current, @previous) LIMIT 1`,
    ),
    // A used link: the request verified (no attempt counted), the other pending rows of its group
    // canceled, every settled row's outbox code erased; in the one writer's unit, after findLink.
    consumeLink: s(
      `UPDATE verifications SET status = CASE WHEN id = @id THEN 'verified' ELSE 'canceled' END,
         verified_at = CASE WHEN id = @id THEN @now ELSE verified_at END,
         method = CASE WHEN id = @id THEN '${LINK}' ELSE method END, outbox_code = NULL
       WHERE group_id = @group AND status = 'pending'
       RETURNING id, status, provider`,
    ),
    getVerification: s(
      `SELECT ${VERIFICATION_SELECT} FROM verifications WHERE id = ? AND account_id = ? AND test = ?`,
    ),
    // The first half of an attempt: the request, and when it is pending and unexpired, the live
    // rows of its group, whose codes the caller compares with the guess.
    readGroup: s(
      `SELECT ${ATTEMPT_READ_SELECT('r')}, g.id AS counted_id, g.channel AS counted_channel,
         g.code_hash AS counted_code_hash
       FROM verifications r LEFT JOIN verifications g ON g.group_id = r.group_id
         AND r.status = 'pending' AND r.expires_at > @now AND g.status = 'pending' AND g.expires_at > @now
       WHERE r.id = @id AND r.account_id = @account AND r.test = @mode
       ORDER BY g.id`,
    ),
    // The second half, one statement: the attempt rule (src/domain/attempt-rule.ts) on the
    // group's rows: counts the attempt while attempts remain (N parallel guesses never decide more
    // than max_attempts), consumes the group on a match (@winner, the row whose code matched),
    // fails it on the last wrong guess, counts a wrong guess on @guessedOn, erases a settled row's
    // outbox code.
    decideAttempt: s(
      `UPDATE verifications SET ${attemptSetSql(SQLITE_ATTEMPT)}
       WHERE group_id = @group AND ${attemptCountsSql(SQLITE_ATTEMPT)}
       RETURNING ${DECIDED}`,
    ),
    expireGroup: s(
      `UPDATE verifications SET status = 'expired', outbox_code = NULL
       WHERE group_id = ? AND status = 'pending' AND expires_at <= ? RETURNING id, provider`,
    ),
    // A cancel (POST …/cancel): the group's rows a verify could still settle, and no other.
    cancelGroup: s(
      `UPDATE verifications SET status = 'canceled', outbox_code = NULL
       WHERE group_id = ? AND status = 'pending' AND expires_at > ? AND attempts < max_attempts
       RETURNING id, provider`,
    ),
    // A request and the other rows of its group (the resource's sibling), by verifications_group.
    getGroup: s(
      `SELECT ${VERIFICATION_SELECT} FROM verifications
       WHERE group_id = (SELECT group_id FROM verifications WHERE id = ? AND account_id = ? AND test = ?)
       ORDER BY id`,
    ),
    failGroup: s(
      `UPDATE verifications SET status = 'failed', outbox_code = NULL
       WHERE group_id = ? AND status = 'pending' AND attempts >= max_attempts RETURNING id, provider`,
    ),
    deliveryOf: s('SELECT delivery_status, provider, status FROM verifications WHERE id = ?'),
    // A provider the request already names is kept: a later record of the same attempt has none.
    recordDelivery: s(
      `UPDATE verifications SET delivery_status = ?, provider = coalesce(?, provider),
         provider_message_id = coalesce(?, provider_message_id), delivery_error = ?, delivery_updated_at = ?
       WHERE id = ?`,
    ),
    cancel: s(
      `UPDATE verifications SET status = 'canceled', outbox_code = NULL WHERE id = ? AND status = 'pending'`,
    ),
    deliveryByProvider: s(
      'SELECT id, delivery_status FROM verifications WHERE provider = ? AND provider_message_id = ?',
    ),
    recordDeliveryOf: s(
      'UPDATE verifications SET delivery_status = ?, delivery_error = ?, delivery_updated_at = ? WHERE id = ?',
    ),
    setOutbox: s(
      `UPDATE verifications SET outbox = ?, outbox_code = CASE WHEN status = 'pending' THEN ? END WHERE id = ?`,
    ),
    // Newest first by id: ids are time-ordered (UUIDv7), and monotonic within a process.
    listOutbox: s(
      `SELECT ${outboxSelect(SIBLING_BY_GROUP_INDEX)} FROM verifications
       WHERE outbox IS NOT NULL AND (@accountId IS NULL OR account_id = @accountId)
         AND (@before IS NULL OR id < @before) AND (@test IS NULL OR test = @test)
       ORDER BY id DESC LIMIT @limit`,
    ),
    listOutboxTo: s(
      `SELECT ${outboxSelect(SIBLING_BY_GROUP_INDEX)} FROM verifications
       WHERE destination = @to AND outbox IS NOT NULL AND (@accountId IS NULL OR account_id = @accountId)
         AND (@before IS NULL OR id < @before) AND (@test IS NULL OR test = @test)
       ORDER BY id DESC LIMIT @limit`,
    ),
    listOutboxRequest: s(
      `SELECT ${outboxSelect(SIBLING_BY_GROUP_INDEX)} FROM verifications
       WHERE id = @requestId AND outbox IS NOT NULL AND (@accountId IS NULL OR account_id = @accountId)
         AND (@to IS NULL OR destination = @to) AND (@before IS NULL OR id < @before)
         AND (@test IS NULL OR test = @test)
       LIMIT @limit`,
    ),
    sweepExpire: s(
      `UPDATE verifications SET status = 'expired', outbox_code = NULL
       WHERE id IN (SELECT id FROM verifications WHERE status = 'pending' AND expires_at <= ? LIMIT ?)
       RETURNING id, provider`,
    ),
    // Oldest first along the primary key (ids are UUIDv7): no index of its own on created_at.
    sweepDelete: s(
      `DELETE FROM verifications
       WHERE id IN (SELECT id FROM verifications WHERE id < ? AND created_at < ? LIMIT ?)`,
    ),
  };
}
