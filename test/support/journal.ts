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
