import type { ChartConfiguration } from 'chart.js';
import { useMemo, useState } from 'preact/hooks';
import { get, post, query } from '../api';
import { ChartView, PALETTE } from '../components/chart';
import { Badge, Card, DataTable, Empty, ErrorBox, Field, PageHeader, When } from '../components/ui';
import { duration, integer, percent } from '../format';
import { useAction, useLoad } from '../hooks';
import type { Breaker, Bucket, Scope } from '../types';

type Interval = 'hour' | 'day';
type GroupBy = '' | 'channel' | 'country' | 'purpose' | 'provider' | 'method';

const DAY = 86_400_000;
/** The refusals of a carrier lookup's rules (docs/lookup.md), beside the risk threshold and blocks. */
const LOOKUP_REASONS = ['line_type', 'sim_swap', 'lookup_unavailable'];
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface Totals {
  sent: number;
  verified: number;
  undelivered: number;
  limited: number;
  riskRefused: number;
  blockedRefused: number;
  /** Sends refused by a carrier lookup's rule (line_type, sim_swap, lookup_unavailable). */
  lookupRefused: number;
  /** Every refusal of the risk screen by reason (the buckets' refusedBy, summed). */
  refusedBy: Record<string, number>;
  wrongCodes: number;
  /** SILENT requests that fell back to a code. */
  fellBack: number;
  /** Requests that ended failed (attempts used up) or expired. */
  failed: number;
  limitedBy: Record<string, number>;
  medianSecondsToVerify: number | null;
}

/** Sums the buckets; the median is the verified-weighted median of the bucket medians. */
export function totals(buckets: Bucket[]): Totals {
  const sum: Totals = {
    sent: 0,
    verified: 0,
    undelivered: 0,
    limited: 0,
    riskRefused: 0,
    blockedRefused: 0,
    lookupRefused: 0,
    refusedBy: {},
    wrongCodes: 0,
    fellBack: 0,
    failed: 0,
    limitedBy: {},
    medianSecondsToVerify: null,
  };
  const medians: [number, number][] = [];
  for (const b of buckets) {
    sum.sent += b.sent;
    sum.verified += b.verified;
    sum.undelivered += b.undelivered;
    sum.limited += b.limited;
    sum.riskRefused += b.riskRefused;
    sum.blockedRefused += b.blockedRefused;
    for (const [reason, count] of Object.entries(b.refusedBy ?? {})) {
      sum.refusedBy[reason] = (sum.refusedBy[reason] ?? 0) + count;
      if (LOOKUP_REASONS.includes(reason)) sum.lookupRefused += count;
    }
    sum.wrongCodes += b.wrongCodes;
    sum.fellBack += b.fellBack;
    sum.failed += b.failed + b.expired;
    for (const [name, count] of Object.entries(b.limitedBy))
      sum.limitedBy[name] = (sum.limitedBy[name] ?? 0) + count;
    if (b.medianSecondsToVerify !== null && b.verified > 0)
      medians.push([b.medianSecondsToVerify, b.verified]);
  }
  medians.sort((a, b) => a[0] - b[0]);
  let seen = 0;
  for (const [value, weight] of medians) {
    seen += weight;
    if (seen * 2 >= sum.verified) {
      sum.medianSecondsToVerify = value;
      break;
    }
  }
  return sum;
}

/**
 * A bucket's label, in UTC as the analytics API counts them (a UTC day is not the operator's
 * local day): the day, or the hour (with its day when the range spans several).
 */
function label(start: string, interval: Interval, severalDays: boolean): string {
  const date = new Date(start);
  if (interval === 'day')
    return date.toLocaleDateString(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric' });
  return date.toLocaleString(undefined, {
    timeZone: 'UTC',
    ...(severalDays ? { month: 'short', day: 'numeric' } : {}),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
}

export function OverviewPage(props: { scope: Scope }) {
  const { account, mode } = props.scope;
  const [from, setFrom] = useState(isoDate(Date.now() - 6 * DAY));
  const [to, setTo] = useState(isoDate(Date.now()));
  const [chosenInterval, setInterval] = useState<Interval>('day');
  const [groupBy, setGroupBy] = useState<GroupBy>('');

  // UTC days, as the API's buckets are.
  const range = useMemo(() => {
    const start = new Date(`${from}T00:00:00Z`).getTime();
    const end = new Date(`${to}T00:00:00Z`).getTime() + DAY;
    return { from: new Date(start).toISOString(), to: new Date(end).toISOString() };
  }, [from, to]);
  // A single day by day would be one bucket: it is drawn by the hour.
  const oneDay = new Date(range.to).getTime() - new Date(range.from).getTime() <= DAY;
  const interval: Interval = oneDay ? 'hour' : chosenInterval;

  const analytics = useLoad(
    () =>
      get<{ data: { buckets: Bucket[] } }>(
        `/v1/admin/analytics${query({ accountId: account.id, mode, interval, groupBy, ...range })}`,
      ).then((r) => r.data.buckets),
    [account.id, mode, interval, groupBy, range],
  );
  const buckets = analytics.data ?? [];
  const sum = useMemo(() => totals(buckets), [buckets]);

  const preset = (days: number, step: Interval) => {
    setFrom(isoDate(Date.now() - (days - 1) * DAY));
    setTo(isoDate(Date.now()));
    setInterval(step);
  };

  return (
    <>
      <PageHeader
        title="Overview"
        description={`${account.name} · ${mode === 'live' ? 'live' : 'test'} traffic`}
        actions={
          <button type="button" onClick={analytics.reload} disabled={analytics.loading}>
            Refresh
          </button>
        }
      />
      <fieldset class="toolbar" aria-label="Range and grouping">
        <fieldset class="segmented" aria-label="Quick range">
          <button type="button" onClick={() => preset(1, 'hour')}>
            24 h
          </button>
          <button type="button" onClick={() => preset(7, 'day')}>
            7 days
          </button>
          <button type="button" onClick={() => preset(30, 'day')}>
            30 days
          </button>
        </fieldset>
        <Field label="From">
          <input type="date" value={from} max={to} onChange={(e) => setFrom(e.currentTarget.value)} />
        </Field>
        <Field label="To">
          <input type="date" value={to} min={from} onChange={(e) => setTo(e.currentTarget.value)} />
        </Field>
        <Field label="Interval">
          <select
            value={interval}
            disabled={oneDay}
            onChange={(e) => setInterval(e.currentTarget.value as Interval)}
          >
            <option value="hour">By hour</option>
            <option value="day">By day</option>
          </select>
        </Field>
        <Field label="Group by">
          <select value={groupBy} onChange={(e) => setGroupBy(e.currentTarget.value as GroupBy)}>
            <option value="">Nothing</option>
            <option value="channel">Channel</option>
            <option value="country">Country</option>
            <option value="purpose">Purpose</option>
            <option value="provider">Provider</option>
            <option value="method">Method (magic link or code)</option>
          </select>
        </Field>
      </fieldset>
      <p class="muted note" data-testid="time-zone-note">
        Days and hours are UTC, as the service counts them
        {oneDay ? '; a single day is shown by the hour' : ''}. Other times on these pages are in your time
        zone.
      </p>
      <ErrorBox error={analytics.error} />
      <div class="kpis" aria-live="polite">
        <Kpi name="Sends" count={sum.sent} testId="kpi-sent" />
        <Kpi name="Verified" count={sum.verified} testId="kpi-verified" />
        <Kpi
          name="Conversion"
          value={sum.sent ? percent(sum.verified / sum.sent) : '—'}
          testId="kpi-conversion"
        />
        <Kpi name="Median time to verify" value={duration(sum.medianSecondsToVerify)} testId="kpi-median" />
        <Kpi name="Delivery failures" count={sum.undelivered} testId="kpi-undelivered" tone="bad" />
        <Kpi name="Rate-limit refusals" count={sum.limited} testId="kpi-limited" tone="warn" />
        <Kpi
          name="Risk & block refusals"
          count={sum.riskRefused + sum.blockedRefused}
          testId="kpi-risk"
          tone="warn"
        />
        <Kpi name="Carrier lookup refusals" count={sum.lookupRefused} testId="kpi-lookup" tone="warn" />
        <Kpi name="Wrong codes" count={sum.wrongCodes} testId="kpi-wrong" />
      </div>
      {sum.lookupRefused > 0 && (
        <p class="muted" data-testid="lookup-refusals">
          Carrier lookup refusals by reason:{' '}
          {LOOKUP_REASONS.filter((r) => sum.refusedBy[r])
            .map((r) => `${r} ${integer(sum.refusedBy[r] ?? 0)}`)
            .join(' · ')}
        </p>
      )}
      {!analytics.loading &&
      sum.sent === 0 &&
      sum.limited === 0 &&
      sum.riskRefused === 0 &&
      sum.lookupRefused === 0 ? (
        <Card>
          <Empty title="No sends in this range yet">
            Send a code with an API key of this account (<code>POST /v1/contact/send-code</code>, see the
            README's quick start), or create a key on the API keys page. Test keys count under “Test”.
          </Empty>
        </Card>
      ) : (
        <Charts buckets={buckets} interval={interval} groupBy={groupBy} range={range} />
      )}
      {groupBy && buckets.length > 0 && <GroupTable buckets={buckets} />}
      <SilentOutcomes accountId={account.id} mode={mode} range={range} />
      <Breakers scope={props.scope} />
    </>
  );
}

/**
 * A figure of the range. `tone` marks a count that calls for attention, and only when there is
 * something to look at: none is good news, shown plainly.
 */
function Kpi(
  props: { name: string; testId: string; tone?: 'bad' | 'warn' } & (
    | { value: string; count?: undefined }
    | { count: number; value?: undefined }
  ),
) {
  const alarming = props.tone && props.count !== undefined && props.count > 0;
  return (
    <div class={`kpi ${alarming ? props.tone : ''}`} data-testid={props.testId}>
      <span class="kpi-name">{props.name}</span>
      <span class="kpi-value">{props.count !== undefined ? integer(props.count) : props.value}</span>
    </div>
  );
}

/**
 * Every bucket start of the range (the API leaves out empty ones), so the x axis spans the whole
 * range and a quiet day shows as zero. Buckets start on UTC hours and days.
 */
export function bucketStarts(
  range: { from: string; to: string },
  interval: Interval,
  buckets: Bucket[],
): string[] {
  const step = interval === 'hour' ? 3_600_000 : DAY;
  const end = new Date(range.to).getTime();
  const starts = new Set(buckets.map((b) => b.start));
  let at = Math.floor(new Date(range.from).getTime() / step) * step;
  for (let i = 0; at < end && i < 2000; i++, at += step) starts.add(new Date(at).toISOString());
  return [...starts].sort();
}

/**
 * A line needs two points: series of one value each (a single active day or hour) are drawn as
 * bars, not as a lone dot at the edge of the axis.
 */
export function lineOrBars(series: Array<{ data: Array<number | null> }>): 'line' | 'bar' {
  return series.some((s) => s.data.filter((v) => v !== null).length > 1) ? 'line' : 'bar';
}

function Charts(props: {
  buckets: Bucket[];
  interval: Interval;
  groupBy: GroupBy;
  range: { from: string; to: string };
}) {
  const { buckets, interval, groupBy, range } = props;
  const configs = useMemo(() => {
    const starts = bucketStarts(range, interval, buckets);
    const severalDays = new Date(range.to).getTime() - new Date(range.from).getTime() > DAY;
    const labels = starts.map((s) => label(s, interval, severalDays));
    const groups = [...new Set(buckets.map((b) => b.group ?? 'all'))];
    const at = (group: string, start: string) =>
      buckets.find((b) => (b.group ?? 'all') === group && b.start === start);
    const byStart = starts.map((start) => totals(buckets.filter((b) => b.start === start)));

    const volume: ChartConfiguration = groupBy
      ? {
          type: 'bar',
          data: {
            labels,
            datasets: groups.map((group, i) => ({
              label: group,
              data: starts.map((s) => at(group, s)?.sent ?? 0),
              backgroundColor: PALETTE[i % PALETTE.length],
            })),
          },
          options: {
            scales: {
              x: { stacked: true },
              y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
            },
          },
        }
      : {
          type: 'bar',
          data: {
            labels,
            datasets: [
              { label: 'Sends', data: byStart.map((t) => t.sent), backgroundColor: PALETTE[0] },
              { label: 'Verified', data: byStart.map((t) => t.verified), backgroundColor: PALETTE[1] },
              { label: 'Undelivered', data: byStart.map((t) => t.undelivered), backgroundColor: '#dc2626' },
            ],
          },
          options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
        };
    const conversionSeries = groupBy
      ? groups.map((group, i) => ({
          label: group,
          data: starts.map((s) => {
            const b = at(group, s);
            return b?.sent ? Math.round(b.conversionRate * 1000) / 10 : null;
          }),
          borderColor: PALETTE[i % PALETTE.length],
          backgroundColor: PALETTE[i % PALETTE.length],
          spanGaps: true,
        }))
      : [
          {
            label: 'Conversion %',
            data: byStart.map((t) => (t.sent ? Math.round((t.verified / t.sent) * 1000) / 10 : null)),
            borderColor: PALETTE[1],
            backgroundColor: 'rgba(13, 148, 136, 0.12)',
            fill: true,
            spanGaps: true,
          },
        ];
    const conversionType = lineOrBars(conversionSeries);
    const conversion: ChartConfiguration = {
      type: conversionType,
      data: {
        labels,
        // A bar is filled with the line's colour (the line's own fill is a faint wash under it).
        datasets:
          conversionType === 'bar'
            ? conversionSeries.map((series) => ({ ...series, backgroundColor: series.borderColor }))
            : conversionSeries,
      },
      options: { scales: { y: { min: 0, max: 100, ticks: { callback: (v) => `${v} %` } } } },
    };
    const refusals: ChartConfiguration = {
      type: 'bar',
      data: {
        labels,
        datasets: [
          { label: 'Rate-limited', data: byStart.map((t) => t.limited), backgroundColor: PALETTE[2] },
          { label: 'Risk refused', data: byStart.map((t) => t.riskRefused), backgroundColor: PALETTE[3] },
          {
            label: 'Blocked contact',
            data: byStart.map((t) => t.blockedRefused),
            backgroundColor: '#64748b',
          },
          {
            label: 'Carrier lookup',
            data: byStart.map((t) => t.lookupRefused),
            backgroundColor: PALETTE[4] ?? '#a855f7',
          },
        ],
      },
      options: {
        scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
      },
    };
    const timingSeries = [
      {
        label: 'Median seconds to verify',
        data: byStart.map((t) => t.medianSecondsToVerify),
        borderColor: PALETTE[0],
        backgroundColor: PALETTE[0],
        spanGaps: true,
      },
    ];
    const timing: ChartConfiguration = {
      type: lineOrBars(timingSeries),
      data: { labels, datasets: timingSeries },
      options: { scales: { y: { beginAtZero: true } } },
    };
    return { volume, conversion, refusals, timing };
  }, [buckets, interval, groupBy, range]);

  return (
    <div class="grid-2">
      <Card title={groupBy ? `Sends by ${groupBy}` : 'Sends and verifications'}>
        <ChartView name="volume" config={configs.volume} label="Sends over time" />
      </Card>
      <Card title="Conversion">
        <ChartView name="conversion" config={configs.conversion} label="Conversion rate over time" />
      </Card>
      <Card title="Refusals">
        <ChartView name="refusals" config={configs.refusals} label="Refused sends over time" />
      </Card>
      <Card title="Time to verify">
        <ChartView name="timing" config={configs.timing} label="Median time to verify over time" />
      </Card>
    </div>
  );
}

/**
 * How silent network authentication fared in the range: SILENT requests started, proven by the
 * network, failed (undelivered, failed or expired) and fallen back to a code. Shown only when
 * the account made SILENT requests in the range.
 */
function SilentOutcomes(props: { accountId: string; mode: string; range: { from: string; to: string } }) {
  const { accountId, mode, range } = props;
  const byChannel = useLoad(
    () =>
      get<{ data: { buckets: Bucket[] } }>(
        `/v1/admin/analytics${query({ accountId, mode, interval: 'day', groupBy: 'channel', ...range })}`,
      ).then((r) => r.data.buckets.filter((b) => b.group === 'SILENT')),
    [accountId, mode, range],
  );
  const silent = totals(byChannel.data ?? []);
  if (silent.sent === 0) return null;
  return (
    <Card title="Silent network authentication">
      <div class="kpis" data-testid="silent-outcomes">
        <Kpi name="Started" count={silent.sent} testId="silent-started" />
        <Kpi name="Proven by the network" count={silent.verified} testId="silent-verified" />
        <Kpi name="Success rate" value={percent(silent.verified / silent.sent)} testId="silent-rate" />
        <Kpi name="Failed" count={silent.undelivered + silent.failed} testId="silent-failed" tone="bad" />
        <Kpi name="Fell back to a code" count={silent.fellBack} testId="silent-fell-back" tone="warn" />
      </div>
    </Card>
  );
}

function GroupTable(props: { buckets: Bucket[] }) {
  const rows = useMemo(() => {
    const groups = new Map<string, Bucket[]>();
    for (const b of props.buckets) {
      const key = b.group ?? '(none)';
      groups.set(key, [...(groups.get(key) ?? []), b]);
    }
    return [...groups.entries()]
      .map(([group, list]) => ({ group, ...totals(list) }))
      .sort((a, b) => b.sent - a.sent);
  }, [props.buckets]);
  return (
    <Card title="By group">
      <DataTable
        columns={[
          'Group',
          'Sends',
          'Verified',
          'Conversion',
          'Undelivered',
          'Rate-limited',
          'Risk refused',
          'Fell back',
          'Median to verify',
        ]}
      >
        {rows.map((r) => (
          <tr key={r.group}>
            <td>{r.group}</td>
            <td>{integer(r.sent)}</td>
            <td>{integer(r.verified)}</td>
            <td>{r.sent ? percent(r.verified / r.sent) : '—'}</td>
            <td>{integer(r.undelivered)}</td>
            <td>{integer(r.limited)}</td>
            <td>{integer(r.riskRefused)}</td>
            <td>{integer(r.fellBack)}</td>
            <td>{duration(r.medianSecondsToVerify)}</td>
          </tr>
        ))}
      </DataTable>
    </Card>
  );
}

function Breakers(props: { scope: Scope }) {
  const { account, mode } = props.scope;
  const breakers = useLoad(
    () =>
      get<{ data: Breaker[] }>(`/v1/admin/breakers${query({ accountId: account.id })}`).then((r) => r.data),
    [account.id],
  );
  const action = useAction();
  const list = (breakers.data ?? []).filter((b) => b.mode === mode);
  const reset = (b: Breaker) =>
    action
      .run(() =>
        post(`/v1/admin/breakers/${encodeURIComponent(b.country)}/reset`, {
          accountId: b.accountId,
          mode: b.mode,
        }),
      )
      .then(breakers.reload);
  return (
    <Card title="SMS-pumping breakers">
      <ErrorBox error={breakers.error ?? action.error} />
      {list.length === 0 ? (
        <Empty title="No breaker has tripped">
          When sends to a country pile up without verifications, its breaker trips and SMS/WhatsApp sends
          there are refused until you reset it here. Tune it under Limits & settings.
        </Empty>
      ) : (
        <DataTable columns={['Country', 'State', 'Tripped', 'Last reset']} actions>
          {list.map((b) => (
            <tr key={b.country}>
              <td>{b.country}</td>
              <td>{b.tripped ? <Badge tone="bad">tripped</Badge> : <Badge tone="good">closed</Badge>}</td>
              <td>
                <When iso={b.trippedAt} />
              </td>
              <td>
                <When iso={b.resetAt} />
              </td>
              <td class="actions">
                {b.tripped && (
                  <button
                    type="button"
                    disabled={action.busy}
                    aria-label={`Reset the breaker of ${b.country}`}
                    onClick={() => reset(b)}
                  >
                    Reset
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </Card>
  );
}
