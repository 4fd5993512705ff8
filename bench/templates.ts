import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Tree } from './args.js';
import { fillPostgres, fillSqlite } from './fill.js';
import type { PostgresAdmin } from './postgres-admin.js';
import { type BenchOptions, postgresPool, type ServiceSetup, sqlitePool, startService } from './scenario.js';

/**
 * Databases as each tree's own service makes them: a template per tree, database and table,
 * prepared once (the tree's service started on an empty database, so that its own migrations
 * run; for `1m` then filled and settled), and a fresh copy of it for every measurement.
 */
export interface Copy {
  url: string;
  dataDir: string;
  readPool: ServiceSetup['readPool'];
  dispose(): Promise<void>;
}

export class Templates {
  /** Template per `tree/database/table`: a file for SQLite, a database name for PostgreSQL. */
  private readonly made = new Map<string, string>();

  constructor(
    private readonly options: BenchOptions,
    private readonly scratch: string,
    private readonly postgres: PostgresAdmin,
    private readonly rows: number,
  ) {}

  /** Prepares the template of `tree` for `database` and `table` (the empty one first if needed). */
  async prepare(tree: Tree, database: string, table: string, now: number): Promise<void> {
    const key = `${tree.name}/${database}/${table}`;
    if (this.made.has(key)) return;
    const t0 = Date.now();
    if (table === 'empty') {
      this.made.set(
        key,
        database === 'sqlite' ? await this.emptySqlite(tree) : await this.emptyPostgres(tree),
      );
    } else {
      await this.prepare(tree, database, 'empty', now);
      const empty = this.made.get(`${tree.name}/${database}/empty`) as string;
      this.made.set(
        key,
        database === 'sqlite'
          ? await this.filledSqlite(tree, empty, now)
          : await this.filledPostgres(tree, empty, now),
      );
    }
    process.stderr.write(`  template ${key}: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }

  /** A fresh copy of a prepared template, for one measurement. */
  async copy(tree: Tree, database: string, table: string, since: number): Promise<Copy> {
    const template = this.made.get(`${tree.name}/${database}/${table}`);
    if (!template) throw new Error(`no template for ${tree.name}/${database}/${table}`);
    const dataDir = mkdtempSync(join(this.scratch, `${tree.name}-${database}-${table}-`));
    const removeDir = async () => rmSync(dataDir, { recursive: true, force: true });
    if (database === 'sqlite') {
      const file = join(dataDir, 'verify.db');
      copyFileSync(template, file);
      return { url: `sqlite:${file}`, dataDir, readPool: sqlitePool(file, since), dispose: removeDir };
    }
    const db = await this.postgres.create({ label: `${tree.name}_${table}`, template, fileCopy: true });
    const url = this.postgres.url(db);
    return {
      url,
      dataDir,
      readPool: postgresPool(url, since),
      dispose: async () => {
        await removeDir();
        await this.postgres.drop(db);
      },
    };
  }

  /** Drops the templates of `database` (their disk is not needed once its rounds are done). */
  async dispose(database: string): Promise<void> {
    for (const [key, template] of this.made) {
      if (!key.split('/').includes(database)) continue;
      this.made.delete(key);
      if (database === 'sqlite') rmSync(template, { force: true });
      else await this.postgres.drop(template);
    }
  }

  private async emptySqlite(tree: Tree): Promise<string> {
    const dir = this.dirOf(tree, 'sqlite');
    const file = join(dir, 'empty.db');
    await (await this.startTree(tree, `sqlite:${file}`, dir)).stop();
    checkpoint(file);
    return file;
  }

  private async emptyPostgres(tree: Tree): Promise<string> {
    const db = await this.postgres.create({ label: `${tree.name}_empty_tpl` });
    await (await this.startTree(tree, this.postgres.url(db), this.dirOf(tree, 'postgres'))).stop();
    return db;
  }

  private async filledSqlite(tree: Tree, empty: string, now: number): Promise<string> {
    const file = empty.replace(/empty\.db$/, 'filled.db');
    copyFileSync(empty, file);
    const t0 = Date.now();
    fillSqlite(file, this.rows, now);
    elapsed(`${tree.name}: filled`, t0);
    await this.settle(tree, `sqlite:${file}`, () => sqliteBacklog(file));
    checkpoint(file);
    return file;
  }

  private async filledPostgres(tree: Tree, empty: string, now: number): Promise<string> {
    const db = await this.postgres.create({ label: `${tree.name}_1m_tpl`, template: empty, fileCopy: true });
    const url = this.postgres.url(db);
    const t0 = Date.now();
    await fillPostgres(url, this.rows, now);
    elapsed(`${tree.name}: filled`, t0);
    await this.settle(tree, url, () => postgresBacklog(url));
    // The settled journal's rows were rewritten: vacuum them before any copy is measured.
    await withClient(url, (c) => c.query('VACUUM (ANALYZE)'));
    return db;
  }

  private dirOf(tree: Tree, database: string): string {
    const dir = join(this.scratch, 'templates', `${tree.name}-${database}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** The tree's service on a template, without an API key: for its migrations or its worker. */
  private async startTree(tree: Tree, databaseUrl: string, dataDir: string, env?: Record<string, string>) {
    const service = await startService(
      { ...this.options, cpuProf: false },
      {
        name: `${tree.name} template`,
        root: tree.root,
        workers: 1,
        databaseUrl,
        dataDir,
        env,
        readPool: async () => [],
      },
      { apiKey: false },
    );
    return service as NonNullable<typeof service>;
  }

  /**
   * A filled table's journal (in trees that keep one) is what years of traffic would have left
   * folded and published long ago; fresh from the fill it is a backlog the service's worker
   * would fold during the measurements. So the tree's own service runs on the template, its worker
   * polling often, until no journal row waits.
   */
  private async settle(
    tree: Tree,
    databaseUrl: string,
    backlog: () => Promise<number | null>,
  ): Promise<void> {
    const t0 = Date.now();
    let left = await backlog();
    if (left === null || left === 0) return;
    const dir = this.dirOf(tree, databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres');
    const service = await this.startTree(tree, databaseUrl, dir, { WEBHOOK_POLL_INTERVAL_MS: '10' });
    try {
      let lastProgress = Date.now();
      while (left > 0) {
        await new Promise((r) => setTimeout(r, 2000));
        const now = (await backlog()) ?? 0;
        if (now < left) lastProgress = Date.now();
        else if (Date.now() - lastProgress > 60_000) {
          process.stderr.write(
            `  ${tree.name}: ${now} journal rows still wait after a minute without progress\n`,
          );
          break;
        }
        left = now;
        process.stderr.write(`  ${tree.name}: ${left} journal rows to fold\r`);
      }
    } finally {
      await service.stop();
    }
    elapsed(`${tree.name}: journal folded and published`, t0);
  }
}

const elapsed = (what: string, since: number) =>
  process.stderr.write(`  ${what} in ${((Date.now() - since) / 1000).toFixed(1)} s\n`);

/** Moves a file's write-ahead log into it, so that a copy of the file alone is whole. */
function checkpoint(file: string): void {
  const db = new BetterSqlite3(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) rmSync(file + suffix);
}

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Journal rows the worker has not folded or published yet; null in a tree without a journal. The
 * schema is read, not assumed: cursors (analytics_fold, webhook_fanout) or a `published` column.
 */
async function sqliteBacklog(file: string): Promise<number | null> {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const has = (table: string) =>
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
    if (!has('events')) return null;
    const cursors = ['analytics_fold', 'webhook_fanout'].filter(has);
    if (cursors.length > 0) {
      const behind = cursors.map(
        (t) =>
          db
            .prepare(`SELECT count(*) FROM events WHERE seq > (SELECT last_seq FROM ${t})`)
            .pluck()
            .get() as number,
      );
      return Math.max(...behind);
    }
    const columns = db.prepare("SELECT name FROM pragma_table_info('events')").pluck().all() as string[];
    return columns.includes('published')
      ? (db.prepare('SELECT count(*) FROM events WHERE published = 0').pluck().get() as number)
      : null;
  } finally {
    db.close();
  }
}

async function postgresBacklog(url: string): Promise<number | null> {
  return withClient(url, async (c) => {
    const columns = (
      await c.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'events'",
      )
    ).rows.map((r) => r.column_name);
    if (!columns.includes('published')) return null;
    const where = columns.includes('folded') ? 'NOT published OR NOT folded' : 'NOT published';
    return Number((await c.query(`SELECT count(*) AS n FROM events WHERE ${where}`)).rows[0]?.n ?? 0);
  });
}
