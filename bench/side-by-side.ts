/**
 * The hot-path cost of one tree against another, side by side on one machine: each round starts
 * the service of `--base` (e.g. a worktree of main) and of this tree in turn on a fresh SQLite
 * file, loads send-code then verify-code (one wrong code, then the right one, per request) with
 * autocannon, and reports the server's CPU µs per answered request (from /proc).
 *
 *   git archive <commit> | tar -x -C /tmp/base && ln -s $PWD/node_modules /tmp/base/node_modules
 *   node --import tsx bench/side-by-side.ts --base=/tmp/base [--seconds=8 --connections=50 --rounds=2]
 *
 * or any number of trees, measured in turn in each round (e.g. variants with a part switched off):
 *
 *   node --import tsx bench/side-by-side.ts --trees=head=/tmp/head,bare=/tmp/bare
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, treesArg } from './args.js';
import type { LoadJob, LoadResult } from './load.js';
import { freePort, RssSampler, run, start, stop, waitForHttp } from './processes.js';
import { sqlitePool } from './scenario.js';

const HERE = resolve(fileURLToPath(new URL('..', import.meta.url)));
const BASE = resolve(arg('base', '/work/main'));
const SECONDS = Number(arg('seconds', '8'));
const CONNECTIONS = Number(arg('connections', '50'));
const ROUNDS = Number(arg('rounds', '2'));
const ADMIN = randomBytes(32).toString('base64url');

async function load(job: LoadJob): Promise<LoadResult> {
  const out = await run(
    process.execPath,
    ['--import', 'tsx', join(HERE, 'bench/load.ts'), JSON.stringify(job)],
    { cwd: HERE },
    (job.durationSeconds + 60) * 1000,
  );
  return JSON.parse(out.trim().split('\n').at(-1) as string) as LoadResult;
}

async function measure(
  root: string,
): Promise<{ send: number; verify: number; sendRps: number; verifyRps: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'cv-side-'));
  const db = join(dir, 'verify.db');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = start(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${db}`,
      ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'warn',
      KEY_SEND_PER_SECOND: '1000000',
      KEY_VERIFY_PER_SECOND: '1000000',
      SENDS_PER_DESTINATION_PER_HOUR: '1000',
      RESEND_COOLDOWN_SECONDS: '0',
    },
  });
  try {
    await waitForHttp(`${url}/health`, child);
    const res = await fetch(`${url}/v1/admin/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', channels: ['EMAIL'] }),
    });
    const token = ((await res.json()) as { data: { key: string } }).data.key;
    const cpu = new RssSampler(child.pid as number);
    const since = Date.now();
    let before = cpu.cpuMs();
    const send = await load({
      url,
      kind: 'send',
      connections: CONNECTIONS,
      durationSeconds: SECONDS,
      token,
      tag: 'side',
    });
    const sendCpu = cpu.cpuMs() - before;
    const poolFile = join(dir, 'pool.json');
    writeFileSync(poolFile, JSON.stringify(await sqlitePool(db, since)()));
    before = cpu.cpuMs();
    const verify = await load({
      url,
      kind: 'verify',
      connections: CONNECTIONS,
      durationSeconds: SECONDS,
      token,
      tag: 'side',
      poolFile,
      wrongPerRight: 1,
    });
    const verifyCpu = cpu.cpuMs() - before;
    return {
      send: Math.round((sendCpu * 1000) / send.requests),
      verify: Math.round((verifyCpu * 1000) / verify.requests),
      sendRps: Math.round(send.requestsPerSecond),
      verifyRps: Math.round(verify.requestsPerSecond),
    };
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

const TREES = treesArg([
  { name: 'base', root: BASE },
  { name: 'this', root: HERE },
]);
const width = Math.max(...TREES.map((t) => t.name.length));

for (let round = 1; round <= ROUNDS; round++) {
  for (const { name, root } of TREES) {
    const m = await measure(root);
    const line = `round ${round} ${name.padEnd(width)} send ${m.send} µs/req (${m.sendRps} req/s)  verify ${m.verify} µs/req (${m.verifyRps} req/s)`;
    console.log(line);
  }
}
