import { randomUUID } from 'node:crypto';

/** A journal row as the stores write it (table `events`), for tests that feed the fan-out directly. */
export interface JournalRow {
  id?: string;
  account_id?: string;
  test?: boolean;
  type: string;
  request_id?: string | null;
  group_id?: string | null;
  channel?: string | null;
  country?: string | null;
  purpose?: string | null;
  provider?: string | null;
  to_masked?: string | null;
  contact_id?: string | null;
  status?: string | null;
  created_at?: number;
}

const COLUMNS = [
  'id',
  'account_id',
  'test',
  'type',
  'request_id',
  'group_id',
  'channel',
  'country',
  'purpose',
  'provider',
  'to_masked',
  'contact_id',
  'status',
  'created_at',
] as const;

/** Column values of a journal row with defaults filled in, in COLUMNS order. */
export function journalValues(row: JournalRow, dialect: 'sqlite' | 'postgres'): unknown[] {
  const full: Record<string, unknown> = {
    id: randomUUID(),
    account_id: 'acc_default',
    test: false,
    request_id: randomUUID(),
    group_id: null,
    channel: 'EMAIL',
    country: null,
    purpose: 'signup',
    provider: null,
    to_masked: 'j***@example.com',
    contact_id: null,
    status: 'pending',
    created_at: Date.now(),
    ...row,
  };
  return COLUMNS.map((c) => (c === 'test' && dialect === 'sqlite' ? (full.test ? 1 : 0) : full[c]));
}

export const journalInsertSql = (dialect: 'sqlite' | 'postgres') =>
  `INSERT INTO events (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => (dialect === 'sqlite' ? '?' : `$${i + 1}`)).join(', ')})`;

/**
 * TEMPORARY until the journal (branch analytics, "Journal:") is merged: the `events` table as the
 * journal's brief describes it, created only when the migrations did not create it.
 */
export function journalShimSql(dialect: 'sqlite' | 'postgres'): string {
  return dialect === 'sqlite'
    ? `CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
         account_id TEXT NOT NULL, test INTEGER NOT NULL DEFAULT 0, type TEXT NOT NULL, request_id TEXT,
         group_id TEXT, channel TEXT, country TEXT, purpose TEXT, provider TEXT, to_masked TEXT,
         contact_id TEXT, status TEXT, created_at INTEGER NOT NULL, data TEXT,
         published INTEGER NOT NULL DEFAULT 0)`
    : `CREATE TABLE IF NOT EXISTS events (seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE,
         account_id TEXT NOT NULL, test BOOLEAN NOT NULL DEFAULT false, type TEXT NOT NULL, request_id TEXT,
         group_id TEXT, channel TEXT, country TEXT, purpose TEXT, provider TEXT, to_masked TEXT,
         contact_id TEXT, status TEXT, created_at BIGINT NOT NULL, data JSONB,
         published BOOLEAN NOT NULL DEFAULT false)`;
}
