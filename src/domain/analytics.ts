import { type Clock, DAY_MS, HOUR_MS } from './clock.js';
import { DomainError } from './errors.js';
import type { AnalyticsRows, BucketSums, GroupBy, ReadModel } from './ports/read-model.js';
import type { Mode } from './types.js';

/**
 * Upper bounds (seconds) of the bins of the seconds-to-verify histogram kept per bucket
 * (analytics_ttv, migration 020); the last bin holds everything longer.
 */
export const TTV_BIN_EDGES = [5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800] as const;

/** One bucket of GET /v1/admin/analytics. */
export interface AnalyticsBucket {
  start: string;
  group: string | null;
  sent: number;
  delivered: number;
  undelivered: number;
  verified: number;
  failed: number;
  expired: number;
  canceled: number;
  /** verified / sent, 0 when nothing was sent. */
  conversionRate: number;
  wrongCodes: number;
  /** SILENT requests that fell back to a code (send-code `fallback`): a failed or timed-out silent check. */
  fellBack: number;
  /** Sends refused by a rate limit or the SMS-pumping breaker. */
  limited: number;
  limitedBy: Record<string, number>;
  riskRefused: number;
  blockedRefused: number;
  /**
   * Sends refused by the screen, by reason: `blocked`, `risk` (the threshold), and a carrier
   * lookup's `line_type`, `sim_swap` and `lookup_unavailable`. Limits are in `limitedBy`.
   */
  refusedBy: Record<string, number>;
  medianSecondsToVerify: number | null;
  p90SecondsToVerify: number | null;
}

/**
 * The `q` quantile of a histogram with TTV_BIN_EDGES, interpolated linearly within its bin (the
 * first bin starts at 0; the open last bin answers its lower bound). Null for an empty histogram.
 */
export function quantileOfHistogram(counts: number[], q: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (const [bin, count] of counts.entries()) {
    if (count > 0 && seen + count >= rank) {
      const low = bin === 0 ? 0 : (TTV_BIN_EDGES[bin - 1] as number);
      const high = TTV_BIN_EDGES[bin];
      if (high === undefined) return low;
      return Math.round((low + ((rank - seen) / count) * (high - low)) * 10) / 10;
    }
    seen += count;
  }
  return TTV_BIN_EDGES[TTV_BIN_EDGES.length - 1] as number;
}

/** The answer's buckets from the store's sums, histograms and refusals, in time then group order. */
export function assembleBuckets(rows: AnalyticsRows, grouped: boolean): AnalyticsBucket[] {
  const key = (start: number, group: string) => `${start}\u0000${group}`;
  const sums = new Map<string, BucketSums>();
  const blank = (start: number, group: string): BucketSums => ({
    start,
    group,
    sent: 0,
    delivered: 0,
    undelivered: 0,
    verified: 0,
    failed: 0,
    expired: 0,
    canceled: 0,
    wrongCodes: 0,
    fellBack: 0,
  });
  for (const b of rows.buckets) sums.set(key(b.start, b.group), b);
  for (const r of rows.refusals)
    if (!sums.has(key(r.start, r.group))) sums.set(key(r.start, r.group), blank(r.start, r.group));
  const histograms = new Map<string, number[]>();
  for (const t of rows.ttv) {
    const k = key(t.start, t.group);
    const h = histograms.get(k) ?? new Array<number>(TTV_BIN_EDGES.length + 1).fill(0);
    h[t.bin] = (h[t.bin] ?? 0) + t.count;
    histograms.set(k, h);
  }
  const refusals = new Map<string, Array<{ reason: string; count: number }>>();
  for (const r of rows.refusals) {
    const k = key(r.start, r.group);
    refusals.set(k, [...(refusals.get(k) ?? []), r]);
  }
  return [...sums.values()]
    .sort((a, b) => a.start - b.start || a.group.localeCompare(b.group))
    .map((b) => {
      const k = key(b.start, b.group);
      const limitedBy: Record<string, number> = {};
      const refusedBy: Record<string, number> = {};
      for (const r of refusals.get(k) ?? []) {
        if (r.reason.startsWith('limit:')) limitedBy[r.reason.slice(6)] = r.count;
        else if (r.reason === 'breaker') limitedBy.breaker = r.count;
        else refusedBy[r.reason] = (refusedBy[r.reason] ?? 0) + r.count;
      }
      const histogram = histograms.get(k) ?? [];
      return {
        start: new Date(b.start).toISOString(),
        group: grouped ? b.group || null : null,
        sent: b.sent,
        delivered: b.delivered,
        undelivered: b.undelivered,
        verified: b.verified,
        failed: b.failed,
        expired: b.expired,
        canceled: b.canceled,
        conversionRate: b.sent > 0 ? Math.round((b.verified / b.sent) * 10_000) / 10_000 : 0,
        wrongCodes: b.wrongCodes,
        fellBack: b.fellBack,
        limited: Object.values(limitedBy).reduce((a, c) => a + c, 0),
        limitedBy,
        riskRefused: refusedBy.risk ?? 0,
        blockedRefused: refusedBy.blocked ?? 0,
        refusedBy,
        medianSecondsToVerify: quantileOfHistogram(histogram, 0.5),
        p90SecondsToVerify: quantileOfHistogram(histogram, 0.9),
      };
    });
}

/** The widest range one query may span: a year of days, or three days of hours (docs/analytics.md). */
const MAX_BUCKETS = { hour: 3 * 24, day: 366 } as const;

/** One analytics question, as an operator asks it. */
export interface AnalyticsRequest {
  /** Absent: every account. */
  accountId?: string;
  mode: Mode;
  /** Epoch ms; `to` defaults to now. */
  from: number;
  to?: number;
  interval: 'hour' | 'day';
  groupBy?: GroupBy;
}

const invalid = (field: string, message: string) =>
  new DomainError('VALIDATION_ERROR', `Invalid request: ${message}`, [{ field, message }]);

/** Analytics over the read model: the buckets of one range, within the bounds one query may span. */
export class Analytics {
  constructor(
    private readonly readModel: Pick<ReadModel, 'analytics'>,
    private readonly clock: Clock,
  ) {}

  async buckets(request: AnalyticsRequest): Promise<AnalyticsBucket[]> {
    const { interval, from, groupBy } = request;
    const to = request.to ?? this.clock.now();
    const size = interval === 'hour' ? HOUR_MS : DAY_MS;
    if (!(to > from)) throw invalid('to', 'must be later than from');
    if ((to - from) / size > MAX_BUCKETS[interval])
      throw invalid('to', `at most ${MAX_BUCKETS[interval]} buckets of one ${interval} per query`);
    const rows = await this.readModel.analytics({
      accountId: request.accountId,
      mode: request.mode,
      from,
      to,
      intervalMs: size,
      groupBy,
    });
    return assembleBuckets(rows, groupBy !== undefined);
  }
}
