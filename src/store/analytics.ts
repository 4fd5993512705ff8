import { DAY_MS, HOUR_MS } from '../domain/clock.js';
import type { AnalyticsQuery, AnalyticsRows, Refusal } from '../domain/ports/read-model.js';
import { OFFERED_METHOD_SQL } from './fold.js';
import { modeColumn } from './mode.js';
import { numbered, placeholdersFor } from './placeholders.js';

/**
 * What the analytics API reads, and the refusals it counts: the buckets folded from the change
 * log (src/store/fold.ts). SQL shared by both dialects, with `?` placeholders turned into `$n`
 * for PostgreSQL.
 */

/** The three reads of one analytics query, with their parameters. */
export function analyticsSql(dialect: 'sqlite' | 'postgres', q: AnalyticsQuery) {
  // PostgreSQL cannot tell the type of a parameter that is only tested for NULL.
  const fix = (sql: string) =>
    dialect === 'postgres' ? numbered(sql).replace(/(\$\d+) IS NULL/g, '$1::text IS NULL') : sql;
  // groupBy is one of GROUP_BY (checked by the route's schema), never free text.
  // A refusal has no request behind it: no provider, and no method (its send never happened).
  const group = (table: 'hourly' | 'refusals') =>
    !q.groupBy
      ? "''"
      : table === 'refusals' && (q.groupBy === 'provider' || q.groupBy === 'method')
        ? "''"
        : q.groupBy;
  const account = q.accountId ?? null;
  const from = q.from - (q.from % (q.intervalMs % DAY_MS === 0 ? DAY_MS : HOUR_MS));
  const params = [account, account, modeColumn(q.mode, dialect), from, q.to];
  // Days are read from the daily twins (24 times fewer rows); refusals are few enough by the hour.
  const daily = q.intervalMs % DAY_MS === 0;
  const sums = daily ? 'analytics_daily' : 'analytics_hourly';
  const ttv = daily ? 'analytics_ttv_daily' : 'analytics_ttv';
  const time = daily ? 'day' : 'hour';
  const start = (column: string) => `(${column} - ${column} % ${Math.trunc(q.intervalMs)})`;
  const whereOf = (column: string) =>
    `(? IS NULL OR account_id = ?) AND test = ? AND ${column} >= ? AND ${column} < ?`;
  const cast = dialect === 'postgres' ? '::bigint' : '';
  // Wrong codes are folded when their request settles: those of requests still pending are read
  // from the requests, in the same statement (a read folds the settled ones first).
  const width = daily ? DAY_MS : HOUR_MS;
  const cohort = `v.created_at - v.created_at % ${width}`;
  const live = (grp: string, from: string, where: string) =>
    `SELECT ${cohort} AS ${time}, ${grp} AS grp, 0, 0, 0, 0, 0, 0, 0, v.wrong_codes, 0
     FROM ${from} WHERE ${where} AND v.wrong_codes > 0
       AND (? IS NULL OR v.account_id = ?) AND v.test = ? AND ${cohort} >= ? AND ${cohort} < ?`;
  const liveGroup = (provider: string) =>
    !q.groupBy
      ? "''"
      : q.groupBy === 'channel'
        ? 'v.channel'
        : q.groupBy === 'provider'
          ? provider
          : q.groupBy === 'method'
            ? OFFERED_METHOD_SQL('v')
            : `coalesce(v.${q.groupBy}, '')`;
  return {
    params,
    // The pending requests are found by their partial index (verifications_pending_expiry).
    bucketParams: [...params, from, ...params],
    buckets: fix(
      `SELECT ${start(time)} AS start, grp, sum(sent)${cast} AS sent, sum(delivered)${cast} AS delivered,
         sum(undelivered)${cast} AS undelivered, sum(verified)${cast} AS verified, sum(failed)${cast} AS failed,
         sum(expired)${cast} AS expired, sum(canceled)${cast} AS canceled, sum(wrong_codes)${cast} AS wrong_codes,
         sum(fell_back)${cast} AS fell_back
       FROM (
         SELECT ${time}, ${group('hourly')} AS grp, sent, delivered, undelivered, verified, failed, expired, canceled,
           wrong_codes, fell_back
         FROM ${sums} WHERE ${whereOf(time)}
         UNION ALL
         ${live(liveGroup("coalesce(v.provider, '')"), 'verifications v', "v.status = 'pending' AND v.expires_at > ?")}
       ) b
       GROUP BY 1, 2
       -- A send moved to the provider that took it leaves a bucket of zeros behind.
       HAVING sum(sent) <> 0 OR sum(delivered) <> 0 OR sum(undelivered) <> 0 OR sum(verified) <> 0
         OR sum(failed) <> 0 OR sum(expired) <> 0 OR sum(canceled) <> 0 OR sum(wrong_codes) <> 0
         OR sum(fell_back) <> 0
       ORDER BY 1, 2`,
    ),
    ttv: fix(
      `SELECT ${start(time)} AS start, ${group('hourly')} AS grp, bin, sum(count)${cast} AS count
       FROM ${ttv} WHERE ${whereOf(time)} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    ),
    refusals: fix(
      `SELECT ${start('hour')} AS start, ${group('refusals')} AS grp, reason, sum(count)${cast} AS count
       FROM analytics_refusals WHERE ${whereOf('hour')} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    ),
  };
}

const num = (v: unknown) => Number(v ?? 0);

export function rowsToAnalytics(
  buckets: Array<Record<string, unknown>>,
  ttv: Array<Record<string, unknown>>,
  refusals: Array<Record<string, unknown>>,
): AnalyticsRows {
  return {
    buckets: buckets.map((r) => ({
      start: num(r.start),
      group: String(r.grp ?? ''),
      sent: num(r.sent),
      delivered: num(r.delivered),
      undelivered: num(r.undelivered),
      verified: num(r.verified),
      failed: num(r.failed),
      expired: num(r.expired),
      canceled: num(r.canceled),
      wrongCodes: num(r.wrong_codes),
      fellBack: num(r.fell_back),
    })),
    ttv: ttv.map((r) => ({
      start: num(r.start),
      group: String(r.grp ?? ''),
      bin: num(r.bin),
      count: num(r.count),
    })),
    refusals: refusals.map((r) => ({
      start: num(r.start),
      group: String(r.grp ?? ''),
      reason: String(r.reason),
      count: num(r.count),
    })),
  };
}

/** Counts one refusal in its hour's bucket. */
export function refusalSql(dialect: 'sqlite' | 'postgres'): string {
  const sql = `INSERT INTO analytics_refusals AS r (account_id, test, hour, channel, country, purpose, reason, count)
    VALUES (?, ?, ?, ?, ?, ?, ?, 1)
    ON CONFLICT (account_id, test, hour, channel, country, purpose, reason) DO UPDATE SET count = r.count + 1`;
  return placeholdersFor(dialect, sql);
}

export const refusalParams = (r: Refusal, dialect: 'sqlite' | 'postgres') => [
  r.accountId,
  modeColumn(r.mode, dialect),
  r.at - (r.at % HOUR_MS),
  r.channel,
  r.country ?? '',
  r.purpose ?? '',
  r.reason,
];
