import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  copyInto,
  dockerignore,
  execForm,
  parseCopy,
  parseEnv,
  readDockerfile,
  runCommands,
  type Stage,
} from './support/dockerfile.js';
import { runToExit } from './support/process.js';

/**
 * The image cannot be built here (no container engine), so this test replays the Dockerfile:
 * each stage gets a scratch directory standing for its `/`, every COPY copies what it names (from
 * the build context through .dockerignore, or from an earlier stage), every RUN that builds the
 * app runs for real with the stage's ENV and WORKDIR, and the system commands (apt-get, chown)
 * are checked instead of run. Then the final stage's CMD starts with its ENV and must answer
 * /health, and its HEALTHCHECK must pass. An instruction or command it does not know fails it.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MINUTE = 60_000;

interface Replayed {
  stage: Stage;
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string;
  cmd: string[] | null;
  healthcheck: string[] | null;
  expose: string[];
  volumes: string[];
  skipped: string[];
  ran: { command: string; seconds: number }[];
  owners: Map<string, string>;
}

const scratch = mkdtempSync(join(tmpdir(), 'cv-image-'));
const stages = readDockerfile(ROOT);
const ignored = dockerignore(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));
const replayed: Replayed[] = [];

/** An absolute path of the stage's filesystem, in its scratch directory. */
const inStage = (r: Replayed, path: string) =>
  join(r.root, path.startsWith('/') ? path : join(r.workdir, path));

/**
 * Where better-sqlite3's install script (prebuild-install) finds its prebuilt binary. A Docker
 * build downloads one from the project's releases; this machine cannot reach them, so the binary
 * this checkout's `npm ci` compiled is packed as that download. Should its version or Node.js ABI
 * not be the one npm ci installs, prebuild-install finds no file and the install compiles from
 * source (minutes on a loaded machine, still correct).
 */
function localPrebuilds(): string {
  const dir = join(scratch, 'prebuilds');
  mkdirSync(dir, { recursive: true });
  const module = join(ROOT, 'node_modules/better-sqlite3');
  const binary = 'build/Release/better_sqlite3.node';
  if (!existsSync(join(module, binary))) return dir;
  const { version } = JSON.parse(readFileSync(join(module, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(dir, name), '-C', module, binary]);
  return dir;
}
const prebuilds = localPrebuilds();

// The environment of a RUN: the stage's ENV over a bare PATH and HOME (no NODE_ENV=test, no CI).
// npm reads the packages from this machine's cache first; the commands themselves are unchanged.
function runEnv(r: Replayed): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    // Read by prebuild-install itself (npm warns that it does not know it).
    npm_config_better_sqlite3_local_prebuilds: prebuilds,
    ...r.env,
  };
}

async function run(r: Replayed, command: string): Promise<void> {
  const apt = /^apt-get (update|install .+)$/.exec(command);
  if (apt || command === 'rm -rf /var/lib/apt/lists/*') {
    r.skipped.push(command);
    return;
  }
  const mkdir = /^mkdir -p (\/\S+)$/.exec(command);
  if (mkdir) {
    mkdirSync(inStage(r, mkdir[1]!), { recursive: true });
    return;
  }
  const chown = /^chown (\S+):\S+ (\/\S+)$/.exec(command);
  if (chown) {
    expect(existsSync(inStage(r, chown[2]!)), `${command}: no ${chown[2]}`).toBe(true);
    r.owners.set(chown[2]!, chown[1]!);
    r.skipped.push(command);
    return;
  }
  if (!/^npm /.test(command)) throw new Error(`RUN ${command}: the replay does not know this command`);
  const started = Date.now();
  const { code, output } = await runToExit('sh', ['-c', command], {
    cwd: inStage(r, r.workdir),
    env: runEnv(r),
  });
  if (code !== 0) throw new Error(`RUN ${command} failed (exit ${code}):\n${output.slice(-4000)}`);
  r.ran.push({ command, seconds: Math.round((Date.now() - started) / 1000) });
}

async function replay(stage: Stage, index: number): Promise<Replayed> {
  const r: Replayed = {
    stage,
    root: join(scratch, `stage-${index}`),
    workdir: '/',
    env: {},
    user: 'root',
    cmd: null,
    healthcheck: null,
    expose: [],
    volumes: [],
    skipped: [],
    ran: [],
    owners: new Map(),
  };
  mkdirSync(r.root, { recursive: true });
  for (const { keyword, args, line } of stage.instructions) {
    switch (keyword) {
      case 'WORKDIR':
        r.workdir = args;
        mkdirSync(inStage(r, args), { recursive: true });
        break;
      case 'ENV':
        Object.assign(r.env, parseEnv(args));
        break;
      case 'COPY': {
        const { from, sources, dest } = parseCopy(args);
        const target = inStage(r, dest) + (dest.endsWith('/') ? '/' : '');
        if (from === null) {
          copyInto(ROOT, sources, target, ignored);
        } else {
          const source = replayed.find((s) => s.stage.name === from);
          if (!source) throw new Error(`Dockerfile line ${line}: no stage ${from} before it`);
          copyInto(source.root, sources, target);
        }
        break;
      }
      case 'RUN':
        for (const command of runCommands(args)) await run(r, command);
        break;
      case 'USER':
        r.user = args;
        break;
      case 'VOLUME':
        r.volumes.push(...execForm(args));
        break;
      case 'EXPOSE':
        r.expose.push(...args.split(/\s+/));
        break;
      case 'HEALTHCHECK': {
        const cmd = /\bCMD\s+(\[.*\])$/.exec(args);
        if (!cmd) throw new Error(`Dockerfile line ${line}: HEALTHCHECK without an exec-form CMD`);
        r.healthcheck = execForm(cmd[1]!);
        break;
      }
      case 'CMD':
        r.cmd = execForm(args);
        break;
      default:
        throw new Error(`Dockerfile line ${line}: the replay does not know ${keyword}`);
    }
  }
  return r;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the Dockerfile, replayed without a container engine', () => {
  const final = () => {
    const r = replayed.at(-1);
    if (replayed.length !== stages.length || !r) throw new Error('the build was not replayed');
    return r;
  };

  it('has a build stage and a final stage, on the Node.js major the replay runs on', () => {
    expect(stages.length).toBe(2);
    expect(stages[0]!.name).toBe('build');
    const major = process.versions.node.split('.')[0];
    for (const stage of stages) expect(stage.image).toMatch(new RegExp(`^node:${major}(\\.|-|$)`));
  });

  it(
    'builds: every COPY and RUN of both stages, in order',
    async () => {
      for (const [index, stage] of stages.entries()) replayed.push(await replay(stage, index));
      const commands = replayed.flatMap((r) => r.ran.map((c) => c.command));
      expect(commands).toEqual(['npm ci', 'npm run build', 'npm prune --omit=dev']);
      console.log(
        `Dockerfile replay: ${replayed.flatMap((r) => r.ran.map((c) => `${c.command} ${c.seconds} s`)).join(', ')}`,
      );
    },
    20 * MINUTE,
  );

  it('checks the commands it does not run: the compilers come before npm ci, /data belongs to USER', () => {
    const build = replayed[0];
    if (!build) throw new Error('the build was not replayed');
    // better-sqlite3 compiles from source when no prebuilt binary matches: it needs these.
    const install = build.skipped.find((c) => c.startsWith('apt-get install'));
    expect(install?.split(/\s+/)).toEqual(expect.arrayContaining(['-y', 'python3', 'make', 'g++']));
    expect(build.skipped).toContain('apt-get update');
    const order = build.stage.instructions.map((i) => i.args);
    expect(order.findIndex((a) => a.includes('apt-get install'))).toBeLessThan(
      order.findIndex((a) => a.startsWith('npm ci')),
    );
    const last = final();
    expect(last.user).not.toBe('root');
    const database = last.env.DATABASE_URL?.replace(/^sqlite:/, '') ?? '';
    const dataDir = database.slice(0, database.lastIndexOf('/'));
    expect(last.owners.get(dataDir)).toBe(last.user);
    expect(last.volumes).toContain(dataDir);
  });

  it('ships the built service with production dependencies only, under NODE_ENV=production', () => {
    const last = final();
    const app = inStage(last, last.workdir);
    expect(last.env.NODE_ENV).toBe('production');
    expect(last.expose).toEqual([last.env.PORT]);
    for (const path of [
      'dist/main.js',
      'dist/cli.js',
      'dist/dashboard/index.html',
      'migrations/sqlite',
      'package.json',
    ]) {
      expect(existsSync(join(app, path)), path).toBe(true);
    }
    expect(existsSync(join(app, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
    for (const devOnly of ['typescript', 'vitest', 'vite', 'tsx']) {
      expect(existsSync(join(app, 'node_modules', devOnly)), devOnly).toBe(false);
    }
    expect(existsSync(join(app, 'src'))).toBe(false);
  });

  it(
    'starts the final CMD with its ENV: /health answers 200 and the HEALTHCHECK passes',
    async () => {
      const last = final();
      const port = String(await freePort());
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH ?? '',
        ...last.env,
        PORT: port,
        // The image's absolute sqlite path, inside this stage's scratch directory.
        DATABASE_URL: `sqlite:${inStage(last, (last.env.DATABASE_URL ?? '').replace(/^sqlite:/, ''))}`,
      };
      const [command, ...args] = last.cmd ?? [];
      if (!command) throw new Error('the final stage has no CMD');
      const child: ChildProcess = spawn(command, args, {
        cwd: inStage(last, last.workdir),
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr?.on('data', (chunk) => {
        output += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        const [check, ...checkArgs] = last.healthcheck ?? [];
        if (!check) throw new Error('the final stage has no HEALTHCHECK');
        // The HEALTHCHECK itself tells when the service is up, as it tells Docker.
        const deadline = Date.now() + 2 * MINUTE;
        let healthy = false;
        while (!healthy) {
          if (child.exitCode !== null) throw new Error(`the service exited:\n${output}`);
          if (Date.now() > deadline) throw new Error(`the HEALTHCHECK never passed:\n${output}`);
          healthy = (await runToExit(check, checkArgs, { cwd: inStage(last, last.workdir), env })).code === 0;
          if (!healthy) await new Promise((resolve) => setTimeout(resolve, 250));
        }
        const health = await fetch(`http://127.0.0.1:${port}/health`);
        expect(health.status).toBe(200);
        const body = (await health.json()) as { status: string; version: string };
        expect(['ok', 'degraded']).toContain(body.status);
        expect(body.version).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
        expect(existsSync(env.DATABASE_URL!.replace(/^sqlite:/, ''))).toBe(true);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited, output).toBe(0);
    },
    5 * MINUTE,
  );
});
