import type { Database, Statement } from 'better-sqlite3';
import { timeOrderedUuid } from '../../domain/ids.js';
import { maskDestination } from '../../domain/masking.js';
import type { NewVerification } from '../../domain/types.js';

/**
 * The journal's writes that the triggers of migration 020 cannot make for the store (SQLite).
 * Every state change of a verification request is journaled by those triggers, in the statement
 * that makes it; what is left here runs inside the caller's unit of work (one transaction):
 * the contact a send goes to (the triggers read its mode and masked destination), and a wrong
 * code, which changes nothing the database sees. See docs/events.md.
 */
export class SqliteJournal {
  private readonly stmts: Record<'upsertContact' | 'wrongCode', Statement>;

  constructor(db: Database) {
    this.stmts = {
      upsertContact: db.prepare(
        `INSERT INTO contacts (id, account_id, test, destination, channel, masked, first_seen, last_seen, sends)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)
         ON CONFLICT (account_id, destination, test) DO UPDATE SET
           sends = sends + 1, last_seen = max(last_seen, excluded.last_seen), channel = excluded.channel
         RETURNING id`,
      ),
      // The wrong code's event, from the request it was made on; trigger journal_wrong_code folds it.
      wrongCode: db.prepare(
        `INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, country, purpose,
           provider, to_masked, contact_id, status, created_at, data)
         SELECT ?, v.account_id, coalesce(c.test, 0), 'verification.attempt_failed', v.id, v.group_id, v.channel,
           v.country, v.purpose, v.provider, c.masked, v.contact_id, v.status, ?,
           json_object('attempts', v.attempts, 'maxAttempts', v.max_attempts)
         FROM verifications v LEFT JOIN contacts c ON c.id = v.contact_id WHERE v.id = ?`,
      ),
    };
  }

  /** The id of the contact `v` goes to, counting the send on it (created on its first send). */
  contactFor(v: NewVerification): string {
    const row = this.stmts.upsertContact.get(
      timeOrderedUuid(v.createdAt),
      v.accountId,
      v.test ? 1 : 0,
      v.destination,
      v.channel,
      maskDestination(v.channel, v.destination),
      v.createdAt,
      v.createdAt,
    ) as { id: string };
    return row.id;
  }

  /** Journals a wrong code guessed on request `requestId` (after its attempt was counted). */
  wrongCode(requestId: string, now: number): void {
    this.stmts.wrongCode.run(timeOrderedUuid(now), now, requestId);
  }
}
