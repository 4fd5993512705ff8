import {
  type Ceiling,
  ENDPOINTS,
  type EndpointSummary,
  growthRatio,
  type Measurement,
  type Paired,
  type Summary,
  storeRatio,
  summarise,
  type Target,
  targets,
  treeRatio,
} from './versus-report.js';

/** An aligned Markdown table; the first `left` columns are left-aligned, the others right. */
export function markdownTable(header: string[], rows: string[][], left = 1): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < left ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i < left ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ];
}

const DB = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as Record<string, string>;
const int = (n: number) => String(Math.round(n));
const x2 = (n: number | null | undefined) => (n === null || n === undefined ? '–' : `${n.toFixed(2)}×`);
const ms = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
/** Half the spread of the rounds, as a share of their mean: how far one round may stray. */
const spread = (rounds: number[]) =>
  rounds.length < 2
    ? '–'
    : `±${(((Math.max(...rounds) - Math.min(...rounds)) / 2 / (rounds.reduce((a, b) => a + b, 0) / rounds.length)) * 100).toFixed(0)} %`;
/** A paired ratio with the range of its rounds' ratios. */
const pairedText = (p: Paired | null) => {
  if (!p) return '–';
  if (p.rounds.length < 2) return x2(p.ratio);
  return `${x2(p.ratio)} (${Math.min(...p.rounds).toFixed(2)}–${Math.max(...p.rounds).toFixed(2)})`;
};

export interface VersusRun {
  trees: string[];
  databases: string[];
  tables: string[];
  /** Rows of the filled table, for its heading. */
  rows: number;
  measurements: Measurement[];
  ceilings: Ceiling[];
  /** Whether every service ran with REDIS_URL: the targets differ (versus-report.ts, targets). */
  redis?: boolean;
}

/** Everything the page and stdout show of a run, Markdown. */
export function versusLines(run: VersusRun): { lines: string[]; summaries: Summary[]; targets: Target[] } {
  const { trees, measurements: m } = run;
  const summaries = summarise(m, run.ceilings, trees);
  const reference = trees[0] as string;
  const tableName = (t: string) => (t === '1m' ? `${run.rows.toLocaleString('en-US')} rows` : `${t} table`);
  const lines: string[] = [];

  for (const db of run.databases) {
    for (const table of run.tables) {
      const here = summaries.filter((s) => s.database === db && s.table === table);
      if (here.length === 0) continue;
      lines.push(`### ${DB[db] ?? db}, ${tableName(table)}`, '');
      // The server's own CPU where it is a process of its own (PostgreSQL); SQLite's is the service's.
      const serverCpu = here.some((s) => ENDPOINTS.some((e) => s[e].dbCpuUsPerRequest !== null));
      const row = (s: Summary, e: 'send' | 'verify', f: EndpointSummary) => [
        s.tree,
        e,
        int(f.rps),
        spread(f.rounds),
        x2(f.xBare),
        s.tree === reference ? '1.00×' : pairedText(treeRatio(m, e, db, table, s.tree, reference)),
        ms(f.p50Ms),
        ms(f.p99MaxMs),
        ms(f.p99MeanMs),
        f.cpuUsPerRequest === null ? '–' : int(f.cpuUsPerRequest),
        ...(serverCpu ? [f.dbCpuUsPerRequest === null ? '–' : int(f.dbCpuUsPerRequest)] : []),
        f.peakRssMb === null ? '–' : f.peakRssMb.toFixed(1),
        String(f.non2xx + f.errors),
      ];
      lines.push(
        ...markdownTable(
          [
            'tree',
            'endpoint',
            'req/s',
            'rounds',
            '× bare',
            `× ${reference}`,
            'p50 ms',
            'p99 ms max',
            'p99 ms mean',
            'CPU µs/req',
            ...(serverCpu ? [`${DB[db] ?? db} CPU µs/req`] : []),
            'peak RSS MiB',
            'non-2xx',
          ],
          here.flatMap((s) => ENDPOINTS.map((e) => row(s, e, s[e]))),
          2,
        ),
        '',
      );
      // Every later tree against every earlier one (the reference's column is above).
      const pairs = trees.flatMap((a, i) => trees.slice(0, i).map((b) => [a, b] as const));
      if (pairs.length > 1) {
        lines.push(
          `Between trees: ${pairs
            .map(
              ([a, b]) =>
                `${a}/${b} send ${pairedText(treeRatio(m, 'send', db, table, a, b))}, verify ${pairedText(treeRatio(m, 'verify', db, table, a, b))}`,
            )
            .join('; ')}.`,
          '',
        );
      }
    }
  }

  if (run.tables.includes('empty') && run.tables.includes('1m')) {
    lines.push(`### ${tableName('1m')} against an empty table (req/s, same rounds)`, '');
    const cols = run.databases.flatMap((db) => ENDPOINTS.map((e) => [db, e] as const));
    lines.push(
      ...markdownTable(
        ['tree', ...cols.map(([db, e]) => `${DB[db] ?? db} ${e}`)],
        trees.map((t) => [t, ...cols.map(([db, e]) => pairedText(growthRatio(m, e, db, t)))]),
      ),
      '',
    );
  }
  if (run.databases.includes('sqlite') && run.databases.includes('postgres')) {
    lines.push('### PostgreSQL send against SQLite send (same run)', '');
    lines.push(
      ...markdownTable(
        ['tree', ...run.tables.map(tableName)],
        trees.map((t) => [t, ...run.tables.map((table) => pairedText(storeRatio(m, 'send', table, t)))]),
      ),
      '',
    );
  }

  const goals = targets(m, summaries, trees, run.tables, run.redis ?? false);
  lines.push(`### Targets: ${trees.at(-1)} against ${reference}`, '');
  for (const g of goals)
    lines.push(
      g.met === null
        ? `- not measured: ${g.label}`
        : `- ${g.met ? '**met**' : '**not met**'}: ${g.label}: ${g.detail}`,
    );
  lines.push('');

  const ceilingText = run.databases
    .map((db) => {
      const cs = run.ceilings.filter((c) => c.database === db).sort((a, b) => a.after - b.after);
      return cs.length ? `${DB[db] ?? db} ${cs.map((c) => int(c.rps)).join(' · ')}` : null;
    })
    .filter(Boolean);
  if (ceilingText.length > 0)
    lines.push(
      `Bare-Fastify ceilings (req/s; before each database, then after each round): ${ceilingText.join('; ')}.`,
    );
  const failed = m.filter((x) => x.send.non2xx + x.send.errors + x.verify.non2xx + x.verify.errors > 0);
  const logged = summaries.reduce((n, s) => n + s.logErrors, 0);
  const codes = summaries.reduce((n, s) => n + s.codesInLog, 0);
  const label = (x: Measurement) => `${x.tree}/${x.database}/${x.table}/r${x.round}`;
  const ranOut = m.filter((x) => x.verify.poolRanOut);
  lines.push(
    `Checks: ${m.length} services measured; ${failed.length === 0 ? 'every answer 2xx' : `non-2xx or errors in ${failed.map(label).join(', ')}`}; ` +
      `${logged} log lines at error level; ${codes} issued codes found in the logs; ` +
      (ranOut.length === 0
        ? 'no verify measurement ran past its pool of ids.'
        : `verify ran past its pool of ids (some answers "already verified", so req/s too high) in ${ranOut.map(label).join(', ')}.`),
  );
  return { lines, summaries, targets: goals };
}
