import type { FallbackRecord, SilentFallback } from '../../domain/ports/silent-fallbacks.js';
import type { FallbackReason } from '../../domain/silent.js';
import type { Channel } from '../../domain/types.js';
import { rowMode } from '../mode.js';

/** A row of silent_fallbacks (PostgreSQL returns BIGINT as a string). */
export interface FallbackRow {
  request_id: string;
  account_id: string;
  test: unknown;
  channel: string;
  due_at: number | string;
  address: string | null;
  destination: string | null;
  country: string | null;
  purpose: string | null;
  custom_message: string | null;
  locale: string | null;
  state: string;
  reason: string | null;
  sibling_id: string | null;
  finished_at: number | string | null;
}

export const rowToFallback = (r: FallbackRow): SilentFallback => ({
  requestId: r.request_id,
  accountId: r.account_id,
  mode: rowMode(r.test),
  channel: r.channel as Channel,
  dueAt: Number(r.due_at),
  address: r.address ?? '',
  destination: r.destination ?? '',
  country: r.country,
  purpose: r.purpose,
  customMessage: r.custom_message,
  locale: r.locale,
});

export const rowToRecord = (r: FallbackRow): FallbackRecord => ({
  requestId: r.request_id,
  channel: r.channel as Channel,
  state: r.state as FallbackRecord['state'],
  reason: r.reason as FallbackReason | null,
  siblingId: r.sibling_id,
  firedAt: r.state === 'fired' && r.finished_at !== null ? Number(r.finished_at) : null,
});

/** The statements both dialects share (`?` placeholders; PostgreSQL numbers them). */
export const FALLBACK_SQL = {
  insert: `INSERT INTO silent_fallbacks (request_id, account_id, test, channel, due_at, address, destination,
             country, purpose, custom_message, locale) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  finishFired: `UPDATE silent_fallbacks SET state = 'fired', reason = ?, sibling_id = ?, finished_at = ?,
                  lease_until = NULL, address = NULL, destination = NULL, purpose = NULL, custom_message = NULL
                WHERE request_id = ? AND state = 'scheduled'`,
  finishDropped: `UPDATE silent_fallbacks SET state = 'dropped', finished_at = ?, lease_until = NULL,
                    address = NULL, destination = NULL, purpose = NULL, custom_message = NULL
                  WHERE request_id = ? AND state = 'scheduled'`,
  get: 'SELECT * FROM silent_fallbacks WHERE request_id = ?',
};

/** `?` placeholders as PostgreSQL's `$n`. */
export const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};
