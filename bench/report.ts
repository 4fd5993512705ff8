import type { GrowthRow, Row } from './scenario.js';

/**
 * Prints the rows as an aligned table, then the scenarios that were not measured and why, and
 * what each service wrote to its log.
 */
export function printTable(
  rows: Row[],
  skipped: Array<{ scenario: string; reason?: string }>,
  logs: Array<{ scenario: string; logLines?: number; logErrors?: number; codesInLog?: number }> = [],
): void {
  const header = [
    'scenario',
    'endpoint',
    'conns',
    'req/s',
    'p50 ms',
    'p99 ms',
    'ceiling req/s',
    'x ceiling',
    'non-2xx',
    'errors',
    'peak RSS MB',
    'CPU us/req',
  ];
  const cells = rows.map((r) => [
    r.scenario,
    r.endpoint,
    String(r.connections),
    String(r.requestsPerSecond),
    String(r.p50Ms),
    String(r.p99Ms),
    r.ceilingRps === undefined ? '' : String(r.ceilingRps),
    r.ratio === undefined ? '' : r.ratio.toFixed(2),
    String(r.non2xx),
    String(r.errors),
    r.peakRssMb === null ? '' : r.peakRssMb.toFixed(1),
    r.cpuUsPerRequest === null || r.cpuUsPerRequest === undefined ? '' : String(r.cpuUsPerRequest),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) =>
    `| ${c.map((v, i) => (i < 2 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const out = [
    line(header),
    `|${widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...cells.map(line),
  ];
  for (const s of skipped) out.push(`skipped ${s.scenario}: ${s.reason ?? ''}`);
  for (const l of logs) {
    out.push(
      `service log of ${l.scenario}: ${l.logLines} lines, ${l.logErrors} at error level, ${l.codesInLog} issued codes`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

/** The paired comparison of a filled table with an empty one, one line per database and endpoint. */
export function printGrowth(rows: GrowthRow[]): void {
  if (rows.length === 0) return;
  const out = ['1M rows against an empty table, measured alternately (ABBA) side by side:'];
  for (const r of rows) {
    const pct = Math.round((r.ratio - 1) * 100);
    out.push(
      `  ${r.database} ${r.endpoint} @${r.connections}: empty ${r.empty.join('/')} req/s, 1M ${r.filled.join('/')} req/s, ` +
        `1M/empty ${r.ratio.toFixed(2)} (${pct >= 0 ? '+' : ''}${pct} %)`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
