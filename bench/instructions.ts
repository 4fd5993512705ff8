/**
 * Machine instructions per send and per verify, for two or more trees side by side, counted by
 * valgrind's callgrind: a count that does not depend on how busy the machine is, so that a
 * difference of a few per cent between trees can be told from the VM's drift (its CPU time moves
 * by 10-30 % from one minute to the next; the same tree's count here moves by about 1 %).
 *
 *   node --import tsx bench/instructions.ts --trees=before=/tmp/a,after=. \
 *     [--warm-waves=300 --waves=40 --concurrency=50 --channel=EMAIL|SMS --top=0]
 *     [--postgres=postgres://host:port/postgres]   (each tree on a fresh database there; the
 *                                                   server's own work is not counted)
 *     [--keep=DIR]   (keeps each tree's dumps and perf map there, for callgrind_annotate's
 *                     --inclusive=yes or --tree=caller: who calls what the differences name)
 *
 * Each tree runs as bench/service-hotpath.ts runs it (its own composition root on a fresh SQLite
 * file, requests through Fastify's inject in waves, each wave followed by a step of the fold and
 * of the webhook worker), in a process of its own under valgrind, with counting off while the
 * process starts and warms: `--warm-waves` waves of sends, then `--waves` counted; likewise for
 * verifies (a wrong code, then the right one). Two trees run at once: a count does not depend on
 * the other process, but valgrind runs a process's threads one at a time, and with more processes
 * than cores V8's background compiles land later, leaving a tree less optimised in its counted
 * waves (more `work`).
 *
 * A count is split three ways, because two of them depend on timing rather than on the code's
 * work: `compiler` (V8 optimising functions, which still happens long after warm-up and whose
 * share in a window depends on when the background compiles land) and `gc` (the collector, whose
 * schedule depends on heap growth over time) are reported apart from `work`, everything else
 * (the compiled JavaScript, V8's runtime and builtins, SQLite, libc). Compare trees on `work`.
 * Valgrind runs a process about 30 times slower, so what runs on a wall-clock timer counts for
 * more per request than it does natively: with BENCH_QUIET_TIMERS the trees fold only after each
 * wave (FOLD_INTERVAL_MS of an hour), and the remaining timers (a poll a second at most) add
 * about 1 % to `work`.
 *
 * `--top=N` adds the N functions whose instructions per request differ most from the first
 * tree's (JavaScript functions named through V8's --perf-basic-prof map; a function that moved
 * shows up as one line gone and one line new). Prints one JSON line.
 */
import { execFileSync, fork } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, treesArg } from './args.js';
import { type Costs, differ, jsNames, parseAnnotated, perRequest } from './callgrind-costs.js';
// Types only: importing the module itself would run its parent.
import type { Command, Kind } from './service-hotpath.js';

const WARM_WAVES = Number(arg('warm-waves', '300'));
const WAVES = Number(arg('waves', '40'));
const CONCURRENCY = Number(arg('concurrency', '50'));
const TOP = Number(arg('top', '0'));
const KEEP = arg('keep', '');
/** Extra V8 flags for each tree's process (BENCH_NODE_FLAGS, space-separated). */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const HOTPATH = fileURLToPath(new URL('./service-hotpath.ts', import.meta.url));

const out = mkdtempSync(join(tmpdir(), 'cv-instructions-'));
try {
  const trees = treesArg([{ name: 'this', root: process.cwd() }]);
  // Two trees at a time (see the header); every process ends before the files go, even when one fails.
  const settled: Array<PromiseSettledResult<Awaited<ReturnType<typeof countTree>>>> = [];
  for (let i = 0; i < trees.length; i += 2)
    settled.push(...(await Promise.allSettled(trees.slice(i, i + 2).map((t) => countTree(t.name, t.root)))));
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  const counted = settled.map(
    (r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof countTree>>>).value,
  );
  const report = (kind: Kind) => {
    const first = counted[0] as (typeof counted)[number];
    return Object.fromEntries(
      counted.map((c, i) => {
        const mine = perRequest(c[kind], c.requests[kind]);
        const base = perRequest(first[kind], first.requests[kind]);
        return [
          trees[i]?.name,
          {
            ...mine,
            workRatio: Number((mine.work / base.work).toFixed(3)),
            ...(TOP && i > 0
              ? { differ: differ(first[kind], first.requests[kind], c[kind], c.requests[kind], TOP) }
              : {}),
          },
        ];
      }),
    );
  };
  console.log(
    JSON.stringify({
      warmWaves: WARM_WAVES,
      waves: WAVES,
      concurrency: CONCURRENCY,
      send: report('send'),
      verify: report('verify'),
    }),
  );
} finally {
  rmSync(out, { recursive: true, force: true, maxRetries: 5 });
}

/** Runs one tree under callgrind: warm, then count a phase of sends and one of verifies. */
async function countTree(name: string, root: string) {
  const file = join(out, `${name}.out`);
  // The warm-up's sends go to destinations after every counted one (service-hotpath's --requests).
  const requests = `--requests=${(WARM_WAVES + WAVES) * CONCURRENCY}`;
  const child = fork(HOTPATH, [requests, ...process.argv.slice(2), `--tree=${name}=${root}`], {
    execPath: 'valgrind',
    execArgv: [
      '--tool=callgrind',
      // V8 writes and rewrites its code: valgrind must notice, or it runs stale translations.
      '--smc-check=all-non-file',
      '--instr-atstart=no',
      `--callgrind-out-file=${file}`,
      process.execPath,
      ...NODE_FLAGS,
      '--perf-basic-prof',
      '--import',
      'tsx',
    ],
    env: { ...process.env, BENCH_QUIET_TIMERS: '1' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + String(d)).slice(-4000);
  });
  const pid = child.pid as number;
  const ask = (command: Command) =>
    new Promise<number>((resolve, reject) => {
      const failed = () => reject(new Error(`${name}: its process ended\n${stderr}`));
      child.once('exit', failed);
      child.once('message', (m) => {
        child.off('exit', failed);
        resolve((m as { value: number }).value);
      });
      child.send(command);
    });
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, String(pid)], { stdio: 'ignore' });
  const waves = async (kind: Kind, from: number, count: number) => {
    for (let w = 0; w < count; w++)
      await ask({ op: 'wave', kind, from: from + w * CONCURRENCY, count: CONCURRENCY });
  };
  const phase = async (kind: Kind): Promise<Costs> => {
    await waves(kind, 0, WARM_WAVES);
    control('--instr=on');
    await waves(kind, WARM_WAVES * CONCURRENCY, WAVES);
    control(`--dump=${kind}`);
    control('--instr=off');
    const dumps = readdirSync(out).filter((f) => f.startsWith(`${name}.out.`));
    return costsOf(join(out, dumps.sort().at(-1) as string), pid);
  };
  try {
    await new Promise((ready, failed) => {
      child.once('message', ready);
      child.once('exit', () => failed(new Error(`${name}: valgrind did not start\n${stderr}`)));
    });
    await ask({ op: 'warm' });
    const send = await phase('send');
    const pool = await ask({ op: 'pool' });
    if (pool < (WARM_WAVES + WAVES) * CONCURRENCY)
      throw new Error(`${name}: only ${pool} requests to verify`);
    const verify = await phase('verify');
    // The process answers, then exits (valgrind writing its last dump): its exit may be seen
    // before its answer, so here an exit is the end, and the answer, if any came, says how it went.
    let failures = -1;
    child.once('message', (m) => {
      failures = (m as { value: number }).value;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.send({ op: 'close' } satisfies Command);
    const code = await exited;
    // Messages still in the channel arrive before it reports its end.
    if (child.connected) await new Promise((resolve) => child.once('disconnect', resolve));
    if (code !== 0 || failures !== 0)
      throw new Error(`${name}: closed with exit code ${code}, ${failures} requests failed\n${stderr}`);
    return { send, verify, requests: { send: WAVES * CONCURRENCY, verify: 2 * WAVES * CONCURRENCY } };
  } finally {
    if (child.exitCode === null) child.kill();
    if (KEEP) keep(name, pid);
    rmSync(`/tmp/perf-${pid}.map`, { force: true });
  }
}

/** Copies a tree's dumps (`<tree>.out.<n>`, one per phase) and its perf map to --keep's folder. */
function keep(name: string, pid: number) {
  mkdirSync(KEEP, { recursive: true });
  for (const f of readdirSync(out).filter((f) => f.startsWith(`${name}.out`)))
    copyFileSync(join(out, f), join(KEEP, f));
  if (existsSync(`/tmp/perf-${pid}.map`))
    copyFileSync(`/tmp/perf-${pid}.map`, join(KEEP, `${name}.perf.map`));
}

/** Self instructions per function of a dump, JavaScript functions named by the process's perf map. */
function costsOf(dump: string, pid: number): Costs {
  const text = execFileSync('callgrind_annotate', ['--threshold=100', dump], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return parseAnnotated(text, jsNames(readFileSync(`/tmp/perf-${pid}.map`, 'utf8')));
}
