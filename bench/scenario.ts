import { randomBytes } from 'node:crypto';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { LoadJob, LoadResult } from './load.js';
import { freePort, RssSampler, run, start, stop, waitForHttp } from './processes.js';

export interface BenchOptions {
  root: string;
  durationSeconds: number;
  connections: number[];
  warmupSeconds: number;
  cpuProf: boolean;
  /** False measures send-code only (for a profile of the send path). */
  verify: boolean;
  resultsDir: string;
}

/** One measurement: the load generator's figures, with where and how it was taken. */
export interface Row extends Omit<LoadResult, 'requests' | 'poolUsed'> {
  scenario: string;
  endpoint: 'bare' | 'send' | 'verify';
  connections: number;
  peakRssMb: number | null;
  /** CPU time the server used per answered request, in microseconds (all its threads). */
  cpuUsPerRequest: number | null;
  ratio?: number;
}

export interface ScenarioOutcome {
  scenario: string;
  rows: Row[];
  skipped?: string;
  /** Log lines the service wrote, and how many at error level or above. */
  logLines?: number;
  logErrors?: number;
  /** Issued codes found in the service's output: must be 0. */
  codesInLog?: number;
}

/** Runs one measurement in its own load-generator process. */
export async function load(options: BenchOptions, job: LoadJob): Promise<LoadResult> {
  const out = await run(
    process.execPath,
    ['--import', 'tsx', join(options.root, 'bench/load.ts'), JSON.stringify(job)],
    { cwd: options.root },
    (job.durationSeconds + 60) * 1000,
  );
  return JSON.parse(out.trim().split('\n').at(-1) as string) as LoadResult;
}

const tag = () => `b${randomBytes(4).toString('hex')}`;

/** The ceiling: the bare Fastify server at every connection count. */
export async function measureCeiling(options: BenchOptions, scenario = 'bare-fastify'): Promise<Row[]> {
  const port = await freePort();
  const child = start(
    process.execPath,
    ['--import', 'tsx', join(options.root, 'bench/bare-server.ts'), String(port)],
    {
      cwd: options.root,
      stdio: 'ignore',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/health`, child);
    const rss = new RssSampler(child.pid as number);
    await load(options, {
      url,
      kind: 'bare',
      connections: 10,
      durationSeconds: options.warmupSeconds,
      tag: tag(),
    });
    const rows: Row[] = [];
    for (const connections of options.connections) {
      const cpuBefore = rss.cpuMs();
      const r = await load(options, {
        url,
        kind: 'bare',
        connections,
        durationSeconds: options.durationSeconds,
        tag: tag(),
      });
      rows.push({
        scenario,
        endpoint: 'bare',
        connections,
        ...pick(r),
        peakRssMb: rss.peakMb(),
        cpuUsPerRequest: cpuPerRequest(rss.cpuMs() - cpuBefore, r),
      });
    }
    rss.close();
    return rows;
  } finally {
    await stop(child);
  }
}

/** The CPU the server spent per request while the load ran (the load's ends included). */
const cpuPerRequest = (cpuMs: number, r: LoadResult) =>
  r.requests > 0 ? Math.round((cpuMs * 1000) / r.requests) : null;

const pick = (r: LoadResult) => ({
  requestsPerSecond: Math.round(r.requestsPerSecond),
  p50Ms: r.p50Ms,
  p99Ms: r.p99Ms,
  non2xx: r.non2xx,
  errors: r.errors,
  statusCodes: r.statusCodes,
});

export interface ServiceSetup {
  name: string;
  workers: number;
  /** Rate limits shared by the workers (the service requires it for WORKERS > 1). */
  redisUrl?: string;
  databaseUrl: string;
  dataDir: string;
  /** Reads [requestId, code] pairs of every message in the outbox, oldest first. */
  readPool(): Promise<Array<[string, string]>>;
}

/** Starts the built service, measures send-code then verify-code at every connection count. */
export async function measureService(options: BenchOptions, setup: ServiceSetup): Promise<ScenarioOutcome> {
  const port = await freePort();
  const adminToken = randomBytes(24).toString('base64url');
  const logFile = join(setup.dataDir, 'service.log');
  const log = openSync(logFile, 'a');
  const nodeArgs = options.cpuProf
    ? ['--cpu-prof', `--cpu-prof-dir=${join(options.resultsDir, 'profiles')}`]
    : [];
  const child = start(process.execPath, [...nodeArgs, join(options.root, 'dist/main.js')], {
    cwd: setup.dataDir,
    stdio: ['ignore', log, log],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: setup.databaseUrl,
      ADMIN_TOKEN: adminToken,
      WORKERS: String(setup.workers),
      ...(setup.redisUrl ? { REDIS_URL: setup.redisUrl } : {}),
      // Limits raised so that the load is measured, not refused; every destination is distinct.
      KEY_SEND_PER_SECOND: '1000000',
      KEY_VERIFY_PER_SECOND: '1000000',
      RESEND_COOLDOWN_SECONDS: '0',
      SENDS_PER_DESTINATION_PER_HOUR: '1000',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const rows: Row[] = [];
  const outcome: ScenarioOutcome = { scenario: setup.name, rows };
  const codes = new Set<string>();
  const rss = new RssSampler(child.pid as number);
  try {
    await waitForHttp(`${url}/health`, child);
    if (setup.workers > 1) {
      // Cluster workers start after the primary; give them a moment to appear.
      for (let i = 0; i < 30 && rss.count() < setup.workers + 1; i++)
        await new Promise((r) => setTimeout(r, 100));
      if (rss.count() < setup.workers + 1) {
        outcome.skipped = `WORKERS=${setup.workers} started one process: no cluster support in this build`;
        return outcome;
      }
    }
    const token = await createKey(url, adminToken);
    const job = (
      kind: LoadJob['kind'],
      connections: number,
      durationSeconds = options.durationSeconds,
    ): LoadJob => ({
      url,
      kind,
      connections,
      durationSeconds,
      token,
      tag: tag(),
    });
    const measure = async (endpoint: Row['endpoint'], connections: number, loadJob: LoadJob) => {
      const cpuBefore = rss.cpuMs();
      const r = await load(options, loadJob);
      rows.push({
        scenario: setup.name,
        endpoint,
        connections,
        ...pick(r),
        peakRssMb: rss.peakMb(),
        cpuUsPerRequest: cpuPerRequest(rss.cpuMs() - cpuBefore, r),
      });
      return r;
    };

    await load(options, job('send', 10, options.warmupSeconds));
    for (const c of options.connections) await measure('send', c, job('send', c));

    if (!options.verify) return outcome;
    const poolFile = join(setup.dataDir, 'pool.json');
    const pool = await setup.readPool();
    for (const [, code] of pool) codes.add(code);
    writeFileSync(poolFile, JSON.stringify(pool));
    // The warm-up takes the first ids; each measurement starts past the last id used before it.
    const warm = await load(options, {
      ...job('verify', 10, options.warmupSeconds),
      poolFile,
      wrongPerRight: 3,
    });
    let offset = (warm.poolUsed ?? 0) + 1;
    for (const c of options.connections) {
      const r = await measure('verify', c, {
        ...job('verify', c),
        poolFile,
        poolOffset: offset,
        wrongPerRight: 3,
      });
      offset += (r.poolUsed ?? 0) + 1;
      if (offset > pool.length)
        process.stderr.write(`  note: verify pool of ${pool.length} ids used up; ids repeat\n`);
    }
    return outcome;
  } finally {
    rss.close();
    // Requests the load generator abandoned at its deadline finish before the service stops.
    await new Promise((r) => setTimeout(r, 500));
    await stop(child);
    const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    const errors = lines.filter((l) => /"level":(50|60)/.test(l));
    if (errors.length > 0) process.stderr.write(`  service log errors: ${errors.slice(0, 3).join('\n')}\n`);
    outcome.logLines = lines.length;
    outcome.logErrors = errors.length;
    // A standalone run of digits the length of a code, matched against every code issued.
    outcome.codesInLog = lines.reduce(
      (n, l) => n + (l.match(/(?<![\w.-])\d{4,10}(?![\w.-])/g) ?? []).filter((d) => codes.has(d)).length,
      0,
    );
    if (outcome.codesInLog > 0)
      process.stderr.write(`  ${outcome.codesInLog} issued codes found in the log\n`);
  }
}

async function createKey(url: string, adminToken: string): Promise<string> {
  const res = await fetch(`${url}/v1/admin/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', channels: ['EMAIL', 'SMS', 'WHATSAPP'] }),
  });
  if (res.status !== 201) throw new Error(`creating the API key answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { key: string } }).data.key;
}

/** [requestId, code] of every EMAIL message the outbox took since `since` (not the fill's). */
function toPool(rows: Array<{ id: string; outbox: string }>): Array<[string, string]> {
  return rows.map((r) => [r.id, (JSON.parse(r.outbox) as { request: { code: string } }).request.code]);
}

export function sqlitePool(path: string, since: number) {
  return async () => {
    const db = new BetterSqlite3(path, { readonly: true });
    try {
      return toPool(
        db
          .prepare(
            `SELECT id, outbox FROM verifications
             WHERE created_at >= ? AND channel = 'EMAIL' AND outbox IS NOT NULL ORDER BY id`,
          )
          .all(since) as never,
      );
    } finally {
      db.close();
    }
  };
}

export function postgresPool(url: string, since: number) {
  return async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT id::text AS id, outbox FROM verifications
         WHERE created_at >= $1 AND channel = 'EMAIL' AND outbox IS NOT NULL ORDER BY id`,
        [since],
      );
      return toPool(rows);
    } finally {
      await client.end();
    }
  };
}
