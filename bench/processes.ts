import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Every process the bench started and has not stopped yet; killed on any exit. */
const running = new Set<ChildProcess>();

/** Starts a process in its own process group, so that it and its workers stop together. */
export function start(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * SIGTERM to the process (a cluster primary passes it on to its workers), SIGKILL to the whole
 * group after `graceMs`; resolves once the process has exited.
 */
export async function stop(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  // Cluster workers may outlive a primary that was killed.
  signalGroup(child, 'SIGKILL');
}

/** Synchronous last resort for exit paths: kills every group still running. */
export function killAll(): void {
  for (const child of running) signalGroup(child, 'SIGKILL');
  running.clear();
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Polls `url` until it answers 2xx, or fails when `child` exits or `timeoutMs` passes. */
export async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the process exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Runs a process to its end; resolves with its stdout, rejects with its stderr on failure. Past
 * `timeoutMs` its group is killed, so a hung step cannot hold the bench up.
 */
export async function run(
  command: string,
  args: string[],
  options: SpawnOptions = {},
  timeoutMs = 300_000,
): Promise<string> {
  const child = start(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), timeoutMs);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${command} ${args[0] ?? ''} failed (${code}): ${err.trim().slice(-500)}`);
  return out;
}

/** The process and every descendant (cluster workers). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces; the fields after its closing parenthesis do not.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i] as number) ?? []));
  return tree;
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** USER_HZ: Linux reports CPU times in 1/100 s on every architecture Node.js runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process and its descendants have used so far, in ms. */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime: fields 14 and 15 of stat, 12 and 13 after the command name.
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended while we looked.
    }
  }
  return ticks * (1000 / CLOCK_TICKS_PER_SECOND);
}

/**
 * Peak resident memory of a process tree: the kernel's high-water mark (VmHWM) of each process,
 * summed, sampled often enough to catch workers that exit. The sum is an upper bound when the
 * processes peak at different moments.
 */
export class RssSampler {
  private readonly peaks = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 250);
    this.timer.unref();
  }

  sample(): void {
    for (const pid of processTree(this.pid)) {
      this.peaks.set(pid, Math.max(this.peaks.get(pid) ?? 0, statusKb(pid, 'VmHWM')));
    }
  }

  /** Peak so far, in MiB. */
  peakMb(): number {
    this.sample();
    let kb = 0;
    for (const v of this.peaks.values()) kb += v;
    return Math.round(kb / 102.4) / 10;
  }

  /**
   * CPU time (user + system) the tree has used so far, in ms. A request's CPU cost is steadier
   * than its throughput on a shared machine: it does not count the time spent waiting for a core.
   */
  cpuMs(): number {
    return treeCpuMs(this.pid);
  }

  /** Processes in the tree right now. */
  count(): number {
    return processTree(this.pid).length;
  }

  close(): void {
    clearInterval(this.timer);
  }
}
