import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { LoadJob, LoadResult } from './load.js';
import { freePort, RssSampler, run, start, stop, treeCpuMs, waitForHttp } from './processes.js';

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
  /** The same of the database server (PostgreSQL's processes), when it runs on this machine. */
  dbCpuUsPerRequest?: number | null;
  /** The ceiling this row is compared with (see Ceilings), and the ratio to it. */
  ceilingRps?: number;
  ratio?: number;
  /** verify: the measurement ran past its pool, so some ids answered "already verified". */
  poolRanOut?: boolean;
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
  /** The checkout whose built `dist/main.js` runs; the bench's own by default. */
  root?: string;
  workers: number;
  /** Rate limits shared by the workers (the service requires it for WORKERS > 1). */
  redisUrl?: string;
  databaseUrl: string;
  dataDir: string;
  /** Reads [requestId, code] pairs of every message in the outbox, oldest first. */
  readPool(): Promise<Array<[string, string]>>;
  /** Settings added to the environment (a preparation step's, never a measurement's). */
  env?: Record<string, string>;
  /**
   * The database server's main process, when it runs on this machine: the CPU of its process tree
   * (every backend, the WAL writer, autovacuum) while the load runs is counted per request too.
   */
  databasePid?: number | null;
  /** With `cpuProf`: the profile's file name in the profiles directory (Node's default otherwise). */
  profileName?: string;
  /**
   * Where the service listens (default 127.0.0.1 on a free port), and what its command runs in: a
   * prefix that runs it elsewhere, such as `ip netns exec <name>` (bench/netns.ts).
   */
  listen?: { host: string; port: number; prefix?: [string, string[]] };
  /** ADMIN_TOKEN (default: a random one of its own); instances of one cluster share one. */
  adminToken?: string;
}

/** A service the bench started, with an API key, ready to take load. */
export interface RunningService {
  setup: ServiceSetup;
  url: string;
  token: string;
  rss: RssSampler;
  /** Every code the service issued that the bench read from its outbox: none may reach the log. */
  codes: Set<string>;
  stop(): Promise<Pick<ScenarioOutcome, 'logLines' | 'logErrors' | 'codesInLog'>>;
}

/**
 * Starts the built service of `setup.root` on `setup`'s database, as production starts it, and
 * creates an API key (unless `apiKey` is false: the token is then empty); null if workers failed.
 */
export async function startService(
  options: BenchOptions,
  setup: ServiceSetup,
  { apiKey = true } = {},
): Promise<RunningService | null> {
  const host = setup.listen?.host ?? '127.0.0.1';
  const port = setup.listen?.port ?? (await freePort());
  const adminToken = setup.adminToken ?? randomBytes(24).toString('base64url');
  const logFile = join(setup.dataDir, 'service.log');
  const log = openSync(logFile, 'a');
  const nodeArgs = options.cpuProf
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${join(options.resultsDir, 'profiles')}`,
        ...(setup.profileName ? [`--cpu-prof-name=${setup.profileName}`] : []),
      ]
    : [];
  const nodeCommand = [...nodeArgs, join(setup.root ?? options.root, 'dist/main.js')];
  const [prefix, prefixArgs] = setup.listen?.prefix ?? [null, []];
  const [command, args] = prefix
    ? [prefix, [...prefixArgs, process.execPath, ...nodeCommand]]
    : [process.execPath, nodeCommand];
  const child = start(command, args, {
    cwd: setup.dataDir,
    stdio: ['ignore', log, log],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      // The bench delivers live codes through the outbox: production refuses that by default
      // (older builds, without the setting, ignore it).
      LIVE_OUTBOX: 'allow',
      HOST: host,
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
      ...setup.env,
    },
  });
  // The child holds its own copy of the descriptor.
  closeSync(log);
  const url = `http://${host}:${port}`;
  const rss = new RssSampler(child.pid as number);
  const codes = new Set<string>();
  const stopService = async () => {
    rss.close();
    // Requests the load generator abandoned at its deadline finish before the service stops.
    await new Promise((r) => setTimeout(r, 500));
    await stop(child);
    return scanLog(logFile, codes);
  };
  try {
    await waitForHttp(`${url}/health`, child);
    if (setup.workers > 1) {
      // Cluster workers start after the primary; give them a moment to appear.
      for (let i = 0; i < 30 && rss.count() < setup.workers + 1; i++)
        await new Promise((r) => setTimeout(r, 100));
      if (rss.count() < setup.workers + 1) {
        await stopService();
        return null;
      }
    }
    const token = apiKey ? await createKey(url, adminToken) : '';
    return { setup, url, token, rss, codes, stop: stopService };
  } catch (err) {
    await stopService();
    throw err;
  }
}

/** A load job against a running service; every job gets destinations of its own. */
const jobFor = (
  service: RunningService,
  kind: LoadJob['kind'],
  connections: number,
  durationSeconds: number,
): LoadJob => ({ url: service.url, kind, connections, durationSeconds, token: service.token, tag: tag() });

/** One measurement of a running service, with the CPU it spent and its peak RSS so far. */
async function measureOn(
  options: BenchOptions,
  service: RunningService,
  endpoint: Row['endpoint'],
  job: LoadJob,
): Promise<{ row: Row; result: LoadResult }> {
  const cpuBefore = service.rss.cpuMs();
  const dbPid = service.setup.databasePid;
  const dbCpuBefore = dbPid ? treeCpuMs(dbPid) : 0;
  const result = await load(options, job);
  const row: Row = {
    scenario: service.setup.name,
    endpoint,
    connections: job.connections,
    ...pick(result),
    peakRssMb: service.rss.peakMb(),
    cpuUsPerRequest: cpuPerRequest(service.rss.cpuMs() - cpuBefore, result),
    ...(dbPid ? { dbCpuUsPerRequest: cpuPerRequest(treeCpuMs(dbPid) - dbCpuBefore, result) } : {}),
  };
  return { row, result };
}

/** Wrong codes per id before its right one, and the ids load.ts takes at a time (its BLOCK). */
const WRONG_PER_RIGHT = 3;
const POOL_BLOCK = 1000;

/**
 * The verify pool of a service that has taken sends: [requestId, code] pairs from its outbox,
 * written to a file for the load generator. The warm-up takes the first ids and returns the
 * offset of the first id not used yet. Past the pool's end ids repeat and answer "already
 * verified", a cheaper path; so when the `measurements` to come may need more ids than the
 * sends left (at up to 1.5 times the warm-up's pace, in whole blocks), unmeasured sends at
 * `sendRps` top the pool up first. The warm-up runs at the highest concurrency measured: a
 * service waiting on its database answers several times faster at 50 connections than at 10,
 * so a pace taken at 10 would promise far too few ids.
 */
async function verifyPool(
  options: BenchOptions,
  service: RunningService,
  sendRps: number,
  measurements = 1,
): Promise<VerifyPool> {
  const file = join(service.setup.dataDir, 'pool.json');
  const write = async () => {
    const pool = await service.setup.readPool();
    for (const [, code] of pool) service.codes.add(code);
    writeFileSync(file, JSON.stringify(pool));
    return pool.length;
  };
  let size = await write();
  const warm = await load(options, {
    ...jobFor(service, 'verify', Math.max(...options.connections), options.warmupSeconds),
    poolFile: file,
    wrongPerRight: WRONG_PER_RIGHT,
  });
  const offset = (warm.poolUsed ?? 0) + 1;
  const idsPerMeasurement =
    Math.ceil(
      (warm.requestsPerSecond * 1.5 * options.durationSeconds) / (WRONG_PER_RIGHT + 1) / POOL_BLOCK + 1,
    ) * POOL_BLOCK;
  const need = offset + idsPerMeasurement * measurements;
  if (size < need && sendRps > 0) {
    const seconds = Math.ceil((need - size) / sendRps) + 1;
    await load(options, jobFor(service, 'send', Math.max(...options.connections), seconds));
    // Ids are time-ordered: the new ones sort after every id the warm-up used.
    size = await write();
  }
  return { file, size, offset };
}

interface VerifyPool {
  file: string;
  size: number;
  /** The first id no measurement has used yet. */
  offset: number;
}

/** A verify measurement that starts past the last id used before it, and moves the pool on. */
async function measureVerify(
  options: BenchOptions,
  service: RunningService,
  pool: VerifyPool,
  connections: number,
  durationSeconds = options.durationSeconds,
): Promise<Row> {
  const { row, result } = await measureOn(options, service, 'verify', {
    ...jobFor(service, 'verify', connections, durationSeconds),
    poolFile: pool.file,
    poolOffset: pool.offset,
    wrongPerRight: WRONG_PER_RIGHT,
  });
  pool.offset += (result.poolUsed ?? 0) + 1;
  if (pool.offset > pool.size) {
    process.stderr.write(`  note: verify pool of ${pool.size} ids used up; ids repeat\n`);
    row.poolRanOut = true;
  }
  return row;
}

/** Starts the built service, measures send-code then verify-code at every connection count. */
export async function measureService(options: BenchOptions, setup: ServiceSetup): Promise<ScenarioOutcome> {
  const rows: Row[] = [];
  const outcome: ScenarioOutcome = { scenario: setup.name, rows };
  const service = await startService(options, setup);
  if (!service) {
    outcome.skipped = `WORKERS=${setup.workers} started one process: no cluster support in this build`;
    return outcome;
  }
  try {
    await load(options, jobFor(service, 'send', 10, options.warmupSeconds));
    for (const c of options.connections) {
      rows.push(
        (await measureOn(options, service, 'send', jobFor(service, 'send', c, options.durationSeconds))).row,
      );
    }
    if (!options.verify) return outcome;
    const pool = await verifyPool(
      options,
      service,
      rows.at(-1)?.requestsPerSecond ?? 0,
      options.connections.length,
    );
    for (const c of options.connections) rows.push(await measureVerify(options, service, pool, c));
    return outcome;
  } finally {
    Object.assign(outcome, await service.stop());
  }
}

/** The cost of a bigger table, measured in pairs: see measureGrowth. */
export interface GrowthRow {
  database: string;
  endpoint: 'send' | 'verify';
  connections: number;
  /** req/s of each measurement, in the order taken. */
  empty: number[];
  filled: number[];
  /** Mean req/s on the filled table over mean req/s on the empty one. */
  ratio: number;
}

/**
 * Throughput on a filled table against an empty one, measured so that the machine's drift
 * cancels out: both services run side by side (only one takes load at a time) and the
 * measurements alternate in ABBA order, `rounds` times over. Separate scenarios minutes apart
 * differ by more than 10 % on a shared machine even when the table changes nothing.
 */
export async function measureGrowth(
  options: BenchOptions,
  database: string,
  emptySetup: ServiceSetup,
  filledSetup: ServiceSetup,
  rounds: number,
  connections: number,
): Promise<{ rows: GrowthRow[]; outcomes: ScenarioOutcome[] }> {
  const services: RunningService[] = [];
  const outcomes: ScenarioOutcome[] = [];
  try {
    for (const setup of [emptySetup, filledSetup]) {
      const service = await startService(options, setup);
      if (!service) throw new Error(`${setup.name} did not start`);
      services.push(service);
    }
    const [empty, filled] = services as [RunningService, RunningService];
    const duration = Math.max(3, Math.round(options.durationSeconds / 2));
    const alternate = async (measure: (s: RunningService) => Promise<number>) => {
      const taken = { empty: [] as number[], filled: [] as number[] };
      for (let i = 0; i < rounds * 2; i++) {
        const order = i % 2 === 0 ? [empty, filled] : [filled, empty];
        for (const s of order) (s === empty ? taken.empty : taken.filled).push(await measure(s));
      }
      return taken;
    };
    const growthRow = (endpoint: GrowthRow['endpoint'], taken: { empty: number[]; filled: number[] }) => ({
      database,
      endpoint,
      connections,
      ...taken,
      ratio: Math.round((mean(taken.filled) / mean(taken.empty)) * 100) / 100,
    });
    for (const s of services) await load(options, jobFor(s, 'send', 10, options.warmupSeconds));
    const sendRps = new Map<RunningService, number>();
    const rows: GrowthRow[] = [
      growthRow(
        'send',
        await alternate(async (s) => {
          const { row } = await measureOn(options, s, 'send', jobFor(s, 'send', connections, duration));
          sendRps.set(s, row.requestsPerSecond);
          return row.requestsPerSecond;
        }),
      ),
    ];
    if (options.verify) {
      const pools = new Map<RunningService, VerifyPool>();
      // The verify pool must last rounds * 2 measurements of `duration` seconds.
      const measurements = Math.ceil((rounds * 2 * duration) / options.durationSeconds);
      for (const s of services) pools.set(s, await verifyPool(options, s, sendRps.get(s) ?? 0, measurements));
      rows.push(
        growthRow(
          'verify',
          await alternate(
            async (s) =>
              (await measureVerify(options, s, pools.get(s) as VerifyPool, connections, duration))
                .requestsPerSecond,
          ),
        ),
      );
    }
    return { rows, outcomes };
  } finally {
    for (const s of services) outcomes.push({ scenario: s.setup.name, rows: [], ...(await s.stop()) });
  }
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Counts the error lines of a service's log and the issued codes found in it (must be 0). */
function scanLog(
  logFile: string,
  codes: Set<string>,
): Pick<ScenarioOutcome, 'logLines' | 'logErrors' | 'codesInLog'> {
  const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
  const errors = lines.filter((l) => /"level":(50|60)/.test(l));
  if (errors.length > 0) process.stderr.write(`  service log errors: ${errors.slice(0, 3).join('\n')}\n`);
  // A standalone run of digits the length of a code, matched against every code issued.
  const codesInLog = lines.reduce(
    (n, l) => n + (l.match(/(?<![\w.-])\d{4,10}(?![\w.-])/g) ?? []).filter((d) => codes.has(d)).length,
    0,
  );
  if (codesInLog > 0) process.stderr.write(`  ${codesInLog} issued codes found in the log\n`);
  return { logLines: lines.length, logErrors: errors.length, codesInLog };
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
function toPool(
  rows: Array<{ id: string; outbox: string; outbox_code?: string | null }>,
): Array<[string, string]> {
  // The code in clear beside the stored message, or (trees before that column) in it.
  return rows.map((r) => [
    r.id,
    r.outbox_code ?? (JSON.parse(r.outbox) as { request: { code: string } }).request.code,
  ]);
}

export function sqlitePool(path: string, since: number) {
  return async () => {
    const db = new BetterSqlite3(path, { readonly: true });
    try {
      return toPool(
        db
          .prepare(
            `SELECT * FROM verifications
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
        `SELECT *, id::text AS id FROM verifications
         WHERE created_at >= $1 AND channel = 'EMAIL' AND outbox IS NOT NULL ORDER BY id`,
        [since],
      );
      return toPool(rows);
    } finally {
      await client.end();
    }
  };
}
