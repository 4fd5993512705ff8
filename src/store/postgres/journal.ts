import { timeOrderedUuid } from '../../domain/ids.js';
import { TurnBatch } from './turn-batch.js';

type Query = (text: string, params: unknown[]) => Promise<unknown>;
interface WrongCode {
  requestId: string;
  now: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** The wrong codes of one event-loop turn, journaled from the requests they were made on. */
const WRONG_CODES = `INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, country, purpose,
    provider, to_masked, contact_id, status, created_at, data)
  SELECT w.event_id, v.account_id, v.test, 'verification.attempt_failed', v.id, v.group_id,
    v.channel, v.country, v.purpose, v.provider,
    coalesce(v.masked, (SELECT c.masked FROM contacts c WHERE c.id = v.contact_id)), v.contact_id, v.status, w.at,
    jsonb_build_object('attempts', v.attempts, 'maxAttempts', v.max_attempts)
  FROM unnest($1::text[], $2::text[], $3::bigint[]) AS w(event_id, request_id, at)
  JOIN verifications v ON v.id = w.request_id`;

/**
 * The journal's writes that the triggers of migrations 020 and 070 cannot make for the store
 * (PostgreSQL): a wrong code changes nothing the database sees, so its event is inserted here
 * (the batch fold counts it on the analytics and the contact). Everything else is journaled by
 * the triggers, in the statement that makes the change. See docs/events.md.
 */
export class PostgresJournal {
  private readonly wrongCodes = new TurnBatch<WrongCode>((batch) => this.writeWrongCodes(batch));

  constructor(private readonly query: Query) {}

  /** Journals a wrong code guessed on request `requestId`; resolves once it is committed. */
  wrongCode(requestId: string, now: number): Promise<void> {
    return new Promise((resolve, reject) => this.wrongCodes.add({ requestId, now, resolve, reject }));
  }

  flush(): Promise<void> {
    return this.wrongCodes.flush();
  }

  private async writeWrongCodes(batch: WrongCode[]): Promise<void> {
    try {
      await this.query(WRONG_CODES, [
        batch.map((w) => timeOrderedUuid(w.now)),
        batch.map((w) => w.requestId),
        batch.map((w) => w.now),
      ]);
      for (const w of batch) w.resolve();
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
