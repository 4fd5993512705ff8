import type { StoreReport } from './campaign.js';

const ok = (good: boolean) => (good ? '✓' : '✗');
const ms = (values: number[]) => {
  if (values.length === 0) return '—';
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as number;
  return values.length === 1 ? `${median} ms` : `${median} / ${sorted.at(-1)} ms`;
};

/** One row per check, one column per store, in Markdown. */
export function table(reports: StoreReport[]): string {
  const rows: Array<[string, (r: StoreReport) => string]> = [
    ['kill -9 rounds', (r) => String(r.rounds)],
    ['sends acknowledged (calls / requests)', (r) => `${r.tally.ackedSends} / ${r.tally.ackedRequests}`],
    ['requests stored', (r) => String(r.tally.stored)],
    [
      'acknowledged but not stored (must be 0)',
      (r) => `${r.tally.lost.length} ${ok(r.tally.lost.length === 0)}`,
    ],
    ['stored, answer lost in a fault', (r) => String(r.tally.storedUnacked)],
    [
      'verify 404 on an acknowledged request (must be 0)',
      (r) => `${r.tally.missingOnVerify} ${ok(r.tally.missingOnVerify === 0)}`,
    ],
    ['verified: answers / stored', (r) => `${r.tally.verifiedAnswers} / ${r.tally.verifiedStored}`],
    [
      'groups verified twice (must be 0)',
      (r) => `${r.tally.doubleVerifies.length} ${ok(r.tally.doubleVerifies.length === 0)}`,
    ],
    [
      'answered verified, not stored so (must be 0)',
      (r) => `${r.tally.lostVerifies.length} ${ok(r.tally.lostVerifies.length === 0)}`,
    ],
    ...(['sent', 'verified', 'failed', 'canceled', 'expired'] as const).map(
      (k): [string, (r: StoreReport) => string] => [
        `analytics ${k} / stored`,
        (r) =>
          `${r.tally.analytics[k]} / ${r.tally.storedCounts[k]} ${ok(r.tally.analytics[k] === r.tally.storedCounts[k])}`,
      ],
    ),
    [
      'webhook state changes received / expected',
      (r) => {
        const w = r.tally.webhooks;
        const good = w.missing.length === 0 && w.extra.length === 0 && w.doubled.length === 0;
        return `${w.received} / ${w.expected} ${ok(good)}`;
      },
    ],
    [
      'webhook events of no stored change (must be 0)',
      (r) => `${r.tally.webhooks.extra.length} ${ok(r.tally.webhooks.extra.length === 0)}`,
    ],
    ['webhook redeliveries of one webhook-id (de-duplicated)', (r) => String(r.tally.webhooks.redelivered)],
    ['webhook attempts refused by the receiver on purpose', (r) => String(r.tally.webhooks.refusedOnPurpose)],
    [
      'Idempotency-Key sends: keys / retried / replayed',
      (r) => `${r.tally.idempotency.keys} / ${r.tally.idempotency.retried} / ${r.tally.idempotency.replayed}`,
    ],
    [
      'one key, two live requests or another answered (must be 0)',
      (r) => {
        const n = r.tally.idempotency.twice.length + r.tally.idempotency.mismatched.length;
        return `${n} ${ok(n === 0)}`;
      },
    ],
    [
      'keys run again after a fault, the unanswered first request superseded',
      (r) => String(r.tally.idempotency.rerun.length),
    ],
    ['5xx other than 503 (must be 0)', (r) => String(unclean(r)) + ` ${ok(unclean(r) === 0)}`],
    ['kill -9: start to /health 200 (median / max)', (r) => ms(r.killRestartMs)],
    [
      'PostgreSQL crash: back to 200 by itself',
      (r) => (r.store === 'PostgreSQL' ? ms(r.postgresBackMs) : '—'),
    ],
    ['Redis crash: back to 200 by itself', (r) => (r.store === 'PostgreSQL' ? ms(r.redisBackMs) : '—')],
    ['disk full, then freed: back to 200 by itself', (r) => ms(r.diskBackMs)],
    [
      'analytics and webhooks agreed after the load',
      (r) => `${r.tally.convergeMs} ms ${ok(r.tally.converged)}`,
    ],
    ['campaign duration', (r) => `${Math.round(r.durationMs / 1000)} s`],
  ];
  const header = ['check', ...reports.map((r) => r.store)];
  const body = rows.map(([name, cell]) => [name, ...reports.map(cell)]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

const unclean = (r: StoreReport) =>
  Object.values(r.faults)
    .flatMap((phase) => Object.entries(phase))
    .filter(([k]) => {
      const status = Number(k.split(' ')[1]);
      return status >= 500 && status !== 503;
    })
    .reduce((a, [, n]) => a + n, 0);

/** The answers seen during each fault, and what went wrong. */
export function details(reports: StoreReport[]): string {
  const out: string[] = [];
  for (const r of reports) {
    out.push(`${r.store}: answers by phase (kind status: count)`);
    for (const [phase, statuses] of Object.entries(r.faults))
      out.push(
        `  ${phase.padEnd(16)} ${Object.entries(statuses)
          .map(([k, n]) => `${k}: ${n}`)
          .join(', ')}`,
      );
    for (const note of r.notes) out.push(`  note: ${note}`);
    out.push(
      r.failures.length
        ? `  FAILED:\n${r.failures.map((f) => `    - ${f}`).join('\n')}`
        : '  every invariant held',
    );
  }
  return out.join('\n');
}
