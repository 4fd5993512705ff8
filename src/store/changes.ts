/**
 * The change log (table `changes`, migration 100): one narrow row per change of a request or a
 * contact, appended by the statement unit that makes the change. It is the only bookkeeping on
 * the request path; the fold (src/store/fold.ts) derives the analytics buckets, the contacts and
 * the webhook deliveries from it, and deletes the rows it folded. See docs/architecture.md.
 */

/** What happened to a request (`request_id`) or a contact (`contact_id`). */
export const CHANGE_KINDS = [
  'created',
  /** A provider took the message (or was the last one tried): the send's provider is known. */
  'dispatched',
  'delivered',
  'undelivered',
  'verified',
  'failed',
  'expired',
  'canceled',
  /** A SILENT request fell back to a code (silent_fallbacks): verification.fallback. */
  'fallback',
  'contact.blocked',
  'contact.unblocked',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The kinds of a request leaving `pending`, as an SQL list: a request has exactly one. */
export const SETTLED_KINDS = `'verified', 'failed', 'expired', 'canceled'`;

/** One change of a request, as a statement unit appends it. */
export interface RequestChange {
  kind: Exclude<ChangeKind, 'contact.blocked' | 'contact.unblocked'>;
  requestId: string;
  at: number;
  provider: string | null;
}

/** The append of one request change (SQLite `?` placeholders: kind, request, at, provider). */
export const APPEND_CHANGE_SQL = 'INSERT INTO changes (kind, request_id, at, provider) VALUES (?, ?, ?, ?)';

/** The kind a request's status names when it leaves `pending`. */
export const settledKind = (status: string): RequestChange['kind'] => {
  if (status === 'verified' || status === 'failed' || status === 'expired' || status === 'canceled')
    return status;
  throw new Error(`status ${status} is not a settled status`);
};
