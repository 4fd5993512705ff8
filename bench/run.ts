import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { list, setting } from './args.js';
import { Ceilings } from './ceilings.js';
import { fillPostgres, fillSqlite } from './fill.js';
import { PostgresAdmin } from './postgres-admin.js';
import { killAll, run } from './processes.js';
import { clearRedisKeys } from './redis-keys.js';
import { growthLines, tableLines, writeResultsPage } from './report.js';
import {
  type BenchOptions,
  type GrowthRow,
  measureGrowth,
  measureService,
  postgresPool,
  type Row,
  type ScenarioOutcome,
  type ServiceSetup,
  sqlitePool,
} from './scenario.js';

/**
 * `npm run bench`: the bare-Fastify ceiling, then the service per database, table size and worker
 * count. Settings come from flags (`--duration=5`) or the environment (`BENCH_DURATION=5`).
 */
const root = fileURLToPath(new URL('..', import.meta.url));

const options: BenchOptions = {
  root,
  durationSeconds: Number(setting('duration', '10')),
  warmupSeconds: Number(setting('warmup', '3')),
  connections: list(setting('connections', '10,50,100')).map(Number),
  cpuProf: setting('cpu-prof', '0') === '1',
  verify: list(setting('endpoints', 'send,verify')).includes('verify'),
  resultsDir: join(root, 'bench/results'),
};
const rows = Number(setting('rows', '1000000'));
const databases = list(setting('databases', 'sqlite,postgres'));
const tables = list(setting('tables', 'empty,1m'));
const workerCounts = list(setting('workers', '1,2')).map(Number);
// Replace the results section of docs/benchmark.md with this run's table (0 leaves it alone).
const writePage = setting('write-page', '1') === '1';
// ABBA rounds of the paired 1M-against-empty comparison (0 skips it).
const growthRounds = Number(setting('growth-rounds', '2'));
const postgres = new PostgresAdmin(
  setting('postgres-url', 'postgres://postgres@127.0.0.1:5432/postgres'),
  'cv_bench',
);
// A database number of its own, emptied of the service's keys after each scenario.
const redisUrl = setting('redis-url', 'redis://127.0.0.1:6379/13');

const scratch = mkdtempSync(join(tmpdir(), 'cv-bench-'));

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

/** Rebuilds dist/ when a source or migration is newer than it. */
async function buildIfNeeded(): Promise<void> {
  const built = join(root, 'dist/main.js');
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((e) =>
        e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
      ),
    );
  if (
    existsSync(built) &&
    statSync(built).mtimeMs >= Math.max(newest(join(root, 'src')), newest(join(root, 'migrations')))
  )
    return;
  process.stderr.write('building dist/ …\n');
  // tsc emits despite type errors; a half-typed tree still runs, so they are only reported.
  await run('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root }).catch((err: Error) => {
    if (!existsSync(built)) throw err;
    process.stderr.write(`  tsc reported errors (building anyway): ${err.message.slice(0, 300)}\n`);
  });
}

/** Creates the schema through the service's own store, so the bench follows its migrations. */
async function migrate(url: string): Promise<void> {
  const { openStore } = (await import(
    join(root, 'dist/store/factory.js')
  )) as typeof import('../src/store/factory.js');
  const store = await openStore(url);
  await store.migrate();
  await store.close();
}

/** A database for one scenario: empty, or a copy of the table filled once with `rows` requests. */
interface PreparedDatabase {
  url: string;
  readPool: ServiceSetup['readPool'];
  dispose(): Promise<void>;
}

let sqliteTemplate: string | null = null;
let postgresTemplate: string | null = null;

async function prepareDatabase(
  database: string,
  table: string,
  dataDir: string,
  now: number,
): Promise<PreparedDatabase> {
  if (database === 'sqlite') {
    const file = join(dataDir, 'verify.db');
    if (table === '1m') copyFileSync(await filledSqliteTemplate(now), file);
    return { url: `sqlite:${file}`, readPool: sqlitePool(file, now), dispose: async () => undefined };
  }
  const template = table === '1m' ? await filledPostgresTemplate(now) : '';
  // A copy of the filled database is a file copy inside PostgreSQL: far quicker than a fill.
  const db = await postgres.create({ template });
  const url = postgres.url(db);
  return { url, readPool: postgresPool(url, now), dispose: () => postgres.drop(db) };
}

/** Migrates the database at `url` and fills it, saying how long that took. */
async function migrateAndFill(url: string, fill: () => Promise<void> | void): Promise<void> {
  const t0 = Date.now();
  await migrate(url);
  await fill();
  process.stderr.write(`  filled ${rows} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}

async function filledSqliteTemplate(now: number): Promise<string> {
  if (!sqliteTemplate) {
    const file = join(scratch, 'template.db');
    await migrateAndFill(`sqlite:${file}`, () => fillSqlite(file, rows, now));
    sqliteTemplate = file;
  }
  return sqliteTemplate;
}

async function filledPostgresTemplate(now: number): Promise<string> {
  if (!postgresTemplate) {
    const db = await postgres.create({ label: 'template' });
    await migrateAndFill(postgres.url(db), () => fillPostgres(postgres.url(db), rows, now));
    postgresTemplate = db;
  }
  return postgresTemplate;
}

/** One worker on an empty and on a filled database, side by side: see measureGrowth. */
async function measurePairedGrowth(database: string, now: number) {
  const prepared: PreparedDatabase[] = [];
  const dirs: string[] = [];
  try {
    const setups: ServiceSetup[] = [];
    for (const table of ['empty', '1m']) {
      const name = `${database}-growth-${table}`;
      const dataDir = mkdtempSync(join(scratch, `${name}-`));
      dirs.push(dataDir);
      const db = await prepareDatabase(database, table, dataDir, now);
      prepared.push(db);
      setups.push({ name, workers: 1, databaseUrl: db.url, dataDir, readPool: db.readPool });
    }
    const connections = options.connections.includes(50) ? 50 : (options.connections[0] as number);
    return await measureGrowth(
      options,
      database,
      setups[0] as ServiceSetup,
      setups[1] as ServiceSetup,
      growthRounds,
      connections,
    );
  } finally {
    for (const db of prepared) await db.dispose().catch(() => undefined);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** One scenario: the service on a fresh copy of the database, measured at every connection count. */
async function scenario(database: string, table: string, workers: number, now: number) {
  const name = `${database}-${table}-${workers}w`;
  process.stderr.write(`${name}\n`);
  const dataDir = mkdtempSync(join(scratch, `${name}-`));
  let prepared: PreparedDatabase | null = null;
  try {
    prepared = await prepareDatabase(database, table, dataDir, now);
    return await measureService(options, {
      name,
      workers,
      redisUrl: workers > 1 ? redisUrl : undefined,
      databaseUrl: prepared.url,
      dataDir,
      readPool: prepared.readPool,
    });
  } catch (err) {
    return { scenario: name, rows: [], skipped: `failed: ${(err as Error).message}` };
  } finally {
    await prepared?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
    if (workers > 1) await clearRedisKeys(redisUrl).catch(() => undefined);
  }
}

async function main(): Promise<void> {
  mkdirSync(options.resultsDir, { recursive: true });
  await buildIfNeeded();
  const started = new Date();
  process.stderr.write(
    `bench: ${options.durationSeconds} s per measurement, connections ${options.connections.join('/')}\n`,
  );
  const ceilings = new Ceilings(options);
  await ceilings.measure();
  const outcomes: ScenarioOutcome[] = [];
  const growth: GrowthRow[] = [];
  const now = Date.now();
  const pgReason = databases.includes('postgres') ? await postgres.unavailable(root) : null;

  for (const database of databases) {
    if (database === 'postgres' && pgReason) {
      for (const table of tables)
        for (const workers of workerCounts)
          outcomes.push({ scenario: `${database}-${table}-${workers}w`, rows: [], skipped: pgReason });
      continue;
    }
    for (const table of tables) {
      for (const workers of workerCounts) {
        outcomes.push(await ceilings.around(() => scenario(database, table, workers, now)));
      }
    }
    if (growthRounds > 0 && tables.includes('empty') && tables.includes('1m')) {
      process.stderr.write(`${database}: 1M rows against empty, paired (${growthRounds} ABBA rounds)\n`);
      try {
        // Two services compared with each other: no ratio to the ceiling, so none is measured.
        const measured = await measurePairedGrowth(database, now);
        growth.push(...measured.rows);
        outcomes.push(...measured.outcomes);
      } catch (err) {
        outcomes.push({
          scenario: `${database}-growth`,
          rows: [],
          skipped: `failed: ${(err as Error).message}`,
        });
      }
    }
  }

  const all: Row[] = [...ceilings.withDrift(), ...outcomes.flatMap((o) => o.rows)];
  const skipped = outcomes.filter((o) => o.skipped).map((o) => ({ scenario: o.scenario, reason: o.skipped }));
  const logs = outcomes
    .filter((o) => o.logLines !== undefined)
    .map(({ scenario, logLines, logErrors, codesInLog }) => ({ scenario, logLines, logErrors, codesInLog }));
  const table = tableLines(all, skipped, logs);
  const paired = growthLines(growth);
  process.stdout.write(`${[...table, ...paired].join('\n')}\n`);
  if (writePage) {
    writeResultsPage(join(root, 'docs/benchmark.md'), {
      startedAt: started,
      options,
      // No table was filled when the run measured empty tables only.
      rows: tables.includes('1m') ? rows : 0,
      table,
      paired,
    });
    process.stderr.write('docs/benchmark.md: results section replaced\n');
  }
  const file = join(options.resultsDir, `${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ startedAt: started.toISOString(), options: { ...options, root: undefined, rows }, rows: all, growth, skipped, logs }, null, 2)}\n`,
  );
  process.stderr.write(`results: ${file}\n`);
}

main()
  .catch((err) => {
    process.stderr.write(
      `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  })
  .finally(() => cleanup());
