/**
 * The event journal (table `events`, migration 020): one row per state change of a verification
 * request and per contact block, written in the same statement or transaction as the change.
 * The webhook fan-out publishes it; analytics and contact counters are folded from it as it is
 * written. See docs/events.md.
 */

export const EVENT_TYPES = [
  'verification.created',
  'verification.delivered',
  'verification.undelivered',
  'verification.verified',
  'verification.failed',
  'verification.expired',
  'verification.canceled',
  'verification.attempt_failed',
  'contact.blocked',
  'contact.unblocked',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The journal types of a request leaving `pending`, as an SQL list: each request has exactly one. */
export const SETTLED = `'verification.verified', 'verification.failed', 'verification.expired', 'verification.canceled'`;

/** A predicate on journal rows `e` the batch fold has not counted yet (SQLite: past its cursor). */
export const unfolded = (dialect: 'sqlite' | 'postgres') =>
  dialect === 'postgres'
    ? 'e.published = false AND NOT e.folded'
    : 'e.seq > (SELECT last_seq FROM analytics_fold WHERE id = 1)';

/** A journal row as read back. Never carries a code or a full destination. */
export interface RecordedEvent {
  seq: number;
  id: string;
  accountId: string;
  test: boolean;
  type: EventType;
  requestId: string | null;
  groupId: string | null;
  channel: string | null;
  country: string | null;
  purpose: string | null;
  provider: string | null;
  toMasked: string | null;
  contactId: string | null;
  status: string | null;
  createdAt: number;
  data: Record<string, unknown> | null;
}

export interface EventFilter {
  accountId?: string;
  requestId?: string;
  contactId?: string;
  /** Rows after this seq only. */
  afterSeq?: number;
  limit: number;
}

const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

const EVENT_PARAMS = ['account', 'request', 'contact', 'after', 'limit'] as const;
const EVENT_TYPES_OF = ['text', 'text', 'text', 'bigint', 'int'] as const;

/** The journal's read for either dialect; its parameters are listEventsParams'. */
export function listEventsSql(dialect: 'sqlite' | 'postgres'): string {
  const p = (name: (typeof EVENT_PARAMS)[number]) => {
    const n = EVENT_PARAMS.indexOf(name);
    return dialect === 'sqlite' ? `@${name}` : `$${n + 1}::${EVENT_TYPES_OF[n]}`;
  };
  return `SELECT * FROM events
    WHERE (${p('account')} IS NULL OR account_id = ${p('account')})
      AND (${p('request')} IS NULL OR request_id = ${p('request')})
      AND (${p('contact')} IS NULL OR contact_id = ${p('contact')}) AND seq > ${p('after')}
    ORDER BY seq LIMIT ${p('limit')}`;
}

/** The parameters of listEventsSql, by name (SQLite) or in order (PostgreSQL). */
export const listEventsParams = (f: EventFilter) => ({
  account: f.accountId ?? null,
  request: f.requestId ?? null,
  contact: f.contactId ?? null,
  after: f.afterSeq ?? 0,
  limit: f.limit,
});

export const rowToRecordedEvent = (r: Record<string, unknown>): RecordedEvent => ({
  seq: Number(r.seq),
  id: String(r.id),
  accountId: String(r.account_id),
  test: r.test === true || r.test === 1,
  type: String(r.type) as EventType,
  requestId: strOrNull(r.request_id),
  groupId: strOrNull(r.group_id),
  channel: strOrNull(r.channel),
  country: strOrNull(r.country),
  purpose: strOrNull(r.purpose),
  provider: strOrNull(r.provider),
  toMasked: strOrNull(r.to_masked),
  contactId: strOrNull(r.contact_id),
  status: strOrNull(r.status),
  createdAt: Number(r.created_at),
  data: typeof r.data === 'string' ? JSON.parse(r.data) : ((r.data as Record<string, unknown>) ?? null),
});
