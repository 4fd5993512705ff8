/**
 * The whole service's CPU per send and per verify, for two or more trees side by side: each tree's
 * own composition root on a fresh SQLite file, in a process of its own, driven through Fastify's
 * inject in waves of `--concurrency` requests that take turns between the trees, each wave
 * followed by one step of that tree's webhook worker (its fan-out, and the batch fold where the
 * tree has one), so the work a request leaves behind is counted with it.
 *
 * A wave's CPU is its process's (every thread: the WAL checkpoints too) from the end of that
 * tree's previous wave to the end of this one, so nothing a tree does between its turns is lost
 * or given to another tree. One process per tree keeps the trees' heaps apart: in one shared
 * process a major GC marks every tree's objects and lands on whichever tree allocated last, which
 * made identical trees differ by up to 50 % in late blocks. Taking turns wave by wave puts every
 * tree through the same moments of a shared machine, whose speed drifts by tens of per cent from
 * one minute to the next; the HTTP parsing that inject leaves out is the same in every tree, so a
 * difference here is, if anything, a larger share of the total than it is behind a socket.
 *
 *   node --import tsx bench/service-hotpath.ts --trees=before=/tmp/a,after=/tmp/b \
 *     [--requests=10000 --concurrency=50 --channel=EMAIL|SMS --blocks=5 --fold-every=1]
 *     [--postgres=postgres://host:port/postgres [--postgres-pid=<postmaster pid>]]
 *     [--redis=redis://host:port/db [--redis-pid=<redis-server pid>]]
 *
 * Each tree runs its own build (`npm run build`: dist/), as `npm start` does: the code is what
 * production runs, and a CPU profile shows its functions rather than a loader's wrappers.
 *
 * With --postgres each tree runs on a fresh database of that server instead of SQLite, and the
 * figures add the bytes of WAL the server wrote per request (a measure of the writes that does
 * not depend on how busy the machine is); with --postgres-pid, the server's CPU during a tree's
 * waves is added to the tree's (use a server of your own: every client's work is counted), and
 * reported on its own as `serverUs`. With --wal-by-relation=<the server's pg_wal directory> (a
 * server on this machine, its files readable), the figures add what that WAL holds per request, by
 * kind of record and relation (the server's pg_waldump; --pg-waldump=<path> names another):
 * `walByRelation`, the largest first. BENCH_KEEP_DB=1 leaves each tree's database in place at the
 * end.
 *
 * With --webhooks=1 an endpoint of each tree takes every event, on a receiver in the tree's process
 * that answers 200 at once: each wave's worker step publishes what the wave made.
 *
 * With --redis each tree runs with REDIS_URL (its limits in Redis, under a key prefix of its own,
 * deleted at the end), as an instance of a scaled-out deployment; with
 * --redis-pid, the Redis server's CPU is added as the PostgreSQL server's is.
 *
 * Sends go to fresh destinations (EMAIL, or SMS to GB mobile numbers of +447400, scattered over
 * its number blocks, with a test key, which the outbox takes; at most 1,000,000 of them); each
 * verify is one wrong code, then the right one (two requests). Prints one JSON line: per tree µs
 * per send and per verify request, µs per request in each of `--blocks` consecutive blocks of
 * waves, and the ratio to the first tree in each block (their spread says how far to trust a
 * difference). A wave's CPU includes what its process did since its previous wave, so the
 * figures are of totals: a checkpoint or a GC lands on one wave but is the tree's own cost.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import pino from 'pino';
import { WEBHOOK_EVENT_TYPES } from '../src/webhooks/events.js';
import { arg, treesArg } from './args.js';
import { clearRedisKeys } from './redis-keys.js';
import { findWaldump, type WalRange, type WalShare, walByRelation } from './wal-by-relation.js';
import { startWebhookSink } from './webhook-sink.js';

const REQUESTS = Number(arg('requests', '10000'));
const CONCURRENCY = Number(arg('concurrency', '50'));
const BLOCKS = Number(arg('blocks', '5'));
const CHANNEL = arg('channel', 'EMAIL') === 'SMS' ? 'SMS' : 'EMAIL';
/** `--postgres=<url of a server's postgres database>`: each tree on a fresh database there. */
const POSTGRES = arg('postgres', '');
/**
 * `--postgres-pid=<postmaster pid>`: the server's CPU (all its processes) during a tree's wave is
 * added to that tree's, since the two share the machine's cores. Use a server nothing else uses.
 */
const POSTGRES_PID = Number(arg('postgres-pid', '0'));
/** `--redis=<url>`: each tree with REDIS_URL; `--redis-pid`: that server's CPU added to the tree's. */
const REDIS = arg('redis', '');
/** 1: an endpoint takes every event (the publisher at work), on a receiver in the tree's process. */
const WEBHOOKS = arg('webhooks', '0') === '1';
const REDIS_PID = Number(arg('redis-pid', '0'));
/** `--wal-by-relation=<pg_wal directory of the --postgres server>`: its WAL per relation. */
const WAL_DIR = POSTGRES ? arg('wal-by-relation', '') : '';
/**
 * `--fold-every=N` (1): the fold runs after every Nth wave of a tree, and after its last wave of a
 * phase, instead of after each (the tree's own fold timer then waits an hour). A fold takes the
 * changes of that many waves at once, as a deployment's timer takes those of its interval (250 ms
 * on PostgreSQL: 5 waves of 50 at 1,000 sends a second); its per-batch cost is shared by more.
 */
const FOLD_EVERY = Math.max(1, Number(arg('fold-every', '1')));
/** Waves of sends each tree makes before the measured ones (the JIT, the statement caches). */
const WARM_WAVES = 10;
const PG_WALDUMP = arg('pg-waldump', '');
/** In a tree's own process: `--tree=name=root`. */
const TREE = arg('tree', '');

export type Kind = 'send' | 'verify';
/** What the parent asks a tree's process (bench/instructions.ts asks the same). */
export type Command =
  | { op: 'warm' }
  | { op: 'pool' }
  /** `last`: the tree's last wave of the phase (the fold runs after it whatever --fold-every says). */
  | { op: 'wave'; kind: Kind; from: number; count: number; last?: boolean }
  /** With --wal-by-relation: the tree database's relations by file node (answered by message). */
  | { op: 'relations' }
  | { op: 'close' };

if (TREE) await serveTree(TREE);
else await drive();

/**
 * CPU ms of every process of the PostgreSQL server named by --postgres-pid and of the Redis server
 * named by --redis-pid (0 without them).
 */
function serverCpuMs(): number {
  if (!POSTGRES_PID && !REDIS_PID) return 0;
  const ticks = (pid: string) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return {
        parent: Number(fields[1]),
        cpu: Number(fields[11]) + Number(fields[12]),
        // The CPU of its children that ended and were waited for (cutime, cstime).
        ended: Number(fields[13]) + Number(fields[14]),
      };
    } catch {
      return { parent: 0, cpu: 0, ended: 0 };
    }
  };
  let total = REDIS_PID ? ticks(String(REDIS_PID)).cpu : 0;
  if (POSTGRES_PID) {
    // A backend that ends takes its CPU out of the running children's sum into the postmaster's
    // `ended`: without it a wave in which another client's backend ended counted less than nothing.
    const postmaster = ticks(String(POSTGRES_PID));
    total += postmaster.cpu + postmaster.ended;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const p = ticks(pid);
      if (p.parent === POSTGRES_PID) total += p.cpu;
    }
  }
  return (total * 1000) / 100; // clock ticks of 10 ms
}

/** The parent: starts a process per tree, gives them their waves in turn, prints the figures. */
async function drive(): Promise<void> {
  const trees = treesArg([{ name: 'this', root: process.cwd() }]).map((t) => ({
    ...t,
    child: fork(fileURLToPath(import.meta.url), [...process.argv.slice(2), `--tree=${t.name}=${t.root}`], {
      // BENCH_CPU_PROF=<dir>: a CPU profile of each tree's process, to compare where they differ.
      execArgv: [
        '--import',
        'tsx',
        ...(process.env.BENCH_CPU_PROF
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}/${t.name}`]
          : []),
      ],
    }),
    pool: 0,
    failures: 0,
    /** CPU ms per wave, per phase. */
    cpu: { send: [] as number[], verify: [] as number[] },
    /** Bytes of PostgreSQL WAL written during the tree's waves, per phase (with --postgres). */
    wal: { send: 0, verify: 0 },
    /** CPU ms of the servers named by --postgres-pid and --redis-pid during the tree's waves, per phase. */
    server: { send: 0, verify: 0 },
    /** With --wal-by-relation: the largest shares of the WAL of the tree's waves, per phase. */
    walShares: { send: [] as WalShare[], verify: [] as WalShare[] },
  }));
  const ask = (child: ChildProcess, command: Command) =>
    new Promise<{ value: number }>((resolve, reject) => {
      child.once('error', reject);
      child.once('message', (m) => {
        child.off('error', reject);
        resolve(m as { value: number });
      });
      child.send(command);
    });
  // The server's WAL position: what a wave wrote there is a measure of its writes that does not
  // depend on how busy the machine is.
  const walClient = POSTGRES ? new pg.Client(POSTGRES) : null;
  await walClient?.connect();
  const walAt = async () =>
    walClient
      ? ((
          await walClient.query(
            "SELECT pg_current_wal_lsn()::text AS lsn, pg_current_wal_lsn() - '0/0' AS at",
          )
        ).rows[0] as { lsn: string; at: string })
      : { lsn: '0/0', at: '0' };
  const waldump = WAL_DIR
    ? findWaldump(
        Number((await walClient?.query('SHOW server_version_num'))?.rows[0].server_version_num),
        PG_WALDUMP,
      )
    : '';
  /** Per phase, the stretches of WAL each tree's waves wrote (with --wal-by-relation). */
  let walRanges: Array<WalRange<(typeof trees)[number]>> = [];
  try {
    await Promise.all(trees.map((t) => new Promise((ready) => t.child.once('message', ready))));
    for (const t of trees) await ask(t.child, { op: 'warm' });
    const phase = async (kind: Kind, count: (t: (typeof trees)[number]) => number) => {
      const total = Math.max(...trees.map(count));
      for (let i = 0, w = 0; i < total; i += CONCURRENCY, w++) {
        // Each wave in turn, starting with a different tree each time.
        for (let k = 0; k < trees.length; k++) {
          const t = trees[(k + w) % trees.length] as (typeof trees)[number];
          const n = Math.min(CONCURRENCY, count(t) - i);
          if (n === 0) continue;
          const server = serverCpuMs();
          const before = await walAt();
          const last = i + n >= count(t);
          const own = (await ask(t.child, { op: 'wave', kind, from: i, count: n, last })).value;
          const serverMs = serverCpuMs() - server;
          t.cpu[kind].push(own + serverMs);
          t.server[kind] += serverMs;
          const after = await walAt();
          t.wal[kind] += Number(after.at) - Number(before.at);
          if (WAL_DIR) walRanges.push({ from: before.lsn, to: after.lsn, owner: t });
        }
      }
      // Read at once: a checkpoint may recycle the files of this phase's WAL before the run ends.
      if (WAL_DIR) {
        const names = new Map<(typeof trees)[number], Record<string, string>>();
        for (const t of trees)
          names.set(t, (await ask(t.child, { op: 'relations' })).value as unknown as Record<string, string>);
        const shares = walByRelation(waldump, WAL_DIR, walRanges, (owner, node) => names.get(owner)?.[node]);
        for (const t of trees) t.walShares[kind] = (shares.get(t) ?? []).slice(0, 15);
        walRanges = [];
      }
    };
    await phase('send', () => REQUESTS);
    for (const t of trees) t.pool = (await ask(t.child, { op: 'pool' })).value;
    await phase('verify', (t) => t.pool);
    for (const t of trees) {
      const exited = new Promise((resolve) => t.child.once('exit', resolve));
      t.failures = (await ask(t.child, { op: 'close' })).value;
      await exited;
    }
  } finally {
    for (const t of trees) if (t.child.exitCode === null) t.child.kill();
    await walClient?.end();
  }

  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const requests = (t: (typeof trees)[number], kind: Kind) => (kind === 'send' ? REQUESTS : 2 * t.pool);
  const report = (kind: Kind) =>
    Object.fromEntries(
      trees.map((t) => {
        const base = (trees[0] as (typeof trees)[number]).cpu[kind];
        const mine = t.cpu[kind];
        const size = Math.ceil(mine.length / BLOCKS);
        const block = (xs: number[], b: number) => xs.slice(b * size, (b + 1) * size);
        const ratios = Array.from({ length: BLOCKS }, (_, b) =>
          Number((sum(block(mine, b)) / sum(block(base, b))).toFixed(3)),
        );
        // CPU µs per request in each block: whether a tree's cost grows as its tables do.
        const perWave = requests(t, kind) / mine.length;
        const blockUs = Array.from({ length: BLOCKS }, (_, b) =>
          Number(((sum(block(mine, b)) * 1000) / (block(mine, b).length * perWave)).toFixed(1)),
        );
        const us = Number(((sum(mine) * 1000) / requests(t, kind)).toFixed(1));
        const walBytes = POSTGRES ? Math.round(t.wal[kind] / requests(t, kind)) : undefined;
        const per = (x: number, digits: number) => Number((x / requests(t, kind)).toFixed(digits));
        const walByRelation = WAL_DIR
          ? t.walShares[kind].map((w) => ({
              record: w.record,
              relation: w.relation,
              bytes: per(w.bytes, 0),
              records: per(w.records, 2),
              fullPageImages: per(w.fullPageImages, 3),
            }))
          : undefined;
        // The servers' share of `us` (with --postgres-pid or --redis-pid): what sizes the database.
        const serverUs =
          POSTGRES_PID || REDIS_PID
            ? Number(((t.server[kind] * 1000) / requests(t, kind)).toFixed(1))
            : undefined;
        return [t.name, { us, serverUs, blockUs, ratios, walBytes, walByRelation }];
      }),
    );
  console.log(
    JSON.stringify({
      channel: CHANNEL,
      requests: REQUESTS,
      failures: sum(trees.map((t) => t.failures)),
      send: report('send'),
      verify: report('verify'),
    }),
  );
}

/** A tree's process: opens the service and runs what the parent asks, answering each in turn. */
async function serveTree(spec: string): Promise<void> {
  const [, root] = spec.split(/=(.*)/s) as [string, string];
  const load = (path: string) => import(pathToFileURL(join(root, path)).href);
  const { loadConfig } = await load('dist/config/schema.js');
  const { compose } = await load('dist/compose.js');
  const dir = mkdtempSync(join(tmpdir(), 'cv-svc-'));
  const db = join(dir, 'verify.db');
  const admin = randomBytes(32).toString('base64url');
  const database = POSTGRES ? `cv_hot_${randomBytes(4).toString('hex')}` : '';
  const databaseUrl = POSTGRES ? POSTGRES.replace(/\/[^/]*$/, `/${database}`) : `sqlite:${db}`;
  if (POSTGRES) await postgresAdmin(`CREATE DATABASE ${database}`);
  const redisPrefix = `cv-hot-${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    ...(REDIS ? { REDIS_URL: REDIS, REDIS_KEY_PREFIX: redisPrefix } : {}),
    DATABASE_URL: databaseUrl,
    ADMIN_TOKEN: admin,
    LOG_LEVEL: 'warn',
    KEY_SEND_PER_SECOND: '1000000',
    KEY_VERIFY_PER_SECOND: '1000000',
    SENDS_PER_DESTINATION_PER_HOUR: '1000',
    COUNTRY_SENDS_PER_HOUR: '10000000',
    RESEND_COOLDOWN_SECONDS: '0',
    // The worker's steps are run after each wave instead (see wave()).
    WEBHOOK_POLL_INTERVAL_MS: '3600000',
    ...(WEBHOOKS ? { WEBHOOKS_ALLOW_PRIVATE: 'true' } : {}),
    // Under valgrind (bench/instructions.ts) a timer's runs would count for 30 times more per
    // request than natively: the fold runs only after each wave there.
    ...(process.env.BENCH_QUIET_TIMERS || FOLD_EVERY > 1 ? { FOLD_INTERVAL_MS: '3600000' } : {}),
  });
  const service = await compose(config, { logger: pino({ level: 'warn' }) });
  await service.app.ready();
  const inject = (url: string, payload: object, method = 'POST', token = admin) =>
    service.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
  const created = await inject('/v1/admin/api-keys', {
    name: 'bench',
    channels: [CHANNEL],
    test: CHANNEL === 'SMS',
  });
  const { key, accountId } = (created.json() as { data: { key: string; accountId: string } }).data;
  // Every bench send is unconverted until the verify phase: the SMS-pumping breaker would stop the
  // sends to GB after 50 (a conversion floor of 0 never trips it; its check still runs).
  await inject(`/v1/admin/accounts/${accountId}/settings`, { pumpingMinConversion: 0 }, 'PATCH');
  if (WEBHOOKS) {
    const sink = await startWebhookSink(['127.0.0.1']);
    const endpoint = await inject('/v1/admin/webhooks', {
      url: `http://127.0.0.1:${sink.port}/hooks`,
      events: [...WEBHOOK_EVENT_TYPES],
    });
    if (endpoint.statusCode !== 201) throw new Error(`creating the webhook endpoint: ${endpoint.body}`);
  }

  const unique = randomBytes(3).toString('hex');
  const body = (i: number) =>
    CHANNEL === 'EMAIL'
      ? { channel: 'EMAIL', email: `u${i}-${unique}@example.com` }
      : { channel: 'SMS', phone: `+447400${String((i * 7919) % 1_000_000).padStart(6, '0')}`, country: 'GB' };
  const wrong = (code: string) => String((Number(code) + 1) % 10 ** code.length).padStart(code.length, '0');
  let failures = 0;
  const post = async (url: string, payload: object) => {
    const res = await inject(url, payload, 'POST', key);
    if (res.statusCode !== 200 && failures++ === 0) console.error(`${url}: ${res.statusCode} ${res.body}`);
  };
  let pool: Array<readonly [string, string]> = [];
  let since = 0;
  const one: Record<Kind, (i: number) => Promise<void>> = {
    send: (i) => post('/v1/contact/send-code', body(i)),
    verify: async (i) => {
      const [requestId, code] = pool[i] as readonly [string, string];
      await post('/v1/contact/verify-code', { requestId, code: wrong(code) });
      await post('/v1/contact/verify-code', { requestId, code });
    },
  };
  let waves = 0;
  /** One wave of requests, then one step of the worker (the fold every FOLD_EVERY waves). */
  const wave = async (from: number, count: number, run: (i: number) => Promise<void>, last = true) => {
    await Promise.all(Array.from({ length: count }, (_, j) => run(from + j)));
    // The fold, where the tree runs it on its own timer, then the webhook worker's step.
    if (++waves % FOLD_EVERY === 0 || last) await service.folds?.runOnce();
    await service.webhooks?.runOnce();
  };
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let last = 0;

  const answer = async (command: Command): Promise<number | Record<string, string>> => {
    switch (command.op) {
      case 'warm':
        // The JIT, the statement caches, the key cache.
        for (let i = 0; i < WARM_WAVES; i++)
          await wave(REQUESTS + i * CONCURRENCY, CONCURRENCY, one.send, i === WARM_WAVES - 1);
        // The verify phase's pool is the requests made after `since`: none of the warm-up's.
        since = Date.now() + 1;
        await new Promise((r) => setTimeout(r, 2));
        last = cpuMs();
        return 0;
      case 'wave': {
        await wave(command.from, command.count, one[command.kind], command.last ?? true);
        const now = cpuMs();
        const spent = now - last;
        last = now;
        return spent;
      }
      case 'pool': {
        const sql = 'SELECT * FROM verifications WHERE created_at >= $1 AND outbox IS NOT NULL ORDER BY id';
        let rows: Array<{ id: string; outbox: string; outbox_code?: string | null }>;
        if (POSTGRES) {
          const client = new pg.Client(databaseUrl);
          await client.connect();
          rows = (await client.query(sql, [since])).rows;
          await client.end();
        } else {
          const reader = new BetterSqlite3(db, { readonly: true });
          rows = reader.prepare(sql.replace('$1', '?')).all(since) as typeof rows;
          reader.close();
        }
        pool = rows.map(
          (r) =>
            [
              r.id,
              r.outbox_code ?? (JSON.parse(r.outbox) as { request: { code: string } }).request.code,
            ] as const,
        );
        last = cpuMs();
        return pool.length;
      }
      case 'relations': {
        const client = new pg.Client(databaseUrl);
        await client.connect();
        const rows = (
          await client.query(
            'SELECT pg_relation_filenode(oid)::text AS node, relname FROM pg_class WHERE pg_relation_filenode(oid) IS NOT NULL',
          )
        ).rows as Array<{ node: string; relname: string }>;
        await client.end();
        return Object.fromEntries(rows.map((r) => [r.node, r.relname]));
      }
      case 'close':
        await service.close();
        if (POSTGRES && !process.env.BENCH_KEEP_DB)
          await postgresAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        if (REDIS) await clearRedisKeys(REDIS, redisPrefix);
        rmSync(dir, { recursive: true, force: true });
        return failures;
    }
  };
  process.on('message', (command: Command) => {
    answer(command).then(
      (value) => {
        // After the last answer the process exits (writing its CPU profile, if one was asked for).
        process.send?.({ value }, () => {
          if (command.op === 'close') process.exit(0);
        });
      },
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
  process.send?.({ value: 0 });
}

/** One statement on the --postgres server's database (CREATE / DROP DATABASE). */
async function postgresAdmin(sql: string): Promise<void> {
  const client = new pg.Client(POSTGRES);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
