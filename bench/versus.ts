import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { list, parseTrees, setting, type Tree } from './args.js';
import { PostgresAdmin } from './postgres-admin.js';
import { killAll, run } from './processes.js';
import { clearRedisKeys } from './redis-keys.js';
import { machine, replaceSection } from './report.js';
import { type BenchOptions, measureCeiling, measureService } from './scenario.js';
import { Templates } from './templates.js';
import type { Ceiling, Measurement } from './versus-report.js';
import { versusLines } from './versus-tables.js';

/**
 * `npm run bench:versus`: several checkouts ("trees") of the service measured in one run, taking
 * turns, on both stores, on an empty table and a filled one; writes docs/benchmark-versus.md and
 * bench/results/versus-<time>.json. The method is on that page and in docs/benchmark.md.
 *
 *   npm run bench:versus -- --trees=base=../base,this=.   (the first tree is the reference)
 */
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const trees = parseTrees(setting('trees', 'this=.'));
const databases = list(setting('databases', 'sqlite,postgres'));
const tables = list(setting('tables', 'empty,1m'));
const rows = Number(setting('rows', '1000000'));
const rounds = Number(setting('rounds', '2'));
const writePage = setting('write-page', '1') === '1';
/** `--redis-url`: every service runs with REDIS_URL (its limits in Redis). */
const redisUrl = setting('redis-url', '');
const options: BenchOptions = {
  root,
  durationSeconds: Number(setting('duration', '10')),
  warmupSeconds: Number(setting('warmup', '3')),
  connections: [Number(setting('connections', '50'))],
  cpuProf: setting('cpu-prof', '0') === '1',
  verify: true,
  resultsDir: join(root, 'bench/results'),
};
const postgres = new PostgresAdmin(
  setting('postgres-url', 'postgres://postgres@127.0.0.1:5432/postgres'),
  'cv_vs',
);
const PAGE = join(root, 'docs/benchmark-versus.md');

const bad = [
  ...databases.filter((d) => d !== 'sqlite' && d !== 'postgres').map((d) => `--databases: unknown "${d}"`),
  ...tables.filter((t) => t !== 'empty' && t !== '1m').map((t) => `--tables: unknown "${t}"`),
  ...Object.entries({ rows, rounds, duration: options.durationSeconds, connections: options.connections[0] })
    .filter(([, v]) => !(Number.isInteger(v) && (v as number) > 0))
    .map(([k]) => `--${k}: a positive whole number`),
  ...(Number.isFinite(options.warmupSeconds) && options.warmupSeconds >= 0
    ? []
    : ['--warmup: seconds, 0 or more']),
];
if (bad.length > 0) {
  process.stderr.write(`bench:versus: ${bad.join('; ')}\n`);
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'cv-versus-'));
async function cleanup(): Promise<void> {
  killAll();
  if (databases.includes('postgres')) await postgres.dropAll().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: stopping the bench and cleaning up\n`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** The commit a tree is at, with a mark when its files differ from it. */
function commitOf(tree: Tree): string {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', tree.root, ...args], { encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'not a git checkout';
  }
}

/** Builds this repository when it is stale; other trees must come built (their dist/ is theirs). */
async function ensureBuilt(tree: Tree): Promise<void> {
  if (tree.root === root) {
    await run(process.execPath, [join(root, 'scripts/ensure-built.mjs')], { cwd: root }, 600_000);
  } else if (!existsSync(join(tree.root, 'dist/main.js'))) {
    throw new Error(`${tree.name}: ${tree.root}/dist/main.js is missing: run npm ci && npm run build there`);
  }
}

async function ceiling(database: string, after: number): Promise<Ceiling> {
  const [row] = await measureCeiling(options, `bare-fastify ${database} #${after}`);
  return { database, after, rps: row?.requestsPerSecond ?? 0 };
}

/** One tree's service on a fresh copy of its template: send-code, then verify-code. */
async function measure(
  templates: Templates,
  tree: Tree,
  database: string,
  table: string,
  round: number,
): Promise<Measurement> {
  const copy = await templates.copy(tree, database, table, Date.now());
  const databasePid = database === 'postgres' ? await postgres.serverPid().catch(() => null) : null;
  try {
    const name = `${tree.name}-${database}-${table}-r${round}`;
    const outcome = await measureService(options, {
      name,
      root: tree.root,
      workers: 1,
      databaseUrl: copy.url,
      dataDir: copy.dataDir,
      readPool: copy.readPool,
      databasePid,
      profileName: `${name}.cpuprofile`,
      ...(redisUrl ? { redisUrl } : {}),
    });
    const figures = (endpoint: 'send' | 'verify') => {
      const r = outcome.rows.find((x) => x.endpoint === endpoint);
      if (!r) throw new Error(outcome.skipped ?? `no ${endpoint} figures`);
      const { requestsPerSecond: rps, p50Ms, p99Ms, cpuUsPerRequest, peakRssMb, non2xx, errors } = r;
      return {
        rps,
        p50Ms,
        p99Ms,
        cpuUsPerRequest,
        ...(r.dbCpuUsPerRequest === undefined ? {} : { dbCpuUsPerRequest: r.dbCpuUsPerRequest }),
        peakRssMb,
        non2xx,
        errors,
        ...(r.poolRanOut ? { poolRanOut: true } : {}),
      };
    };
    const m: Measurement = {
      tree: tree.name,
      database,
      table,
      round,
      send: figures('send'),
      verify: figures('verify'),
      logLines: outcome.logLines ?? 0,
      logErrors: outcome.logErrors ?? 0,
      codesInLog: outcome.codesInLog ?? 0,
    };
    const f = (e: 'send' | 'verify') =>
      `${e} ${m[e].rps} req/s p99 ${m[e].p99Ms} ms ${m[e].cpuUsPerRequest} µs/req` +
      (m[e].dbCpuUsPerRequest ? ` + server ${m[e].dbCpuUsPerRequest}` : '');
    process.stderr.write(`  r${round} ${database} ${table} ${tree.name}: ${f('send')}, ${f('verify')}\n`);
    return m;
  } finally {
    await copy.dispose();
    if (redisUrl) await clearRedisKeys(redisUrl).catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const started = new Date();
  mkdirSync(join(options.resultsDir, 'profiles'), { recursive: true });
  const commits = new Map<string, string>();
  for (const tree of trees) {
    await ensureBuilt(tree);
    commits.set(tree.name, commitOf(tree));
  }
  const measurements: Measurement[] = [];
  const ceilings: Ceiling[] = [];
  const notes: string[] = [];
  const templates = new Templates(options, scratch, postgres, rows);

  for (const database of databases) {
    const here: Tree[] = [];
    for (const tree of trees) {
      const reason = database === 'postgres' ? await postgres.unavailable(tree.root) : null;
      if (reason) notes.push(`${tree.name} not measured on ${database}: ${reason}`);
      else here.push(tree);
    }
    if (here.length === 0) continue;
    process.stderr.write(`${database}: templates\n`);
    const now = Date.now();
    for (const tree of here) for (const table of tables) await templates.prepare(tree, database, table, now);
    ceilings.push(await ceiling(database, 0));
    for (let round = 1; round <= rounds; round++) {
      // The whole sequence runs backwards every other round (ABC…CBA), so a steady drift of
      // the machine lands on every tree and table alike.
      const sequence = tables.flatMap((table) => here.map((tree) => ({ tree, table })));
      if (round % 2 === 0) sequence.reverse();
      for (const { tree, table } of sequence) {
        try {
          measurements.push(await measure(templates, tree, database, table, round));
        } catch (err) {
          const note = `${tree.name}/${database}/${table}/r${round} failed: ${(err as Error).message}`;
          process.stderr.write(`  ${note}\n`);
          notes.push(note);
        }
      }
      ceilings.push(await ceiling(database, round));
    }
    await templates.dispose(database);
  }

  const server = databases.includes('postgres')
    ? await postgres.settings().catch((err: Error) => `settings not read: ${err.message}`)
    : null;
  const minutes = (Date.now() - started.getTime()) / 60_000;
  const report = versusLines({
    trees: trees.map((t) => t.name),
    databases,
    tables,
    rows,
    measurements,
    ceilings,
    redis: Boolean(redisUrl),
  });
  const header = [
    `Generated by \`npm run bench:versus\` on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC; the run took ${minutes.toFixed(0)} min.`,
    `Trees: ${trees.map((t) => `${t.name} \`${commits.get(t.name)}\``).join(', ')} (the first is the reference).`,
    `${rounds} round${rounds === 1 ? '' : 's'}; ${options.durationSeconds} s per measurement after ${options.warmupSeconds} s of warm-up; ${options.connections[0]} connections;` +
      ` ${tables.includes('1m') ? `${rows.toLocaleString('en-US')} pre-filled rows` : 'empty tables only'}; ${machine()}.`,
    ...(server ? [`PostgreSQL server: ${server}.`] : []),
    ...(redisUrl ? ['Every service ran with `REDIS_URL` (its limits in Redis).'] : []),
    '',
  ];
  const lines = [...header, ...report.lines, ...notes.map((n) => `- ${n}`)];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (writePage) {
    replaceSection(PAGE, '<!-- bench:versus:start -->', '<!-- bench:versus:end -->', lines);
    process.stderr.write('docs/benchmark-versus.md: results section replaced\n');
  }
  const file = join(options.resultsDir, `versus-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  const settings = { ...options, root: undefined, rows, rounds, databases, tables, redisUrl };
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt: started.toISOString(),
        minutes: Math.round(minutes * 10) / 10,
        options: settings,
        trees: trees.map((t) => ({ ...t, commit: commits.get(t.name) })),
        measurements,
        ceilings,
        summaries: report.summaries,
        targets: report.targets,
        notes,
      },
      null,
      2,
    )}\n`,
  );
  process.stderr.write(`results: ${file}\n`);
}

main()
  .catch((err) => {
    process.stderr.write(
      `bench:versus failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  })
  .finally(() => cleanup());
