import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The part of /health the campaign reads. */
export interface HealthBody {
  status?: string;
  services?: { database?: string; rateLimitStore?: string };
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The service as a real process (src/main.ts through tsx: the code of this tree, no build needed)
 * on a fixed port, so that clients reach each new process at the same address after a kill -9.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private readonly log: WriteStream;
  /** The last lines the processes wrote, for a report when something goes wrong. */
  private tail = '';

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts a process; resolves once /health answers 200, with the milliseconds that took. */
  async start(timeoutMs = 60_000): Promise<number> {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        HOST: '127.0.0.1',
        PORT: String(this.port),
        LOG_LEVEL: 'warn',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.log.write(chunk);
      this.tail = (this.tail + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    await this.waitHealthy(timeoutMs, child);
    return performance.now() - started;
  }

  /** kill -9, and waits until the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Polls /health until it answers 200 (the database up, whatever Redis says). */
  async waitHealthy(timeoutMs: number, child = this.child): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child && child.exitCode !== null)
        throw new Error(`the service exited (${child.exitCode}):\n${this.tail}`);
      if ((await this.health())?.status === 200) return;
      if (Date.now() > deadline)
        throw new Error(`the service did not answer /health within ${timeoutMs} ms:\n${this.tail}`);
      await sleep(50);
    }
  }

  /** /health's status and body, or null when nothing answered. */
  async health(): Promise<{ status: number; body: HealthBody } | null> {
    try {
      const res = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(5000) });
      return { status: res.status, body: (await res.json()) as HealthBody };
    } catch {
      return null;
    }
  }

  output(): string {
    return this.tail;
  }

  async close(): Promise<void> {
    await this.kill();
    await new Promise((resolve) => this.log.end(resolve));
  }
}
