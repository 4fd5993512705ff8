import type { Database, Statement } from 'better-sqlite3';
import { breakerColumns, historyColumns } from '../contacts.js';

/**
 * The risk screen's read of one destination on SQLite: its requests, whether its contact is
 * blocked, and for a phone its number block and its country's breaker, in one statement. See
 * docs/analytics.md.
 */
export class SqliteSignals {
  private readonly stmts: Record<'email' | 'phone', Statement>;

  constructor(db: Database) {
    this.stmts = {
      // Everything the risk screen reads of one destination, in one statement (src/store/contacts.ts);
      // an email has no number block and no country, so its statement reads only its requests and
      // contact (half the cost).
      email: db.prepare(signalsSql(false)),
      phone: db.prepare(signalsSql(true)),
    };
  }

  /** The risk screen's row for one destination (see rowToSignals). */
  read(p: {
    account: string;
    mode: number;
    destination: string;
    block: string | null;
    blockEnd: string | null;
    hourAgo: number;
    country: string | null;
  }): Record<string, unknown> {
    const phone = p.block !== null || p.country !== null;
    return (phone ? this.stmts.phone : this.stmts.email).get(
      phone ? p : { account: p.account, mode: p.mode, destination: p.destination, hourAgo: p.hourAgo },
    ) as Record<string, unknown>;
  }
}

/** The risk screen's read: a destination's requests and contact, and for a phone its block and its country's breaker. */
function signalsSql(phone: boolean): string {
  const phoneColumns = `,
    CASE WHEN @block IS NULL THEN 0 ELSE (
      SELECT count(DISTINCT n.destination) FROM verifications n
      WHERE n.destination >= @block AND n.destination < @blockEnd AND n.destination <> @destination
        AND n.account_id = @account AND n.test = @mode AND n.created_at > @hourAgo
    ) END AS neighbours,
    ${breakerColumns}`;
  const breaker = `
    LEFT JOIN pumping_breakers b ON b.account_id = @account AND b.test = @mode AND b.country = @country`;
  return `SELECT c.blocked_at, h.*${phone ? phoneColumns : ''}
    FROM (
      SELECT ${historyColumns('@hourAgo')} FROM verifications v
      WHERE v.destination = @destination AND v.account_id = @account AND v.test = @mode
    ) h
    LEFT JOIN contacts c ON c.account_id = @account AND c.destination = @destination AND c.test = @mode${phone ? breaker : ''}`;
}
