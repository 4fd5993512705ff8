import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The campaign's own PostgreSQL and Redis: started in a scratch directory on their own ports, so
 * that it may crash them without touching the machine's shared servers (other suites use those).
 */

export const PG_BIN = process.env.CHAOS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why the campaign's own PostgreSQL or Redis cannot run here, or null when they can. */
export function peersProblem(): string | null {
  if (!existsSync(join(PG_BIN, 'initdb'))) return `no PostgreSQL server binaries in ${PG_BIN}`;
  if (!onPath('redis-server')) return 'no redis-server on PATH';
  return null;
}

const onPath = (command: string) =>
  (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, command)));

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined)
    throw new Error('running as root, and no postgres user to run PostgreSQL as');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(command: string, args: string[], as: { uid: number; gid: number } | null): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', LANG: 'C' },
      ...(as ?? {}),
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${out.slice(-800)}`)),
    );
  });
}

export class ScratchPostgres {
  private readonly data: string;
  private readonly as = postgresUser();

  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {
    this.data = join(dir, 'data');
  }

  /**
   * initdb in `dir` and start on `port`. `settings` are added to (or replace) the campaign's own
   * (postgresql.conf names and values): the cluster bench runs it durable, as production does.
   */
  static async start(
    dir: string,
    port: number,
    settings: Record<string, string> = {},
  ): Promise<ScratchPostgres> {
    const pg = new ScratchPostgres(dir, port);
    mkdirSync(dir, { recursive: true });
    if (pg.as) chownSync(dir, pg.as.uid, pg.as.gid);
    await run(
      join(PG_BIN, 'initdb'),
      ['-D', pg.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
      pg.as,
    );
    // Durability against a crash of PostgreSQL's processes needs no fsync (the kernel keeps the
    // written pages); the campaign never crashes the machine, and fsync would only slow it.
    const conf: Record<string, string> = {
      port: String(port),
      listen_addresses: "'127.0.0.1'",
      unix_socket_directories: `'${dir}'`,
      fsync: 'off',
      full_page_writes: 'off',
      max_connections: '100',
      shared_buffers: "'64MB'",
      ...settings,
    };
    writeFileSync(
      join(pg.data, 'postgresql.auto.conf'),
      `${Object.entries(conf)
        .map(([name, value]) => `${name} = ${value}`)
        .join('\n')}\n`,
    );
    if (pg.as) chownSync(join(pg.data, 'postgresql.auto.conf'), pg.as.uid, pg.as.gid);
    await pg.up();
    return pg;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** The data directory (pg_ctl -D). */
  get dataDir(): string {
    return this.data;
  }

  /** The postmaster's process id (its backends are its children), while it runs. */
  pid(): number {
    return Number(readFileSync(join(this.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  /** Starts the server and waits until it accepts connections. */
  async up(): Promise<void> {
    await run(
      join(PG_BIN, 'pg_ctl'),
      ['-D', this.data, '-l', join(this.dir, 'log'), '-w', '-t', '60', 'start'],
      this.as,
    );
  }

  /** `immediate` is a crash: every backend is killed, the next start runs crash recovery. */
  async down(mode: 'immediate' | 'fast' = 'immediate'): Promise<void> {
    await run(join(PG_BIN, 'pg_ctl'), ['-D', this.data, '-m', mode, '-w', 'stop'], this.as);
  }

  /** Stops the server if it runs; never throws. */
  async close(): Promise<void> {
    await this.down('immediate').catch(() => {});
  }
}

export class ScratchRedis {
  private child: ChildProcess | null = null;

  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  static async start(dir: string, port: number): Promise<ScratchRedis> {
    mkdirSync(dir, { recursive: true });
    const redis = new ScratchRedis(dir, port);
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async up(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    const deadline = Date.now() + 20_000;
    while (!(await pong(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`redis-server on port ${this.port} did not start`);
      await sleep(50);
    }
  }

  /** kill -9: Redis keeps nothing on disk here, so its counters are gone, as after a crash. */
  async down(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  close(): Promise<void> {
    return this.down();
  }
}

/** True when a Redis server on `port` answers PING. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
