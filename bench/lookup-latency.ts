/**
 * `npm run bench:lookup`: what carrier lookups cost a send (issue 41, "Speed").
 *
 * 1. **Cold latency.** A fake Twilio Lookup v2 API (its own process, on loopback) answers every
 *    lookup after `--provider-ms` (100). The service (its own process, the build as production
 *    runs it: `NODE_ENV=production node dist/main.js`) takes SMS sends of a live key whose
 *    account has `lookup: "sms_voice"` from `--connections` (50) autocannon connections for
 *    `--seconds` (10), each to a number never sent to (a cold cache), after `--warmup` (3) seconds
 *    of the same load unmeasured: "cold" is the cache, not the process (the first lookups open
 *    their connections and run code not yet compiled, as the first seconds of every bench here
 *    are left out). Prints a send's latency (p50 to p99 and the longest), and the same with lookups
 *    off for comparison, each with the service's CPU per send over the phase: with lookups off the
 *    phase runs as fast as the service goes, with them on at the pace the provider's delay allows
 *    (a send costs the service more CPU at that lower rate on this kind of machine: measure both
 *    in one run rather than compare them with another day's). Then the same load on a floor
 *    (`--floor`, default 1): a bare node:http server (its own process) that asks the same fake for
 *    each send's number on pooled connections and answers a small JSON, nothing else. Its latency
 *    is what the machine, the fake and the load generator add to the provider's delay with next to
 *    no service in between; the difference of the two p99s (`serviceAddsP99Ms`) is the service's
 *    own share. The lookups-on phase and the floor's are run `--cold-rounds` (3) times, each after
 *    its warm-up, on numbers never sent to: a phase's p99 is its slowest 50 or so sends, and moved
 *    by 10-20 ms between runs with nothing changed. Target: the median of the rounds' p99s under
 *    `--provider-ms` + 30 ms (130 ms); each round's is printed.
 * 2. **Warm CPU.** Up to `--block` (3,000) of those numbers sent again, in `--blocks` (8) pairs of
 *    blocks, each block by a new account that never sent to them (so no limit refuses them): one
 *    with lookups on (every lookup answered from the process's cache), one with lookups off,
 *    taking turns (on then off, then off then on, …), after one such pair left unmeasured (the cold
 *    phase's leftovers, and each side's code run for the first time). The service process's CPU per send in each (the time its threads ran, in nanoseconds:
 *    /proc/<pid>/task/<tid>/schedstat; utime's 10 ms ticks would make a block's figure move by
 *    several per cent); prints the ratio on / off over all blocks and the median of the blocks'
 *    pairs (one GC or purge landing in one block moves the first, not the second). Target: at
 *    most 1.10.
 *
 * Options: `--service-args="--cpu-prof --cpu-prof-dir=DIR"` passes Node options to the service's
 * process (a CPU profile of the run, written when it stops); `--postgres=postgres://…/postgres`
 * runs the service on a fresh database of that server (dropped after) instead of a fresh SQLite
 * file; `--redis=redis://…` gives the service REDIS_URL (the lookup cache and the limits in Redis,
 * under a prefix of its own, deleted at the end).
 *
 * The figures mean something only on a quiet machine: on a shared one, run it briefly
 * (`--seconds=2 --blocks=2 --block=300`) to check that it works, and read nothing into them.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import { arg } from './args.js';
import { PostgresAdmin } from './postgres-admin.js';
import { freePort, killAll, start, stop, waitForHttp } from './processes.js';
import { clearRedisKeys } from './redis-keys.js';

const ROLE = arg('role', 'drive');
const PROVIDER_MS = Number(arg('provider-ms', '100'));
const CONNECTIONS = Number(arg('connections', '50'));
const SECONDS = Number(arg('seconds', '10'));
/** Cold phases with lookups on (each followed by the floor's), for the median of their p99s. */
const COLD_ROUNDS = Math.max(1, Number(arg('cold-rounds', '3')));
const WARMUP = Number(arg('warmup', '3'));
const BLOCKS = Number(arg('blocks', '8'));
const BLOCK = Number(arg('block', '3000'));
const POSTGRES = arg('postgres', '');
const REDIS = arg('redis', '');
/** 0 leaves out the floor: the same cold load on a bare server that only asks the fake. */
const FLOOR = arg('floor', '1') !== '0';
/** Node's options for the service process, space-separated (`--service-args="--cpu-prof"`). */
const SERVICE_ARGS = arg('service-args', '').split(' ').filter(Boolean);

const root = fileURLToPath(new URL('..', import.meta.url));
const ADMIN = `bench-admin-${randomBytes(16).toString('hex')}`;

/**
 * Twilio Lookup v2's documented answer (Line Type Intelligence of a mobile), after PROVIDER_MS:
 * in a process of its own, so that its timers are not held up by the service or the load.
 */
async function serveFakeTwilio(): Promise<void> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const number = decodeURIComponent((req.url ?? '').split('?')[0]?.split('/').at(-1) ?? '');
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            calling_country_code: '44',
            country_code: 'GB',
            phone_number: number,
            national_format: null,
            valid: true,
            validation_errors: null,
            caller_name: null,
            sim_swap: null,
            call_forwarding: null,
            line_type_intelligence: {
              error_code: null,
              mobile_country_code: '234',
              mobile_network_code: '15',
              carrier_name: 'Vodafone UK',
              type: 'mobile',
            },
            identity_match: null,
            url: `https://lookups.twilio.com/v2/PhoneNumbers/${number}`,
          }),
        );
      }, PROVIDER_MS);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  // Gone with the driver, however it ends.
  process.once('disconnect', () => process.exit(0));
}

/**
 * The floor of the cold phase: per send, the body read and parsed, the fake asked for the number
 * (as the service's Twilio lookup asks it, on pooled keep-alive connections) and a small JSON
 * answered. No validation, no database, no limits: what a send cannot take less than here.
 */
async function serveFloor(fakePort: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxFreeSockets: 256 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { phone } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { phone: string };
      const path = `/v2/PhoneNumbers/${encodeURIComponent(phone)}?Fields=line_type_intelligence`;
      httpGet({ host: '127.0.0.1', port: fakePort, path, agent }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          const facts = JSON.parse(Buffer.concat(body).toString('utf8')) as { country_code: string };
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ data: { status: 'pending', country: facts.country_code } }));
        });
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  process.once('disconnect', () => process.exit(0));
}

/** The time every thread of a process has run on a CPU, in µs (schedstat: nanoseconds). */
function cpuMicros(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return ns / 1000;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** A GB mobile number of +447400…, the n-th of a scattered sequence (valid for libphonenumber). */
const numberOf = (n: number) => `+447400${String((n * 7919) % 1_000_000).padStart(6, '0')}`;

async function drive(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cv-bench-lookup-'));
  const admin = POSTGRES ? new PostgresAdmin(POSTGRES, 'cv_bench_lookup') : null;
  const database = admin ? admin.url(await admin.create()) : `sqlite:${join(dir, 'verify.db')}`;
  process.on('exit', () => {
    killAll();
    rmSync(dir, { recursive: true, force: true });
  });

  const fake = fork(fileURLToPath(import.meta.url), ['--role=fake', `--provider-ms=${PROVIDER_MS}`], {
    execArgv: ['--import', 'tsx'],
    stdio: 'ignore',
  });
  const fakePort = await new Promise<number>((resolve) =>
    fake.once('message', (m: { port: number }) => resolve(m.port)),
  );

  const port = await freePort();
  const prefix = `cv-bench-lookup-${randomBytes(4).toString('hex')}`;
  const server = start(process.execPath, [...SERVICE_ARGS, join(root, 'dist/main.js')], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_TOKEN: ADMIN,
      DATABASE_URL: database,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      LIVE_OUTBOX: 'allow',
      KEY_SEND_PER_SECOND: '1000000',
      COUNTRY_SENDS_PER_HOUR: '100000000',
      LOOKUP_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      TWILIO_AUTH_TOKEN: 'bench-token',
      TWILIO_LOOKUP_BASE_URL: `http://127.0.0.1:${fakePort}`,
      ...(REDIS ? { REDIS_URL: REDIS, REDIS_KEY_PREFIX: prefix } : {}),
    },
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/health`, server, 60_000);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: Record<string, string> }).data;
    };
    /** A live SMS key of a new account with `settings` (no breaker, no refusal on risk). */
    const keyWith = async (lookup: 'off' | 'sms_voice') => {
      const account = await call('POST', '/v1/admin/accounts', { name: `bench ${lookup}` });
      await call('PATCH', `/v1/admin/accounts/${account.id}/settings`, {
        lookup,
        pumpingMinSends: 1_000_000,
      });
      return (
        await call('POST', '/v1/admin/api-keys', { name: 'bench', channels: ['SMS'], accountId: account.id })
      ).key as string;
    };

    let next = 0;
    /** autocannon sending SMS with `key` to numbers from `numbers()`, until `amount` or `seconds`. */
    const load = (
      key: string,
      numbers: () => string,
      limit: { amount?: number; seconds?: number },
      url = base,
    ) =>
      autocannon({
        url,
        connections: CONNECTIONS,
        duration: limit.seconds ?? 3600,
        amount: limit.amount,
        timeout: 30,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        requests: [
          {
            method: 'POST',
            path: '/v1/contact/send-code',
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ channel: 'SMS', phone: numbers() }) }),
          },
        ],
      });
    const summary = (r: Result) => ({
      sends: r.requests.total,
      perSecond: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      // autocannon reports these too; its typings name only some.
      p90Ms: (r.latency as unknown as Record<string, number>).p90,
      p97_5Ms: (r.latency as unknown as Record<string, number>).p97_5,
      p99Ms: r.latency.p99,
      maxMs: r.latency.max,
      non2xx: r.non2xx,
      errors: r.errors,
    });

    // 1. Cold: every number new to the cache.
    const coldOn = await keyWith('sms_voice');
    const coldOff = await keyWith('off');
    /** A cold phase's summary with the service's CPU per send over it. */
    const coldPhase = async (key: string) => {
      const before = cpuMicros(server.pid as number);
      const r = await load(key, () => numberOf(next++), { seconds: SECONDS });
      const micros = cpuMicros(server.pid as number) - before;
      return { ...summary(r), cpuMicrosPerSend: Math.round(micros / Math.max(1, r.requests.total)) };
    };
    /** The cold load on the floor (serveFloor), in a process of its own, stopped after. */
    const floorPhase = async () => {
      const proxy = fork(fileURLToPath(import.meta.url), ['--role=floor', `--fake-port=${fakePort}`], {
        execArgv: ['--import', 'tsx'],
        stdio: 'ignore',
      });
      try {
        const port = await new Promise<number>((resolve) =>
          proxy.once('message', (m: { port: number }) => resolve(m.port)),
        );
        let n = 0;
        const numbers = () => numberOf(500_000 + n++);
        const url = `http://127.0.0.1:${port}`;
        if (WARMUP > 0) await load('floor', numbers, { seconds: WARMUP }, url);
        return summary(await load('floor', numbers, { seconds: SECONDS }, url));
      } finally {
        proxy.kill('SIGTERM');
      }
    };
    const off = await coldPhase(coldOff);
    // Round after round: one phase's p99 is 50 or so sends of 5,000, and moved by 10-20 ms from one
    // run to the next on this kind of machine with nothing changed; the median of the rounds'
    // decides, each round's are printed.
    const rounds: Array<{
      lookupsOn: Awaited<ReturnType<typeof coldPhase>>;
      floor: ReturnType<typeof summary> | null;
    }> = [];
    let coldStart = next;
    for (let round = 0; round < COLD_ROUNDS; round++) {
      if (WARMUP > 0) await load(coldOn, () => numberOf(next++), { seconds: WARMUP });
      coldStart = next;
      const lookupsOn = await coldPhase(coldOn);
      rounds.push({ lookupsOn, floor: FLOOR ? await floorPhase() : null });
    }
    // The warm phase below sends again numbers of the last round.
    const coldNumbers = next - coldStart;
    const p99s = rounds.map((r) => r.lookupsOn.p99Ms);
    const floorP99s = rounds.flatMap((r) => (r.floor ? [r.floor.p99Ms] : []));
    const medianP99Ms = median(p99s);

    // 2. Warm: numbers the cold phase looked up, each block sent by two new accounts that never
    // sent to them (so no limit refuses them, and every block can send the same numbers).
    // autocannon makes a request per connection that the end of the phase leaves unsent: those
    // numbers are left out.
    const perBlock = Math.min(BLOCK, coldNumbers - 2 * CONNECTIONS);
    if (perBlock < CONNECTIONS)
      throw new Error(`too few numbers were looked up (${coldNumbers}): raise --seconds`);
    const warmStart = next - 2 * CONNECTIONS - perBlock;
    /** The service's lookups so far, by outcome (its /metrics). */
    const lookupsByOutcome = async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const counts: Record<string, number> = {};
      for (const m of text.matchAll(/^contact_verify_number_lookups_total\{outcome="(\w+)"\} (\d+)/gm))
        counts[m[1] as string] = Number(m[2]);
      return counts;
    };
    let lookupsBefore: Record<string, number> = {};
    const cpu = { on: 0, off: 0, sends: 0 };
    const pairRatios: number[] = [];
    const pid = server.pid as number;
    // One pair first, unmeasured: it takes the cold phase's leftovers (the fold of its sends, the
    // cache's writes) and runs each side's code for the first time (the warm lookup's path is
    // compiled here), which the first measured block otherwise paid alone (1.3–1.8 times the
    // other side's CPU, where the later pairs are within a few per cent).
    for (let b = -1; b < BLOCKS; b++) {
      if (b === 0) lookupsBefore = await lookupsByOutcome();
      // Each block's sends leave work (the fold, the cache's writes) that lands in the next block:
      // the sides take turns going first, so neither always pays for the other.
      const sides = [
        ['on', await keyWith('sms_voice')],
        ['off', await keyWith('off')],
      ] as const;
      const block = { on: 0, off: 0 };
      for (const [side, key] of b % 2 === 0 ? sides : [...sides].reverse()) {
        let i = warmStart;
        const before = cpuMicros(pid);
        const r = await load(key, () => numberOf(i++), { amount: perBlock });
        block[side] = cpuMicros(pid) - before;
        if (r.non2xx > 0) throw new Error(`warm ${side}: ${r.non2xx} answers were not 2xx`);
      }
      if (b < 0) continue;
      cpu.on += block.on;
      cpu.off += block.off;
      pairRatios.push(block.on / block.off);
      cpu.sends += perBlock;
    }
    const lookupsAfter = await lookupsByOutcome();
    const warmLookups = Object.fromEntries(
      Object.entries(lookupsAfter).map(([k, v]) => [k, v - (lookupsBefore[k] ?? 0)]),
    );
    const onMicros = cpu.on / cpu.sends;
    const offMicros = cpu.off / cpu.sends;
    process.stdout.write(
      `${JSON.stringify(
        {
          store: POSTGRES ? 'postgres' : 'sqlite',
          redis: Boolean(REDIS),
          providerMs: PROVIDER_MS,
          connections: CONNECTIONS,
          cold: {
            lookupsOff: off,
            rounds: rounds.map((r) => ({
              lookupsOn: r.lookupsOn,
              ...(r.floor ? { floor: r.floor, serviceAddsP99Ms: r.lookupsOn.p99Ms - r.floor.p99Ms } : {}),
            })),
            p99Ms: p99s,
            medianP99Ms,
            ...(floorP99s.length > 0
              ? {
                  floorP99Ms: floorP99s,
                  medianServiceAddsP99Ms: median(
                    rounds.map((r) => r.lookupsOn.p99Ms - (r.floor?.p99Ms ?? 0)),
                  ),
                }
              : {}),
            target: `median p99 < ${PROVIDER_MS + 30} ms`,
            met: medianP99Ms < PROVIDER_MS + 30,
          },
          warm: {
            sendsPerSide: cpu.sends,
            cpuMicrosPerSendOn: Math.round(onMicros),
            cpuMicrosPerSendOff: Math.round(offMicros),
            ratio: Math.round((onMicros / offMicros) * 1000) / 1000,
            medianOfBlocks: Math.round(median(pairRatios) * 1000) / 1000,
            blockRatios: pairRatios.map((r) => Math.round(r * 1000) / 1000),
            lookups: warmLookups,
            target: 'ratio <= 1.10',
          },
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await stop(server);
    fake.kill('SIGTERM');
    await admin?.dropAll();
    // The lookups' cache keys live for days: gone with the run, as the database is.
    if (REDIS) await clearRedisKeys(REDIS, prefix);
  }
}

// Last: every declaration above is initialised before either role runs.
if (ROLE === 'fake') await serveFakeTwilio();
else if (ROLE === 'floor') await serveFloor(Number(arg('fake-port', '0')));
else await drive();
