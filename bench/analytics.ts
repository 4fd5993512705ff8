/**
 * The analytics query at scale: fills a fresh SQLite database (and PostgreSQL with
 * `--postgres=<url>`) with the buckets of 10 million events spread over 30 days (the events are
 * made in a scratch table of the bench and folded into the buckets as the fold does, here in one
 * INSERT … SELECT per table, then dropped), then times GET /v1/admin/analytics through the
 * service's own store and assembly.
 *
 *   npm run bench:analytics [-- --events=10000000 --postgres=postgres://… --keep=/path/analytics.db]
 *
 * `--keep` fills that file once and times it again on later runs (the fill takes minutes).
 * Writes docs/benchmark-analytics.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { assembleBuckets } from '../src/domain/analytics.js';
import type { AnalyticsQuery } from '../src/domain/ports/read-model.js';
import type { Store } from '../src/store/factory.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { arg } from './args.js';

const EVENTS = Number(arg('events', '10000000'));
const PG_URL = arg('postgres', '');
const KEEP = arg('keep', '');
const DAYS = 30;
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 24);
const START = NOW - DAYS * 24 * HOUR;

// One event in ten is a wrong code, one in four a send; the rest follow a send's life.
const TYPE = `CASE i % 20 WHEN 0 THEN 'verification.attempt_failed' WHEN 1 THEN 'verification.attempt_failed'
  WHEN 2 THEN 'verification.verified' WHEN 3 THEN 'verification.verified' WHEN 4 THEN 'verification.verified'
  WHEN 5 THEN 'verification.expired' WHEN 6 THEN 'verification.canceled' WHEN 7 THEN 'verification.delivered'
  WHEN 8 THEN 'verification.delivered' WHEN 9 THEN 'verification.undelivered' WHEN 10 THEN 'verification.failed'
  ELSE 'verification.created' END`;
const CHANNEL = `CASE i % 7 WHEN 0 THEN 'EMAIL' WHEN 1 THEN 'EMAIL' WHEN 2 THEN 'EMAIL' WHEN 3 THEN 'WHATSAPP' ELSE 'SMS' END`;
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'IN', 'BR', 'NG', 'ID', 'MX', 'PH'];
const country = (i: string) =>
  `CASE ${i} % 11 ${COUNTRIES.map((c, n) => `WHEN ${n} THEN '${c}'`).join(' ')} ELSE '' END`;
const PURPOSE = `CASE i % 3 WHEN 0 THEN 'login' WHEN 1 THEN 'signup' ELSE 'reset' END`;
const PROVIDER = `CASE i % 5 WHEN 0 THEN 'twilio' WHEN 1 THEN 'vonage' WHEN 2 THEN 'smtp' ELSE 'whatsapp' END`;

/** The events of the fill, in a scratch table of the bench's own (the service keeps none). */
const EVENTS_TABLE = `CREATE TABLE bench_events (account_id TEXT, test BOOLEAN, type TEXT, channel TEXT,
  country TEXT, purpose TEXT, provider TEXT, created_at BIGINT, seconds_to_verify INTEGER)`;

/** The fold, for a whole table of events at once, into one grain. */
const foldSql = (
  cast: (expr: string) => string,
  table: string,
  ms: number,
) => `INSERT INTO ${table} (account_id,
    test, ${table.endsWith('daily') ? 'day' : 'hour'}, channel, country, purpose, provider, sent, delivered,
    undelivered, verified, failed, expired, canceled, wrong_codes)
  SELECT account_id, test, created_at - created_at % ${ms}, channel, country, purpose, provider,
    ${['created', 'delivered', 'undelivered', 'verified', 'failed', 'expired', 'canceled', 'attempt_failed']
      .map((t) => cast(`sum(CASE WHEN type = 'verification.${t}' THEN 1 ELSE 0 END)`))
      .join(', ')}
  FROM bench_events GROUP BY 1, 2, 3, 4, 5, 6, 7`;
const ttvSql = (bin: string, table: string, ms: number) => `INSERT INTO ${table} (account_id, test,
    ${table.endsWith('daily') ? 'day' : 'hour'}, channel, country, purpose, provider, bin, count)
  SELECT account_id, test, created_at - created_at % ${ms}, channel, country, purpose, provider, ${bin}, count(*)
  FROM bench_events WHERE type = 'verification.verified' GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`;
const GRAINS = [
  ['analytics_hourly', 'analytics_ttv', HOUR],
  ['analytics_daily', 'analytics_ttv_daily', 24 * HOUR],
] as const;

function fillSqlite(path: string): void {
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -524288');
  const step = (DAYS * 24 * HOUR) / EVENTS;
  db.exec(EVENTS_TABLE);
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${EVENTS - 1})
     INSERT INTO bench_events (account_id, test, type, channel, country, purpose, provider, created_at,
       seconds_to_verify)
     SELECT 'acc_default', 0, ${TYPE}, ${CHANNEL}, ${country('(i / 7)')}, ${PURPOSE}, ${PROVIDER},
       ${START} + CAST(i * ${step} AS INTEGER), i % 97
     FROM n`,
  ).run();
  for (const [sums, ttv, ms] of GRAINS) {
    db.exec(foldSql((e) => e, sums, ms));
    db.exec(ttvSql('CASE WHEN seconds_to_verify <= 30 THEN 4 ELSE 7 END', ttv, ms));
  }
  db.exec('DROP TABLE bench_events');
  db.exec('ANALYZE');
  db.close();
}

async function fillPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const step = (DAYS * 24 * HOUR) / EVENTS;
    await client.query(EVENTS_TABLE.replace('CREATE TABLE', 'CREATE UNLOGGED TABLE'));
    await client.query(
      `INSERT INTO bench_events (account_id, test, type, channel, country, purpose, provider, created_at,
         seconds_to_verify)
       SELECT 'acc_default', false, ${TYPE}, ${CHANNEL}, ${country('(i / 7)')}, ${PURPOSE}, ${PROVIDER},
         ${START} + (i * ${step})::bigint, i % 97
       FROM generate_series(0, ${EVENTS - 1}) i`,
    );
    for (const [sums, ttv, ms] of GRAINS) {
      await client.query(foldSql((e) => `${e}::int`, sums, ms));
      await client.query(ttvSql('CASE WHEN seconds_to_verify <= 30 THEN 4 ELSE 7 END', ttv, ms));
    }
    await client.query('DROP TABLE bench_events');
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}

const QUERIES: Array<[string, AnalyticsQuery]> = [
  ['30 days by day', { accountId: 'acc_default', mode: 'live', from: START, to: NOW, intervalMs: 24 * HOUR }],
  [
    '30 days by day and country',
    {
      accountId: 'acc_default',
      mode: 'live',
      from: START,
      to: NOW,
      intervalMs: 24 * HOUR,
      groupBy: 'country',
    },
  ],
  [
    '3 days by hour and provider',
    {
      accountId: 'acc_default',
      mode: 'live',
      from: NOW - 3 * 24 * HOUR,
      to: NOW,
      intervalMs: HOUR,
      groupBy: 'provider',
    },
  ],
  [
    '24 hours by hour',
    { accountId: 'acc_default', mode: 'live', from: NOW - 24 * HOUR, to: NOW, intervalMs: HOUR },
  ],
];

/** Each store's lines of the generated page: query, buckets, median and max ms. */
const results: Record<string, Array<{ label: string; buckets: number; median: number; max: number }>> = {};
const fills: string[] = [];

async function time(name: string, store: Store): Promise<void> {
  const lines: (typeof results)[string] = [];
  results[name] = lines;
  for (const [label, q] of QUERIES) {
    const ms: number[] = [];
    let buckets = 0;
    for (let run = 0; run < 12; run++) {
      const t0 = performance.now();
      const result = assembleBuckets(await store.readModel.analytics(q), q.groupBy !== undefined);
      ms.push(performance.now() - t0);
      buckets = result.length;
    }
    ms.sort((a, b) => a - b);
    const median = ms[Math.floor(ms.length / 2)] as number;
    lines.push({ label, buckets, median, max: ms[ms.length - 1] as number });
    console.log(
      `${name.padEnd(10)} ${label.padEnd(30)} ${String(buckets).padStart(5)} buckets  median ${median.toFixed(1)} ms  max ${(ms[ms.length - 1] as number).toFixed(1)} ms`,
    );
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cv-bench-analytics-'));
  try {
    const path = KEEP || join(dir, 'analytics.db');
    let t0 = performance.now();
    if (!KEEP || !existsSync(KEEP)) {
      await new SqliteStore(path).close(); // migrations
      fillSqlite(path);
      fills.push(`SQLite ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      console.log(
        `SQLite: ${EVENTS} events filled and folded in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
    }
    const sqlite = new SqliteStore(path);
    const rows = (
      new BetterSqlite3(path, { readonly: true })
        .prepare('SELECT count(*) AS n FROM analytics_hourly')
        .get() as { n: number }
    ).n;
    console.log(`SQLite: ${rows} hourly bucket rows`);
    await time('SQLite', sqlite);
    await sqlite.close();
    if (PG_URL) {
      const store = new PostgresStore(PG_URL);
      await store.migrate();
      t0 = performance.now();
      await fillPostgres(PG_URL);
      fills.push(`PostgreSQL ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      console.log(
        `PostgreSQL: ${EVENTS} events filled and folded in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      await time('PostgreSQL', store);
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** docs/benchmark-analytics.md: this run's figures, one column per store. */
function writePage(): void {
  const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: here,
    encoding: 'utf8',
  }).trim();
  const stores = Object.keys(results);
  const cell = (store: string, label: string) => {
    const r = results[store]?.find((x) => x.label === label);
    return r ? `${r.median.toFixed(1)} ms, max ${r.max.toFixed(0)}` : '';
  };
  const rows = QUERIES.map(([label]) => {
    const buckets = results[stores[0] as string]?.find((x) => x.label === label)?.buckets ?? 0;
    return `| ${label} (${buckets} buckets) | ${stores.map((s) => cell(s, label)).join(' | ')} |`;
  });
  writeFileSync(
    join(here, 'docs/benchmark-analytics.md'),
    `# Benchmark: the analytics query at ${EVENTS.toLocaleString('en')} events

<!-- Generated by \`npm run bench:analytics\` (bench/analytics.ts); do not edit by hand. -->

Commit \`${commit}\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${EVENTS.toLocaleString('en')} events over ${DAYS} days, folded; GET /v1/admin/analytics through the store and the assembly, 12 runs each, median and max.${fills.length ? ` Fill and fold: ${fills.join(', ')}.` : ''}

| query | ${stores.join(' | ')} |
|---|${stores.map(() => '---|').join('')}
${rows.join('\n')}

See [analytics](analytics.md#at-10-million-events) for what is filled and how.
`,
  );
}

await main();
writePage();
