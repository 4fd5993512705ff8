import { randomUUID } from 'node:crypto';

/**
 * One change as the stores log it (table `changes`), with the request or contact it names, for
 * tests that feed the fold and the webhook worker directly. `type` is the webhook event type the
 * fold makes of it.
 */
export interface ChangeRow {
  type: string;
  accountId?: string;
  provider?: string | null;
  status?: string;
  test?: boolean;
}

export interface WrittenChange {
  /** The statements and their parameters, in order. */
  statements: Array<{ sql: string; params: unknown[] }>;
  /** The request (or, for a contact event, the contact) the change names. */
  subjectId: string;
}

/** What to write for one change: its request (or contact) row and the change itself. */
export function changeStatements(row: ChangeRow, dialect: 'sqlite' | 'postgres'): WrittenChange {
  const id = randomUUID();
  const now = Date.now();
  const account = row.accountId ?? 'acc_default';
  const test = dialect === 'sqlite' ? (row.test ? 1 : 0) : row.test === true;
  const numbered = (sql: string) => {
    let n = 0;
    return dialect === 'postgres' ? sql.replace(/\?/g, () => `$${++n}`) : sql;
  };
  const statement = (sql: string, params: unknown[]) => ({ sql: numbered(sql), params });
  const contact = row.type.startsWith('contact.');
  const subject = contact
    ? statement(
        `INSERT INTO contacts (id, account_id, test, destination, channel, masked, first_seen, last_seen)
         VALUES (?, ?, ?, ?, 'EMAIL', 'j***@example.com', ?, ?)`,
        [id, account, test, `jane-${id}@example.com`, now, now],
      )
    : statement(
        `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
           created_at, expires_at, delivery_status, status, provider, masked, test)
         VALUES (?, ?, ?, 'EMAIL', ?, ?, 5, ?, ?, 'sent', ?, ?, 'j***@example.com', ?)`,
        [
          id,
          account,
          id,
          `jane-${id}@example.com`,
          Buffer.alloc(32),
          now,
          now + 600_000,
          row.status ?? 'pending',
          row.provider ?? null,
          test,
        ],
      );
  const change = statement(
    `INSERT INTO changes (kind, ${contact ? 'contact_id' : 'request_id'}, at, provider) VALUES (?, ?, ?, ?)`,
    [contact ? row.type : row.type.slice('verification.'.length), id, now, row.provider ?? null],
  );
  return { statements: [subject, change], subjectId: id };
}
