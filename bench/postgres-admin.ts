import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/**
 * The bench's databases on a shared PostgreSQL server: each name starts with a prefix of its own
 * per run, so that the run drops exactly what it created (also after a failure or Ctrl-C) and
 * never another run's databases.
 */
export class PostgresAdmin {
  readonly prefix: string;
  private count = 0;

  /** `adminUrl`: a connection allowed to create databases; `tag`: the start of every name. */
  constructor(
    readonly adminUrl: string,
    tag: string,
  ) {
    this.prefix = `${tag}_${randomBytes(4).toString('hex')}_`;
  }

  /** Runs `work` on a fresh admin connection. */
  async with<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: this.adminUrl, connectionTimeoutMillis: 2000 });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  /** The URL of database `name` on the same server, with the admin's credentials. */
  url(name: string): string {
    return this.adminUrl.replace(/\/[^/]*$/, `/${name}`);
  }

  /**
   * Creates a database named after `label` (empty, or a copy of `template`) and returns its name.
   * `fileCopy` copies the template's files between two checkpoints (PostgreSQL 15's default
   * writes a copy through the WAL, which the server then flushes while the next step is measured).
   */
  async create({ label = '', template = '', fileCopy = false } = {}): Promise<string> {
    const part = label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .slice(0, 24);
    const name = `${this.prefix}${part ? `${part}_` : ''}${++this.count}`;
    await this.with(async (c) => {
      const strategy =
        fileCopy &&
        template &&
        Number((await c.query('SHOW server_version_num')).rows[0]?.server_version_num) >= 150000
          ? ' STRATEGY = FILE_COPY'
          : '';
      await c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}${strategy}` : ''}`);
    });
    return name;
  }

  async drop(name: string): Promise<void> {
    await this.with((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }

  /** Drops every database of this run, including one whose creation was under way. */
  async dropAll(): Promise<void> {
    await this.with(async (c) => {
      const { rows } = await c.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
        [this.prefix],
      );
      for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    });
  }

  /**
   * The server's settings that move the figures, as one line for the page: a server left with
   * autovacuum off (as the shared one on the bench machine is) never re-analyses or vacuums the
   * tables a run churns, which a production server does.
   */
  async settings(): Promise<string> {
    const names = ['server_version', 'autovacuum', 'shared_buffers', 'synchronous_commit', 'jit'];
    return this.with(async (c) => {
      const { rows } = await c.query<{ name: string; value: string }>(
        `SELECT name, current_setting(name) AS value FROM unnest($1::text[]) AS name`,
        [names],
      );
      return rows.map((r) => `${r.name} ${r.value.split(' ')[0]}`).join(', ');
    });
  }

  /**
   * The server's main process when it runs on this machine (its backends are its children), so
   * that the CPU it spends per request can be measured beside the service's; null otherwise.
   */
  async serverPid(): Promise<number | null> {
    // Read while the connection is open: its backend ends with it.
    return this.with(async (c) => {
      const backend = Number((await c.query('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
      try {
        const stat = readFileSync(`/proc/${backend}/stat`, 'utf8');
        if (!stat.includes('(postgres)')) return null;
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      } catch {
        return null;
      }
    });
  }

  /** Why the build at `root` cannot be measured on PostgreSQL, or null when it can. */
  async unavailable(root: string): Promise<string | null> {
    const store = join(root, 'dist/store/postgres');
    if (!existsSync(store) || readdirSync(store).length === 0) return 'no PostgreSQL store in this build';
    try {
      await this.with((c) => c.query('SELECT 1'));
      return null;
    } catch (err) {
      return `PostgreSQL not reachable at ${this.adminUrl}: ${(err as Error).message}`;
    }
  }
}
