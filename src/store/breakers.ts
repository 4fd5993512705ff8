import type { BreakerState } from '../domain/pumping-breaker.js';
import { modeColumn, rowMode } from './mode.js';

/** The SQL of table pumping_breakers (migration 021) for one dialect, and its row mapping. */
export function breakerSql(dialect: 'sqlite' | 'postgres') {
  const pg = dialect === 'postgres';
  return {
    get: pg
      ? 'SELECT * FROM pumping_breakers WHERE account_id = $1 AND test = $2 AND country = $3'
      : 'SELECT * FROM pumping_breakers WHERE account_id = ? AND test = ? AND country = ?',
    save: pg
      ? `INSERT INTO pumping_breakers (account_id, test, country, tripped_at, detail, reset_at, baseline_hour,
           baseline_sent, baseline_verified) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (account_id, test, country) DO UPDATE SET tripped_at = EXCLUDED.tripped_at,
           detail = EXCLUDED.detail, reset_at = EXCLUDED.reset_at, baseline_hour = EXCLUDED.baseline_hour,
           baseline_sent = EXCLUDED.baseline_sent, baseline_verified = EXCLUDED.baseline_verified`
      : `INSERT INTO pumping_breakers (account_id, test, country, tripped_at, detail, reset_at, baseline_hour,
           baseline_sent, baseline_verified) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, test, country) DO UPDATE SET tripped_at = excluded.tripped_at,
           detail = excluded.detail, reset_at = excluded.reset_at, baseline_hour = excluded.baseline_hour,
           baseline_sent = excluded.baseline_sent, baseline_verified = excluded.baseline_verified`,
    list: pg
      ? `SELECT * FROM pumping_breakers WHERE ($1::text IS NULL OR account_id = $1)
           AND ($2::boolean IS FALSE OR tripped_at IS NOT NULL) ORDER BY account_id, test, country`
      : `SELECT * FROM pumping_breakers WHERE (@account IS NULL OR account_id = @account)
           AND (@trippedOnly = 0 OR tripped_at IS NOT NULL) ORDER BY account_id, test, country`,
  };
}

export const breakerParams = (b: BreakerState, dialect: 'sqlite' | 'postgres') => [
  b.accountId,
  modeColumn(b.mode, dialect),
  b.country,
  b.trippedAt,
  b.detail,
  b.resetAt,
  b.baseline?.hour ?? null,
  b.baseline?.sent ?? 0,
  b.baseline?.verified ?? 0,
];

/** The columns of table pumping_breakers that rowToBreaker reads. */
export const BREAKER_COLUMNS = [
  'account_id',
  'test',
  'country',
  'tripped_at',
  'detail',
  'reset_at',
  'baseline_hour',
  'baseline_sent',
  'baseline_verified',
] as const;

const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export const rowToBreaker = (r: Record<string, unknown>): BreakerState => ({
  accountId: String(r.account_id),
  mode: rowMode(r.test),
  country: String(r.country),
  trippedAt: numOrNull(r.tripped_at),
  detail: r.detail === null || r.detail === undefined ? null : String(r.detail),
  resetAt: numOrNull(r.reset_at),
  baseline:
    r.baseline_hour === null || r.baseline_hour === undefined
      ? null
      : {
          hour: Number(r.baseline_hour),
          sent: Number(r.baseline_sent),
          verified: Number(r.baseline_verified),
        },
});
