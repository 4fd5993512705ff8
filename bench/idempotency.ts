import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort, killAll, start, stop, waitForHttp } from './processes.js';

/**
 * What an Idempotency-Key costs send-code: the service (SQLite, one process, outbox delivery) is
 * loaded with send-code with and without a fresh key per request, in alternating rounds, and the
 * server's CPU time per answered request is read from /proc (user + system). CPU per request is
 * steadier than throughput on a shared machine.
 *   node --import tsx bench/idempotency.ts [--duration=8] [--rounds=2] [--connections=10]
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const duration = arg('duration', 8);
const rounds = arg('rounds', 2);
const connections = arg('connections', 10);
const ADMIN = 'bench-admin-token-of-32-characters-at-least';
const TICKS_PER_SECOND = 100;

/** utime + stime of a process, in µs. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After "pid (comm) ", utime and stime are fields 12 and 13 (0-based from the state field).
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
}

const dir = mkdtempSync(join(tmpdir(), 'cv-bench-idem-'));
process.on('exit', () => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});
const port = await freePort();
const server = start(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: root,
  stdio: 'ignore',
  env: {
    PATH: process.env.PATH ?? '',
    PORT: String(port),
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: 'warn',
    KEY_SEND_PER_SECOND: '1000000',
    RESEND_COOLDOWN_SECONDS: '0',
  },
});
const url = `http://127.0.0.1:${port}`;
await waitForHttp(`${url}/health`, server);
const created = await fetch(`${url}/v1/admin/api-keys`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
  body: JSON.stringify({ name: 'bench', channels: ['EMAIL'] }),
});
const apiKey = ((await created.json()) as { data: { key: string } }).data.key;

let counter = 0;
async function load(withKey: boolean, seconds: number) {
  const tag = randomUUID().slice(0, 8);
  const before = cpuMicros(server.pid as number);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    requests: [
      {
        method: 'POST',
        path: '/v1/contact/send-code',
        setupRequest: (req) => {
          const n = counter++;
          return {
            ...req,
            headers: { ...req.headers, ...(withKey ? { 'idempotency-key': `bench-${tag}-${n}` } : {}) },
            body: JSON.stringify({ channel: 'EMAIL', email: `${n}-${tag}@example.com` }),
          };
        },
      },
    ],
  });
  const cpu = cpuMicros(server.pid as number) - before;
  const ok = result.requests.total - result.non2xx;
  return {
    ok,
    non2xx: result.non2xx,
    rps: ok / result.duration,
    cpuPerRequest: cpu / Math.max(1, ok),
    p99: result.latency.p99,
  };
}

await load(false, 3);
await load(true, 3);
const rows: Array<{ header: string; round: number } & Awaited<ReturnType<typeof load>>> = [];
for (let round = 1; round <= rounds; round++) {
  for (const withKey of [false, true])
    rows.push({ header: withKey ? 'Idempotency-Key' : 'none', round, ...(await load(withKey, duration)) });
}
console.log('| header | round | answered 2xx | non-2xx | req/s | server CPU µs/request | p99 ms |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.header} | ${r.round} | ${r.ok} | ${r.non2xx} | ${r.rps.toFixed(0)} | ${r.cpuPerRequest.toFixed(0)} | ${r.p99} |`,
  );
}
await stop(server);
