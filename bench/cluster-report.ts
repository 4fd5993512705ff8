/**
 * The figures of `npm run bench:cluster` (bench/cluster.ts) as Markdown lines: per instance count
 * the throughput, the latency and what each request cost the service, PostgreSQL and Redis; what
 * limited the run; and the capacity model a deployment is sized from. Pure: no process, no file.
 */
import type { CheckResult } from './cluster-checks.js';
import type { LockWaitReport } from './lock-waits.js';

/** CPU time, in ms, over a measurement (its load and the drain after it). */
export interface CpuSplit {
  service: number;
  postgres: number;
  redis: number;
  /** The delay proxies: the bench's stand-in for the network, not part of a deployment. */
  proxies: number;
  /** Every core of the machine: busy, and available (the window times the cores). */
  machineBusy: number;
  machineTotal: number;
}

export interface ClusterMeasurement {
  webhooks: boolean;
  instances: number;
  endpoint: 'send' | 'verify';
  /** Answered requests, and their figures from the load generator. */
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Seconds after the load until the changes were folded and the webhooks delivered. */
  drainSeconds: number;
  cpuMs: CpuSplit;
  walBytes: number;
  /** Commands the instances sent to Redis (counted by the proxy), and queries to PostgreSQL. */
  redisCommands: number;
  postgresQueries: number;
  /** What Redis ran (INFO commandstats), the commands scripts run included, by command. */
  redisExecuted: Record<string, number>;
  lockWaits: LockWaitReport;
  /** verify: ids ran out and repeated (answers "already verified"): the figure is too high. */
  poolRanOut?: boolean;
}

export interface ClusterRun {
  header: string[];
  instanceCores: number;
  measurements: ClusterMeasurement[];
  /** The correctness checks, with the instances they ran on; null when not run. */
  checks: { instances: number; delayMs: number; results: CheckResult[] } | null;
  notes: string[];
}

const us = (ms: number, requests: number) => (requests > 0 ? (ms * 1000) / requests : 0);
const round = (x: number) => (x >= 100 ? Math.round(x) : Math.round(x * 10) / 10);
const pct = (x: number) => `${Math.round(x * 100)} %`;
const thousands = (x: number) => Math.round(x).toLocaleString('en-US');

/** Per-request figures of one measurement. */
export function perRequest(m: ClusterMeasurement) {
  return {
    service: us(m.cpuMs.service, m.requests),
    postgres: us(m.cpuMs.postgres, m.requests),
    redis: us(m.cpuMs.redis, m.requests),
    proxies: us(m.cpuMs.proxies, m.requests),
    walBytes: m.requests > 0 ? m.walBytes / m.requests : 0,
    redisCommands: m.requests > 0 ? m.redisCommands / m.requests : 0,
    redisExecuted: m.requests > 0 ? sumValues(m.redisExecuted) / m.requests : 0,
    postgresQueries: m.requests > 0 ? m.postgresQueries / m.requests : 0,
  };
}

const sumValues = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
const label = (webhooks: boolean) => (webhooks ? 'on' : 'off');

function table(run: ClusterRun): string[] {
  const header = [
    'webhooks',
    'instances',
    'endpoint',
    'req/s',
    '× 1 instance',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'service µs/req',
    'PostgreSQL µs/req',
    'Redis µs/req',
    'proxies µs/req',
    'WAL B/req',
    'PG queries/req',
    'Redis commands/req',
    'machine busy',
  ];
  const rows = run.measurements.map((m) => {
    const one = run.measurements.find(
      (o) => o.webhooks === m.webhooks && o.endpoint === m.endpoint && o.instances === 1,
    );
    const r = perRequest(m);
    return [
      label(m.webhooks),
      String(m.instances),
      m.endpoint,
      `${thousands(m.rps)}${m.poolRanOut ? ' (ids ran out)' : ''}`,
      one && one.rps > 0 ? `${(m.rps / one.rps).toFixed(2)}×` : '',
      String(m.p50Ms),
      String(m.p99Ms),
      String(m.non2xx + m.errors),
      String(round(r.service)),
      String(round(r.postgres)),
      String(round(r.redis)),
      String(round(r.proxies)),
      thousands(r.walBytes),
      r.postgresQueries.toFixed(2),
      `${r.redisCommands.toFixed(2)} (${r.redisExecuted.toFixed(1)} run)`,
      pct(m.cpuMs.machineBusy / m.cpuMs.machineTotal),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((c) => (c[i] ?? '').length)));
  const left = 3;
  const line = (c: string[]) =>
    `| ${c.map((v, i) => (i < left ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i < left ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ];
}

/** What took the machine's cores during a measurement. */
export function limitLine(m: ClusterMeasurement): string {
  const c = m.cpuMs;
  const share = (x: number) => x / c.machineTotal;
  const busy = share(c.machineBusy);
  const rest = Math.max(0, busy - share(c.service + c.postgres + c.redis + c.proxies));
  const split = `service ${pct(share(c.service))}, PostgreSQL ${pct(share(c.postgres))}, Redis ${pct(share(c.redis))}, proxies ${pct(share(c.proxies))}, the rest (load generator, webhook receiver, kernel, anything else running) ${pct(rest)}`;
  const what = `webhooks ${label(m.webhooks)}, ${m.instances} instance${m.instances === 1 ? '' : 's'}, ${m.endpoint}`;
  return busy >= 0.85
    ? `- ${what}: the CPU: the machine's cores were ${pct(busy)} busy (${split}).`
    : `- ${what}: not the machine's CPU (${pct(busy)} busy: ${split}): requests waited, on round trips through the proxies, on the pools' connections or on locks.`;
}

/**
 * Throughput at 2 instances against 1, where the machine has the cores for it; where it had none
 * to spare at one instance, the ratio only says the instances shared the same cores.
 */
export function scalingLines(ms: ClusterMeasurement[]): string[] {
  const out: string[] = [];
  for (const webhooks of [false, true]) {
    for (const endpoint of ['send', 'verify'] as const) {
      const at = (n: number) =>
        ms.find((m) => m.webhooks === webhooks && m.endpoint === endpoint && m.instances === n);
      const one = at(1);
      const two = at(2);
      if (!one || !two || one.rps === 0) continue;
      const ratio = two.rps / one.rps;
      const busy = one.cpuMs.machineBusy / one.cpuMs.machineTotal;
      const what = `webhooks ${label(webhooks)}, ${endpoint}: 2 instances / 1 = ${ratio.toFixed(2)}×`;
      out.push(
        busy >= 0.6
          ? `- ${what}; the target (≥ 1.6×) cannot be shown here: one instance already kept ${pct(busy)} of the machine busy, so a second one shares the same cores. Read the CPU per request instead.`
          : `- ${what}: ${ratio >= 1.6 ? 'meets' : 'misses'} the target (≥ 1.6×); one instance kept ${pct(busy)} of the machine busy.`,
      );
    }
  }
  return out;
}

export interface CapacityFigures {
  instances: number;
  /** µs of CPU per request, and bytes of WAL. */
  postgres: { send: number; verify: number };
  redis: { send: number; verify: number };
  service: { send: number; verify: number };
  wal: { send: number; verify: number };
}

/** The per-request costs the model is built on: the measurements at the most instances. */
export function capacityFigures(ms: ClusterMeasurement[], webhooks: boolean): CapacityFigures | null {
  const mine = ms.filter((m) => m.webhooks === webhooks);
  const instances = Math.max(0, ...mine.map((m) => m.instances));
  const send = mine.find((m) => m.instances === instances && m.endpoint === 'send');
  const verify = mine.find((m) => m.instances === instances && m.endpoint === 'verify');
  if (!send || !verify || send.requests === 0 || verify.requests === 0) return null;
  const s = perRequest(send);
  const v = perRequest(verify);
  return {
    instances,
    postgres: { send: s.postgres, verify: v.postgres },
    redis: { send: s.redis, verify: v.redis },
    service: { send: s.service, verify: v.service },
    wal: { send: s.walBytes, verify: v.walBytes },
  };
}

/** Database cores the sizing table is written for. */
const DATABASE_CORES = [2, 4, 8, 16];

export function capacityLines(f: CapacityFigures, webhooks: boolean, instanceCores: number): string[] {
  const rate = (us: number) => (us > 0 ? 1e6 / us : Number.POSITIVE_INFINITY);
  const flow = (x: { send: number; verify: number }) => x.send + x.verify;
  const fmt = (x: number) => (Number.isFinite(x) ? thousands(x) : '—');
  const pgFlow = flow(f.postgres);
  const out = [
    `#### Webhooks ${label(webhooks)}`,
    '',
    `From the measurements at ${f.instances} instance${f.instances === 1 ? '' : 's'}; a verification is one send and one verify request.`,
    '',
    '| per request | send | verify | verification |',
    '|---|--:|--:|--:|',
    `| PostgreSQL CPU µs | ${round(f.postgres.send)} | ${round(f.postgres.verify)} | ${round(pgFlow)} |`,
    `| Redis CPU µs | ${round(f.redis.send)} | ${round(f.redis.verify)} | ${round(flow(f.redis))} |`,
    `| service CPU µs | ${round(f.service.send)} | ${round(f.service.verify)} | ${round(flow(f.service))} |`,
    `| WAL bytes | ${thousands(f.wal.send)} | ${thousands(f.wal.verify)} | ${thousands(flow(f.wal))} |`,
    '',
    `- One PostgreSQL core serves ${fmt(rate(f.postgres.send))} sends/s and ${fmt(rate(f.postgres.verify))} verifies/s (${fmt(rate(pgFlow))} verifications/s).`,
    `- One Redis core serves ${fmt(rate(f.redis.send))} sends/s and ${fmt(rate(f.redis.verify))} verifies/s (${fmt(rate(flow(f.redis)))} verifications/s).`,
    `- One service core serves ${fmt(rate(f.service.send))} sends/s and ${fmt(rate(f.service.verify))} verifies/s (${fmt(rate(flow(f.service)))} verifications/s).`,
  ];
  if (pgFlow <= 0) return out;
  const perDbCore = rate(pgFlow);
  const instancesPerDbCore = flow(f.service) / pgFlow / instanceCores;
  out.push(
    `- So ${instancesPerDbCore.toFixed(1)} instances of ${instanceCores} cores saturate each PostgreSQL core:`,
    '',
    `| PostgreSQL cores | verifications/s | service cores | instances of ${instanceCores} cores | Redis cores | WAL MB/s |`,
    '|--:|--:|--:|--:|--:|--:|',
    ...DATABASE_CORES.map((cores) => {
      const perSecond = cores * perDbCore;
      const serviceCores = (perSecond * flow(f.service)) / 1e6;
      return `| ${cores} | ${thousands(perSecond)} | ${serviceCores.toFixed(1)} | ${Math.ceil(serviceCores / instanceCores)} | ${((perSecond * flow(f.redis)) / 1e6).toFixed(2)} | ${((perSecond * flow(f.wal)) / 1e6).toFixed(1)} |`;
    }),
  );
  return out;
}

function lockLine(ms: ClusterMeasurement[]): string {
  const samples = ms.reduce((a, m) => a + m.lockWaits.samples, 0);
  const seen = ms.reduce((a, m) => a + m.lockWaits.requestStatements, 0);
  const onFold = ms.reduce((a, m) => a + m.lockWaits.onFold, 0);
  const folds = Math.max(0, ...ms.map((m) => m.lockWaits.foldsAtOnce));
  const example = ms.flatMap((m) => m.lockWaits.examples)[0];
  return (
    `Lock waits (pg_stat_activity every 20 ms during every measurement): ${samples} samples, ${seen} of a send or verify statement at work; ` +
    `${onFold} of them waited on the fold or the webhook publisher${onFold === 0 ? ' (none, as required)' : ` (must be none: ${example})`}; ` +
    `at most ${folds} batch${folds === 1 ? '' : 'es'} of the fold at work at once.`
  );
}

function redisLine(ms: ClusterMeasurement[]): string[] {
  return ms
    .filter((m) => m.requests > 0)
    .map((m) => {
      const top = Object.entries(m.redisExecuted)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([cmd, n]) => `${cmd} ${(n / m.requests).toFixed(2)}`)
        .join(', ');
      return `- webhooks ${label(m.webhooks)}, ${m.instances} instance${m.instances === 1 ? '' : 's'}, ${m.endpoint}: ${(m.redisCommands / m.requests).toFixed(2)} commands sent per request; run per request: ${top || 'none'}`;
    });
}

/** The target of one Redis command per send and per verify, against the most any measurement sent. */
export function redisTarget(ms: ClusterMeasurement[]): string {
  const most = (endpoint: 'send' | 'verify') =>
    Math.max(
      0,
      ...ms.filter((m) => m.endpoint === endpoint && m.requests > 0).map((m) => m.redisCommands / m.requests),
    );
  const send = most('send');
  const verify = most('verify');
  const met = send <= 1.05 && verify <= 1.05;
  return `Target, one Redis command per send and per verify: ${met ? 'met' : 'not met'} (at most ${send.toFixed(2)} per send and ${verify.toFixed(2)} per verify; a MULTI … EXEC counts each of its commands).`;
}

/** The generated section of docs/benchmark-cluster.md. */
export function clusterLines(run: ClusterRun): string[] {
  const ms = run.measurements;
  const out = [...run.header, '', ...table(run), ''];
  out.push('What limited each measurement:', '', ...ms.map(limitLine), '');
  const scaling = scalingLines(ms);
  if (scaling.length > 0) out.push('Throughput with 2 instances against 1:', '', ...scaling, '');
  out.push(lockLine(ms), '');
  out.push(
    'Redis commands per request (sent: counted by the proxy; run: INFO commandstats, the commands of scripts included):',
    '',
  );
  out.push(...redisLine(ms), '', redisTarget(ms), '');
  out.push('### Capacity model', '');
  for (const webhooks of [false, true]) {
    const f = capacityFigures(ms, webhooks);
    if (f) out.push(...capacityLines(f, webhooks, run.instanceCores), '');
  }
  out.push('### Correctness under the cluster', '');
  if (!run.checks) out.push('Not run (`--checks=0`).');
  else {
    const failed = run.checks.results.filter((r) => !r.passed).length;
    out.push(
      `${run.checks.instances} instances, ${run.checks.delayMs} ms added each way: ${failed === 0 ? 'all checks passed' : `${failed} check${failed === 1 ? '' : 's'} FAILED`}.`,
      '',
      ...run.checks.results.map((r) => `- ${r.passed ? 'pass' : 'FAIL'}: ${r.name}: ${r.detail}`),
    );
  }
  if (run.notes.length > 0) out.push('', ...run.notes.map((n) => `- ${n}`));
  return out;
}
