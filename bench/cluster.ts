import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { peersProblem, ScratchPostgres, ScratchRedis } from '../scripts/chaos/peers.js';
import { WEBHOOK_EVENT_TYPES } from '../src/webhooks/events.js';
import { list, setting } from './args.js';
import { type CheckResult, clusterChecks } from './cluster-checks.js';
import { type ClusterMeasurement, type ClusterRun, type CpuSplit, clusterLines } from './cluster-report.js';
import type { LoadJob, LoadResult } from './load.js';
import { type LockWaitReport, LockWaitSampler } from './lock-waits.js';
import {
  createNamespace,
  HOST_ADDRESS,
  inNamespace,
  type Namespace,
  netnsProblem,
  removeNamespaces,
} from './netns.js';
import { PostgresAdmin } from './postgres-admin.js';
import { freePort, killAll, run, treeCpuMs } from './processes.js';
import { machine, replaceSection } from './report.js';
import { type BenchOptions, load, postgresPool, type RunningService, startService } from './scenario.js';
import type { ReceivedEvent } from './webhook-sink.js';

/**
 * `npm run bench:cluster`: several service processes over one PostgreSQL and one Redis, each
 * instance in a network namespace of its own and reaching both servers through a proxy that adds
 * a one-way delay, so that every request pays the round trips a network would. Per instance
 * count: throughput, latency, and the CPU per request of the service, PostgreSQL and Redis apart;
 * then the correctness checks under the cluster; then docs/benchmark-cluster.md (its generated
 * section, with the capacity model) and bench/results/cluster-<time>.json. The method is on that
 * page. Needs root (ip netns) and PostgreSQL's server binaries; starts its own PostgreSQL and
 * Redis in a scratch directory, never touching the machine's.
 *
 *   npm run bench:cluster -- --instances=1,2,4
 *   npm run bench:cluster -- --cleanup        (what a run that died left: processes, namespaces)
 */
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const instanceCounts = list(setting('instances', '1,2,4')).map(Number);
const delayMs = Number(setting('delay-ms', '1'));
const connectionsPerInstance = Number(setting('connections', '50'));
const webhookConfigs = list(setting('webhooks', 'off,on'));
const runChecks = setting('checks', '1') === '1';
const checkInstances = Number(setting('check-instances', '4'));
const instanceCores = Number(setting('instance-cores', '2'));
const writePage = setting('write-page', '1') === '1';
const options: BenchOptions = {
  root,
  durationSeconds: Number(setting('duration', '10')),
  warmupSeconds: Number(setting('warmup', '3')),
  connections: [connectionsPerInstance],
  cpuProf: false,
  verify: true,
  resultsDir: join(root, 'bench/results'),
};
const PAGE = join(root, 'docs/benchmark-cluster.md');
/** What a run holds, so that the next one (or --cleanup) can remove what a dead one left. */
const STATE = join(tmpdir(), 'cv-bench-cluster.json');
const INSTANCE_PORT = 8080;

const positive = (v: number) => Number.isInteger(v) && v > 0;
const bad = [
  ...instanceCounts.filter((n) => !positive(n) || n > 64).map((n) => `--instances: ${n} is not 1 to 64`),
  ...webhookConfigs
    .filter((w) => w !== 'off' && w !== 'on')
    .map((w) => `--webhooks: "${w}" is not off or on`),
  ...Object.entries({
    connections: connectionsPerInstance,
    duration: options.durationSeconds,
    'check-instances': checkInstances,
    'instance-cores': instanceCores,
  })
    .filter(([, v]) => !positive(v))
    .map(([k]) => `--${k}: a positive whole number`),
  // The verify warm-up also tells where the measured ids start and how many the measurement needs.
  ...(positive(options.warmupSeconds) ? [] : ['--warmup: whole seconds, 1 or more']),
  ...(Number.isFinite(delayMs) && delayMs >= 0 ? [] : ['--delay-ms: milliseconds, 0 or more']),
];
if (bad.length > 0) {
  process.stderr.write(`bench:cluster: ${bad.join('; ')}\n`);
  process.exit(2);
}
const say = (line: string) => process.stderr.write(`${line}\n`);

interface State {
  pid: number;
  scratch: string;
  postgresData?: string;
  /** Processes started outside a namespace and outside processes.ts: servers and helpers. */
  pids: number[];
}
let state: State | null = null;
const saveState = () => state && writeFileSync(STATE, JSON.stringify(state));

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

/**
 * Removes what a run left behind: its servers and helpers (only the processes its state file
 * names, and only while they still run what it started), its PostgreSQL (stopped at once), its
 * scratch directory, and every namespace of the bench with what runs in it. Refuses while the
 * run that wrote the state file is alive.
 */
function cleanupStale(): string[] {
  const done: string[] = [];
  if (existsSync(STATE)) {
    const old = JSON.parse(readFileSync(STATE, 'utf8')) as State;
    if (old.pid !== process.pid && commandOf(old.pid).includes('bench/cluster'))
      throw new Error(`another bench:cluster is running (pid ${old.pid}); let it end, or stop it first`);
    for (const pid of old.pids) {
      if (/redis-server|delay-proxy|webhook-sink/.test(commandOf(pid))) {
        process.kill(pid, 'SIGKILL');
        done.push(`process ${pid}`);
      }
    }
    const postmaster = old.postgresData ? join(old.postgresData, 'postmaster.pid') : '';
    if (postmaster && existsSync(postmaster)) {
      const pid = Number(readFileSync(postmaster, 'utf8').split('\n')[0]);
      if (commandOf(pid).includes(old.postgresData as string)) {
        // SIGQUIT: PostgreSQL's immediate shutdown; its directory goes once it has ended.
        process.kill(pid, 'SIGQUIT');
        for (let i = 0; i < 100 && commandOf(pid) !== ''; i++) execFileSync('sleep', ['0.1']);
        done.push(`PostgreSQL ${pid}`);
      }
    }
    rmSync(old.scratch, { recursive: true, force: true });
    unlinkSync(STATE);
    done.push(old.scratch);
  }
  done.push(...removeNamespaces());
  return done;
}

/** A helper process of the bench (delay proxy, webhook receiver) that answers over IPC. */
interface Helper {
  child: ChildProcess;
  port: number;
  ask<T>(message: string, key: string): Promise<T>;
}
const helpers: Helper[] = [];

async function forkHelper(script: string, config: unknown): Promise<Helper> {
  const child = fork(join(root, script), [JSON.stringify(config)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  state?.pids.push(child.pid as number);
  saveState();
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before listening`)));
  });
  const ask = <T>(message: string, key: string) =>
    new Promise<T>((resolve) => {
      const on = (m: unknown) => {
        if (m && typeof m === 'object' && key in m) {
          child.off('message', on);
          resolve((m as Record<string, T>)[key] as T);
        }
      };
      child.on('message', on);
      child.send(message);
    });
  const helper = { child, port, ask };
  helpers.push(helper);
  return helper;
}

let postgres: ScratchPostgres | null = null;
let redis: ScratchRedis | null = null;
let cleaning: Promise<void> | null = null;
/** Stops everything this run started and removes its namespaces and files; once. */
function cleanup(): Promise<void> {
  cleaning ??= cleanupNow();
  return cleaning;
}
async function cleanupNow(): Promise<void> {
  killAll();
  for (const h of helpers) if (h.child.exitCode === null) h.child.kill('SIGKILL');
  try {
    removeNamespaces();
  } catch (err) {
    say(`removing the namespaces: ${(err as Error).message}`);
  }
  await redis?.close();
  await postgres?.close();
  if (state) {
    rmSync(state.scratch, { recursive: true, force: true });
    if (existsSync(STATE)) unlinkSync(STATE);
    state = null;
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    say(`\n${signal}: stopping the bench and cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}
// A crash cleans up too (and what even that misses, the next run or --cleanup removes).
process.on('uncaughtException', (err) => {
  say(`bench:cluster: ${err.stack ?? err.message}`);
  void cleanup().finally(() => process.exit(1));
});

/** The busy and the total CPU time of every core so far, in ms (/proc/stat). */
function machineCpuMs(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  // user nice system idle iowait irq softirq steal (guest time is inside user).
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: (total - idle) * 10, total: total * 10 };
}

interface Servers {
  postgres: ScratchPostgres;
  redis: ScratchRedis;
  redisClient: Redis;
  pgProxy: Helper;
  redisProxy: Helper;
  sink: Helper;
  admin: PostgresAdmin;
}

interface Snapshot {
  service: number;
  postgres: number;
  redis: number;
  proxies: number;
  machine: { busy: number; total: number };
  lsn: string;
  redisCalls: Record<string, number>;
  redisCommands: number;
  postgresQueries: number;
}

async function commandStats(client: Redis): Promise<Record<string, number>> {
  const calls: Record<string, number> = {};
  for (const m of (await client.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    calls[m[1] as string] = Number(m[2]);
  return calls;
}

async function snapshot(s: Servers, services: RunningService[], db: pg.Client): Promise<Snapshot> {
  const [lsn, redisCalls, redisCounts, pgCounts] = await Promise.all([
    db.query('SELECT pg_current_wal_lsn()::text AS lsn').then((r) => String(r.rows[0]?.lsn)),
    commandStats(s.redisClient),
    s.redisProxy.ask<{ requests: number }>('counts', 'counts'),
    s.pgProxy.ask<{ requests: number }>('counts', 'counts'),
  ]);
  return {
    service: services.reduce((a, x) => a + x.rss.cpuMs(), 0),
    postgres: treeCpuMs(s.postgres.pid()),
    redis: treeCpuMs(s.redis.pid as number),
    proxies: treeCpuMs(s.pgProxy.child.pid as number) + treeCpuMs(s.redisProxy.child.pid as number),
    machine: machineCpuMs(),
    lsn,
    redisCalls,
    redisCommands: redisCounts.requests,
    postgresQueries: pgCounts.requests,
  };
}

/** Waits until every change is folded (and, with webhooks, delivered); returns the seconds it took. */
async function drain(db: pg.Client, webhooks: boolean): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { rows } = await db.query(
      `SELECT (SELECT count(*) FROM changes) + (SELECT count(*) FROM change_sets)
         + CASE WHEN $1 THEN (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') ELSE 0 END AS left`,
      [webhooks],
    );
    if (Number(rows[0]?.left) === 0 || Date.now() - started > 120_000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return (Date.now() - started) / 1000;
}

/** A cluster of `n` instances on a fresh database, up and ready, with an API key. */
async function startCluster(
  s: Servers,
  namespaces: Namespace[],
  n: number,
  label: string,
  env: Record<string, string>,
): Promise<{
  database: string;
  directUrl: string;
  services: RunningService[];
  token: string;
  adminToken: string;
}> {
  const database = await s.admin.create({ label });
  const directUrl = s.admin.url(database);
  await s.redisClient.flushall();
  const adminToken = randomBytes(24).toString('base64url');
  const scratch = (state as State).scratch;
  const setupOf = (i: number) => {
    const ns = namespaces[i] as Namespace;
    const dataDir = join(scratch, `${label}-instance-${i + 1}`);
    mkdirSync(dataDir, { recursive: true });
    return {
      name: `${label}-${i + 1}`,
      workers: 1,
      redisUrl: `redis://${HOST_ADDRESS}:${s.redisProxy.port}`,
      databaseUrl: `postgres://postgres@${HOST_ADDRESS}:${s.pgProxy.port}/${database}`,
      dataDir,
      readPool: postgresPool(directUrl, 0),
      listen: { host: ns.address, port: INSTANCE_PORT, prefix: inNamespace(ns) },
      adminToken,
      env,
    };
  };
  const services: RunningService[] = [];
  try {
    // The first one migrates the database; the others start together once it has.
    const first = await startService(options, setupOf(0));
    if (!first) throw new Error('the first instance did not start');
    services.push(first);
    const rest = await Promise.all(
      Array.from({ length: n - 1 }, (_, i) => startService(options, setupOf(i + 1), { apiKey: false })),
    );
    for (const r of rest) if (r) services.push(r);
    if (services.length < n) throw new Error(`${n - services.length} instances did not start`);
    return { database, directUrl, services, token: first.token, adminToken };
  } catch (err) {
    for (const x of services) await x.stop();
    await s.admin.drop(database).catch(() => undefined);
    throw err;
  }
}

const tag = () => `c${randomBytes(4).toString('hex')}`;

/** Sends, then verifies, at `n` instances; each figure over its load and the drain after it. */
async function measureCluster(
  s: Servers,
  namespaces: Namespace[],
  n: number,
  webhooks: boolean,
): Promise<ClusterMeasurement[]> {
  const label = `w${webhooks ? 'on' : 'off'}_${n}`;
  const cluster = await startCluster(
    s,
    namespaces,
    n,
    label,
    webhooks ? { WEBHOOKS_ALLOW_PRIVATE: 'true' } : {},
  );
  const { services, directUrl } = cluster;
  const db = new pg.Client({ connectionString: directUrl });
  // Its server may go first when the run is stopped: the query in flight fails, nothing else.
  db.on('error', () => undefined);
  await db.connect();
  const sampler = new LockWaitSampler(directUrl, 20);
  const out: ClusterMeasurement[] = [];
  try {
    if (webhooks) {
      const res = await fetch(`${services[0]?.url}/v1/admin/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${cluster.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: `http://${HOST_ADDRESS}:${s.sink.port}/hooks`,
          events: [...WEBHOOK_EVENT_TYPES],
        }),
      });
      if (res.status !== 201) throw new Error(`creating the webhook endpoint answered ${res.status}`);
    }
    await sampler.start();
    const job = (kind: LoadJob['kind'], durationSeconds: number): LoadJob => ({
      url: services[0]?.url as string,
      urls: services.map((x) => x.url),
      kind,
      connections: connectionsPerInstance * n,
      durationSeconds,
      token: cluster.token,
      tag: tag(),
    });
    const measure = async (endpoint: 'send' | 'verify', work: () => Promise<LoadResult>) => {
      sampler.take();
      const before = await snapshot(s, services, db);
      const result = await work();
      const drainSeconds = await drain(db, webhooks);
      const after = await snapshot(s, services, db);
      const wal = await db.query('SELECT pg_wal_lsn_diff($1, $2)::bigint AS bytes', [after.lsn, before.lsn]);
      const executed: Record<string, number> = {};
      for (const [cmd, calls] of Object.entries(after.redisCalls)) {
        const d = calls - (before.redisCalls[cmd] ?? 0);
        // The bench's own INFO and FLUSHALL are not the service's.
        if (d > 0 && cmd !== 'info' && cmd !== 'flushall') executed[cmd] = d;
      }
      const cpuMs: CpuSplit = {
        service: after.service - before.service,
        postgres: after.postgres - before.postgres,
        redis: after.redis - before.redis,
        proxies: after.proxies - before.proxies,
        machineBusy: after.machine.busy - before.machine.busy,
        machineTotal: after.machine.total - before.machine.total,
      };
      const m: ClusterMeasurement = {
        webhooks,
        instances: n,
        endpoint,
        requests: result.requests,
        rps: result.requestsPerSecond,
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        non2xx: result.non2xx,
        errors: result.errors,
        drainSeconds,
        cpuMs,
        walBytes: Number(wal.rows[0]?.bytes ?? 0),
        redisCommands: after.redisCommands - before.redisCommands,
        postgresQueries: after.postgresQueries - before.postgresQueries,
        redisExecuted: executed,
        lockWaits: sampler.take() as LockWaitReport,
      };
      const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, m.requests));
      say(
        `  webhooks ${webhooks ? 'on' : 'off'}, ${n} instance(s), ${endpoint}: ${Math.round(m.rps)} req/s, p99 ${m.p99Ms} ms, ` +
          `µs/req service ${per(cpuMs.service)} PostgreSQL ${per(cpuMs.postgres)} Redis ${per(cpuMs.redis)}, ` +
          `drain ${drainSeconds.toFixed(1)} s, ${m.non2xx + m.errors} not 2xx`,
      );
      return m;
    };

    await load(options, job('send', options.warmupSeconds));
    await drain(db, webhooks);
    const since = Date.now();
    out.push(await measure('send', () => load(options, job('send', options.durationSeconds))));

    // The verify pool: the sends just measured, [requestId, code] from the outbox. Each id takes
    // three wrong codes and the right one (load.ts). When the measurement may need more ids than
    // the sends left (at 1.5 times the warm-up's pace), unmeasured sends top the pool up first.
    const poolFile = join((state as State).scratch, `${label}-pool.json`);
    const readPool = async () => {
      const pool = await postgresPool(directUrl, since)();
      for (const x of services) for (const [, code] of pool) x.codes.add(code);
      writeFileSync(poolFile, JSON.stringify(pool));
      return pool.length;
    };
    let size = await readPool();
    const warm = await load(options, { ...job('verify', options.warmupSeconds), poolFile, wrongPerRight: 3 });
    const offset = (warm.poolUsed ?? 0) + 1;
    const need = offset + Math.ceil((warm.requestsPerSecond * 1.5 * options.durationSeconds) / 4) + 1000;
    const sendRps = out[0]?.rps ?? 0;
    if (size < need && sendRps > 0) {
      await load(options, job('send', Math.ceil((need - size) / sendRps) + 1));
      size = await readPool();
    }
    await drain(db, webhooks);
    let used = 0;
    const verify = await measure('verify', async () => {
      const r = await load(options, {
        ...job('verify', options.durationSeconds),
        poolFile,
        poolOffset: offset,
        wrongPerRight: 3,
      });
      used = r.poolUsed ?? 0;
      return r;
    });
    if (offset + used > size) verify.poolRanOut = true;
    out.push(verify);
    return out;
  } finally {
    await sampler.stop().catch(() => undefined);
    await db.end().catch(() => undefined);
    for (const x of services) {
      const log = await x.stop();
      if ((log.logErrors ?? 0) > 0 || (log.codesInLog ?? 0) > 0)
        notes.push(
          `${x.setup.name}: ${log.logErrors} log lines at error level, ${log.codesInLog} issued codes in its log`,
        );
    }
    if (webhooks) await s.sink.ask('reset', 'reset');
    await s.admin.drop(cluster.database).catch(() => undefined);
  }
}

async function checksOn(s: Servers, namespaces: Namespace[], n: number): Promise<CheckResult[]> {
  const cluster = await startCluster(s, namespaces, n, `checks_${n}`, {
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_POLL_INTERVAL_MS: '100',
  });
  try {
    await s.sink.ask('reset', 'reset');
    return await clusterChecks({
      urls: cluster.services.map((x) => x.url),
      adminToken: cluster.adminToken,
      databaseUrl: cluster.directUrl,
      webhook: {
        url: `http://${HOST_ADDRESS}:${s.sink.port}/hooks`,
        events: () => s.sink.ask<ReceivedEvent[]>('events', 'events'),
      },
      log: (line) => say(`  ${line}`),
    });
  } finally {
    for (const x of cluster.services) await x.stop();
    await s.admin.drop(cluster.database).catch(() => undefined);
  }
}

/** The median round trip of a Redis PING to `port` on `host`, in ms. */
async function pingMs(host: string, port: number): Promise<number> {
  const client = new Redis({ host, port, lazyConnect: true });
  await client.connect();
  try {
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await client.ping();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return times[25] as number;
  } finally {
    client.disconnect();
  }
}

const notes: string[] = [];

function commitOf(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'not a git checkout';
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--cleanup')) {
    const done = cleanupStale();
    say(done.length > 0 ? `removed: ${done.join(', ')}` : 'nothing to remove');
    return;
  }
  const problem = netnsProblem() ?? peersProblem();
  if (problem) throw new Error(problem);
  const stale = cleanupStale();
  if (stale.length > 0) say(`removed what an earlier run left: ${stale.join(', ')}`);
  const started = new Date();
  await run(process.execPath, [join(root, 'scripts/ensure-built.mjs')], { cwd: root }, 600_000);

  const scratch = mkdtempSync(join(tmpdir(), 'cv-cluster-'));
  // PostgreSQL runs as its own user, which must reach its directory inside this one.
  chmodSync(scratch, 0o755);
  state = { pid: process.pid, scratch, pids: [] };
  saveState();
  const most = Math.max(...instanceCounts, runChecks ? checkInstances : 0);
  say(`namespaces: ${most}`);
  const namespaces = Array.from({ length: most }, (_, i) => createNamespace(i + 1));

  say('PostgreSQL and Redis of the bench');
  // Durable as production runs it: fsync and full-page writes on (the WAL per request is measured).
  postgres = await ScratchPostgres.start(join(scratch, 'postgres'), await freePort(), {
    fsync: 'on',
    full_page_writes: 'on',
    shared_buffers: "'128MB'",
    max_connections: '300',
  });
  state.postgresData = postgres.dataDir;
  saveState();
  redis = await ScratchRedis.start(join(scratch, 'redis'), await freePort());
  state.pids.push(redis.pid as number);
  saveState();
  const redisClient = new Redis({ host: '127.0.0.1', port: redis.port, lazyConnect: true });
  redisClient.on('error', () => undefined);
  await redisClient.connect();
  const s: Servers = {
    postgres,
    redis,
    redisClient,
    pgProxy: await forkHelper('bench/delay-proxy.ts', {
      hosts: [HOST_ADDRESS],
      target: { host: '127.0.0.1', port: postgres.port },
      delayMs,
      protocol: 'postgres',
    }),
    redisProxy: await forkHelper('bench/delay-proxy.ts', {
      hosts: [HOST_ADDRESS],
      target: { host: '127.0.0.1', port: redis.port },
      delayMs,
      protocol: 'resp',
    }),
    sink: await forkHelper('bench/webhook-sink.ts', { hosts: [HOST_ADDRESS] }),
    admin: new PostgresAdmin(postgres.url, 'cv_cl'),
  };
  try {
    const rtt = {
      direct: await pingMs('127.0.0.1', redis.port),
      proxied: await pingMs(HOST_ADDRESS, s.redisProxy.port),
    };
    say(
      `round trip to Redis: ${rtt.direct.toFixed(2)} ms direct, ${rtt.proxied.toFixed(2)} ms through the proxy`,
    );
    const measurements: ClusterMeasurement[] = [];
    for (const webhooks of webhookConfigs.map((w) => w === 'on')) {
      for (const n of instanceCounts) {
        say(`webhooks ${webhooks ? 'on' : 'off'}, ${n} instance(s)`);
        try {
          measurements.push(...(await measureCluster(s, namespaces, n, webhooks)));
        } catch (err) {
          const note = `webhooks ${webhooks ? 'on' : 'off'}, ${n} instances failed: ${(err as Error).message}`;
          say(`  ${note}`);
          notes.push(note);
        }
      }
    }
    let checks: ClusterRun['checks'] = null;
    if (runChecks) {
      say(`correctness checks on ${checkInstances} instances`);
      const results = await checksOn(s, namespaces, checkInstances);
      for (const r of results) say(`  ${r.passed ? 'pass' : 'FAIL'}: ${r.name}: ${r.detail}`);
      checks = { instances: checkInstances, delayMs, results };
    }

    const serverSettings = await s.admin
      .settings()
      .catch((err: Error) => `settings not read: ${err.message}`);
    const redisVersion = /redis_version:(\S+)/.exec(await redisClient.info('server'))?.[1] ?? 'unknown';
    const minutes = (Date.now() - started.getTime()) / 60_000;
    const header = [
      `Generated by \`npm run bench:cluster\` on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC at \`${commitOf()}\`; the run took ${minutes.toFixed(0)} min.`,
      `Instances: ${instanceCounts.join(', ')} (one process each, \`WORKERS=1\`), ${connectionsPerInstance} connections per instance; ` +
        `${options.durationSeconds} s per measurement after ${options.warmupSeconds} s of warm-up; webhooks ${webhookConfigs.join(' and ')}; ${machine()}.`,
      `Added delay ${delayMs} ms each way: a Redis PING took ${rtt.direct.toFixed(2)} ms direct and ${rtt.proxied.toFixed(2)} ms through the proxy (median of 50).`,
      `PostgreSQL of the bench: ${serverSettings}, fsync on, full_page_writes on; Redis ${redisVersion} of the bench, nothing saved to disk.`,
    ];
    const report: ClusterRun = { header, instanceCores, measurements, checks, notes };
    const lines = clusterLines(report);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (writePage) {
      replaceSection(PAGE, '<!-- bench:cluster:start -->', '<!-- bench:cluster:end -->', lines);
      say('docs/benchmark-cluster.md: results section replaced');
    }
    mkdirSync(options.resultsDir, { recursive: true });
    const file = join(options.resultsDir, `cluster-${started.toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ startedAt: started.toISOString(), cpus: cpus().length, delayMs, rtt, report }, null, 2)}\n`,
    );
    say(`results: ${file}`);
    if (checks?.results.some((r) => !r.passed)) {
      say('bench:cluster: a correctness check failed');
      process.exitCode = 1;
    }
  } finally {
    redisClient.disconnect();
    await s.admin.dropAll().catch(() => undefined);
  }
}

main()
  .catch((err) => {
    say(`bench:cluster failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
