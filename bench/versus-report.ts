/**
 * The figures of `npm run bench:versus` (bench/versus.ts): the means over rounds per tree, the
 * ratios between trees, the paired 1M/empty and PostgreSQL/SQLite ratios, and the targets of the
 * last tree against the first, as Markdown lines. Pure: no process, no file.
 */

/** What the load generator and /proc said of one endpoint in one measurement. */
export interface Figures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerRequest: number | null;
  /** The database server's CPU per request (PostgreSQL on this machine; absent otherwise). */
  dbCpuUsPerRequest?: number | null;
  /** Peak RSS of the service so far (after this endpoint's load), MiB. */
  peakRssMb: number | null;
  non2xx: number;
  errors: number;
  /** verify: ids ran out and repeated (answers "already verified"): the figure is too high. */
  poolRanOut?: boolean;
}

/** One tree's service on one fresh database copy: send-code, then verify-code. */
export interface Measurement {
  tree: string;
  database: string;
  table: string;
  round: number;
  send: Figures;
  verify: Figures;
  logLines: number;
  logErrors: number;
  codesInLog: number;
}

/** A bare-Fastify ceiling: `after` 0 is taken before the database's first round, r after round r. */
export interface Ceiling {
  database: string;
  after: number;
  rps: number;
}

export type Endpoint = 'send' | 'verify';
export const ENDPOINTS: Endpoint[] = ['send', 'verify'];

export interface EndpointSummary {
  /** Mean req/s over rounds, and each round's. */
  rps: number;
  rounds: number[];
  /** Mean over rounds of req/s divided by the ceilings around its round. */
  xBare: number | null;
  p50Ms: number;
  p99MaxMs: number;
  p99MeanMs: number;
  cpuUsPerRequest: number | null;
  dbCpuUsPerRequest: number | null;
  peakRssMb: number | null;
  non2xx: number;
  errors: number;
}

export interface Summary {
  tree: string;
  database: string;
  table: string;
  send: EndpointSummary;
  verify: EndpointSummary;
  logErrors: number;
  codesInLog: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const present = (xs: Array<number | null>) => xs.filter((x): x is number => x !== null);

/** The mean of the two ceilings around `round` of `database` (either alone if one is missing). */
export function bareAround(ceilings: Ceiling[], database: string, round: number): number | null {
  const around = ceilings
    .filter((c) => c.database === database && (c.after === round - 1 || c.after === round))
    .map((c) => c.rps);
  return around.length > 0 ? mean(around) : null;
}

function summariseEndpoint(ms: Measurement[], endpoint: Endpoint, ceilings: Ceiling[]): EndpointSummary {
  const fs = ms.map((m) => m[endpoint]);
  const xBare = present(
    ms.map((m) => {
      const bare = bareAround(ceilings, m.database, m.round);
      return bare ? m[endpoint].rps / bare : null;
    }),
  );
  const cpu = present(fs.map((f) => f.cpuUsPerRequest));
  const dbCpu = present(fs.map((f) => f.dbCpuUsPerRequest ?? null));
  const rss = present(fs.map((f) => f.peakRssMb));
  return {
    rps: mean(fs.map((f) => f.rps)),
    rounds: fs.map((f) => f.rps),
    xBare: xBare.length > 0 ? mean(xBare) : null,
    p50Ms: mean(fs.map((f) => f.p50Ms)),
    p99MaxMs: Math.max(...fs.map((f) => f.p99Ms)),
    p99MeanMs: mean(fs.map((f) => f.p99Ms)),
    cpuUsPerRequest: cpu.length > 0 ? mean(cpu) : null,
    dbCpuUsPerRequest: dbCpu.length > 0 ? mean(dbCpu) : null,
    peakRssMb: rss.length > 0 ? Math.max(...rss) : null,
    non2xx: fs.reduce((n, f) => n + f.non2xx, 0),
    errors: fs.reduce((n, f) => n + f.errors, 0),
  };
}

/** One summary per tree, database and table measured, in the order of `trees`. */
export function summarise(measurements: Measurement[], ceilings: Ceiling[], trees: string[]): Summary[] {
  const out: Summary[] = [];
  const keys = [...new Set(measurements.map((m) => `${m.database}\u0000${m.table}`))];
  for (const key of keys) {
    const [database, table] = key.split('\u0000') as [string, string];
    for (const tree of trees) {
      const ms = measurements
        .filter((m) => m.tree === tree && m.database === database && m.table === table)
        .sort((a, b) => a.round - b.round);
      if (ms.length === 0) continue;
      out.push({
        tree,
        database,
        table,
        send: summariseEndpoint(ms, 'send', ceilings),
        verify: summariseEndpoint(ms, 'verify', ceilings),
        logErrors: ms.reduce((n, m) => n + m.logErrors, 0),
        codesInLog: ms.reduce((n, m) => n + m.codesInLog, 0),
      });
    }
  }
  return out;
}

/** Paired rounds of two sets of measurements: the ratio of means, and each round's ratio. */
export interface Paired {
  ratio: number;
  rounds: number[];
}

/** `a` over `b` (each picks one measurement per round), over the rounds both have. */
export function paired(
  measurements: Measurement[],
  endpoint: Endpoint,
  a: (m: Measurement) => boolean,
  b: (m: Measurement) => boolean,
): Paired | null {
  const rounds = [...new Set(measurements.map((m) => m.round))].sort((x, y) => x - y);
  const pairs = rounds.flatMap((r) => {
    const x = measurements.find((m) => m.round === r && a(m));
    const y = measurements.find((m) => m.round === r && b(m));
    return x && y && y[endpoint].rps > 0 ? [[x[endpoint].rps, y[endpoint].rps] as const] : [];
  });
  if (pairs.length === 0) return null;
  return {
    ratio: mean(pairs.map(([x]) => x)) / mean(pairs.map(([, y]) => y)),
    rounds: pairs.map(([x, y]) => x / y),
  };
}

const is =
  (tree: string, database: string, table: string) =>
  (m: Measurement): boolean =>
    m.tree === tree && m.database === database && m.table === table;

/** Tree `a` against tree `b` on one database and table. */
export const treeRatio = (ms: Measurement[], e: Endpoint, db: string, table: string, a: string, b: string) =>
  paired(ms, e, is(a, db, table), is(b, db, table));

/** A tree's 1M-row table against its empty one, on one database. */
export const growthRatio = (ms: Measurement[], e: Endpoint, db: string, tree: string) =>
  paired(ms, e, is(tree, db, '1m'), is(tree, db, 'empty'));

/** A tree's PostgreSQL against its SQLite, on one table. */
export const storeRatio = (ms: Measurement[], e: Endpoint, table: string, tree: string) =>
  paired(ms, e, is(tree, 'postgres', table), is(tree, 'sqlite', table));

export interface Target {
  label: string;
  /** null: not measured in this run. */
  met: boolean | null;
  detail: string;
}

const DB_NAMES: Record<string, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const dbName = (db: string) => DB_NAMES[db] ?? db;
// Three decimals: a ratio printed as 1.10× must not fail a bound of 1.10×.
const x3 = (n: number) => `${n.toFixed(3)}×`;
const ms1 = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(1)} ms`;

/** Every table's check of one kind, as one target: met when every table measured meets it. */
function target(label: string, checks: Array<{ table: string; ok: boolean; text: string } | null>): Target {
  const done = checks.filter((c): c is { table: string; ok: boolean; text: string } => c !== null);
  if (done.length === 0) return { label, met: null, detail: 'not measured' };
  return {
    label,
    met: done.every((c) => c.ok),
    detail: done.map((c) => `${c.table} ${c.text}${c.ok ? '' : ' ✗'}`).join('; '),
  };
}

/**
 * The performance targets of the last tree against the first (the reference, `ea094eb` in this
 * wave's runs): the open issues' (41: with carrier lookups off, send and verify within 5 % of it on
 * both stores; 43: with REDIS_URL, PostgreSQL send ≥ 1.3× and verify ≥ 1.1× of it, SQLite within
 * 5 %), and the standing ones (p99, memory, PostgreSQL against SQLite, a filled table).
 */
export function targets(
  ms: Measurement[],
  summaries: Summary[],
  trees: string[],
  tables: string[],
  redis = false,
): Target[] {
  const first = trees[0] as string;
  const last = trees.at(-1) as string;
  const summary = (db: string, table: string) =>
    summaries.find((s) => s.tree === last && s.database === db && s.table === table);
  const speedup = (db: string, e: Endpoint, min: number, why: string) =>
    target(
      `${dbName(db)} ${e} ≥ ${min.toFixed(2)}× ${first} (${why})`,
      tables.map((table) => {
        const r = treeRatio(ms, e, db, table, last, first);
        return r && { table, ok: r.ratio >= min, text: x3(r.ratio) };
      }),
    );
  const p99 = (db: string, bound: number) =>
    target(
      `${dbName(db)} p99 of send and verify < ${bound} ms (the worst round)`,
      tables.map((table) => {
        const s = summary(db, table);
        if (!s) return null;
        const worst = Math.max(s.send.p99MaxMs, s.verify.p99MaxMs);
        return {
          table,
          ok: worst < bound,
          text: `send ${ms1(s.send.p99MaxMs)}, verify ${ms1(s.verify.p99MaxMs)}`,
        };
      }),
    );
  const growth = (db: string) =>
    ENDPOINTS.map((e) => {
      const r = growthRatio(ms, e, db, last);
      return r && { table: `${dbName(db)} ${e}`, ok: Math.abs(r.ratio - 1) <= 0.1, text: x3(r.ratio) };
    });
  const within5 = redis ? 'issue 43: unchanged within 5 %' : 'issue 41: within 5 % with lookups off';
  const [pgSend, pgVerify, pgWhy] = redis ? [1.3, 1.1, 'issue 43, with REDIS_URL'] : [0.95, 0.95, within5];
  return [
    speedup('sqlite', 'send', 0.95, within5),
    speedup('sqlite', 'verify', 0.95, within5),
    p99('sqlite', 25),
    target(
      'SQLite peak RSS ≤ 180 MiB',
      tables.map((table) => {
        const rss = summary('sqlite', table)?.verify.peakRssMb;
        return rss === undefined || rss === null
          ? null
          : { table, ok: rss <= 180, text: `${rss.toFixed(1)} MiB` };
      }),
    ),
    speedup('postgres', 'send', pgSend, pgWhy),
    speedup('postgres', 'verify', pgVerify, pgWhy),
    p99('postgres', 30),
    target(
      'PostgreSQL send ≥ 0.80× SQLite send (same run)',
      tables.map((table) => {
        const r = storeRatio(ms, 'send', table, last);
        return r && { table, ok: r.ratio >= 0.8, text: x3(r.ratio) };
      }),
    ),
    target('1M rows within 10 % of empty (1M/empty between 0.90× and 1.10×)', [
      ...growth('sqlite'),
      ...growth('postgres'),
    ]),
  ];
}
