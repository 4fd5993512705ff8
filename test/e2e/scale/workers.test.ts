import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimitStore } from '../../../src/limits/redis-store.js';
import { type RunningServer, startServer } from '../../support/process.js';
import { hasRedis, REDIS_URL } from '../../support/services.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** GET on a fresh connection each time, so node:cluster hands requests to different workers. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

const workerPids = (output: string) =>
  [...output.matchAll(/"pid":(\d+)[^\n]*"msg":"worker started"/g)].map((m) => Number(m[1]));

async function until(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(100)) if (ok()) return;
  throw new Error(`timed out waiting for ${what}`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('WORKERS setting', () => {
  it('refuses WORKERS > 1 without REDIS_URL, naming the variables', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        WORKERS: '2',
        DATABASE_URL: 'sqlite::memory:',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('WORKERS=2 needs REDIS_URL');
  });
});

describe.skipIf(!hasRedis)('two workers on one SQLite file and Redis', () => {
  const prefix = `test-${randomUUID()}`;
  const dir = mkdtempSync(join(tmpdir(), 'cv-workers-'));
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({
      WORKERS: '2',
      DATABASE_URL: `sqlite:${join(dir, 'verify.db')}`,
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      ADMIN_TOKEN: 'workers-admin-token-0123456789abcde',
    });
    await until('two workers', () => workerPids(server.output()).length === 2);
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      for (const pid of workerPids(server.output())) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    const cleaner = await RedisRateLimitStore.connect(REDIS_URL, { prefix });
    await cleaner.clear();
    await cleaner.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /health from both workers', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(`${server.url}/health`)));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body)).toMatchObject({
        status: expect.any(String),
        services: { database: 'up', rateLimitStore: 'up' },
      });
    }
  });

  it('serves /metrics summed over every worker', async () => {
    const before = await get(`${server.url}/metrics`);
    expect(before.status).toBe(200);
    const count = (text: string) =>
      [
        ...text.matchAll(
          /^contact_verify_http_request_duration_seconds_count\{[^}]*route="\/health"[^}]*\} (\d+)$/gm,
        ),
      ]
        .map((m) => Number(m[1]))
        .reduce((a, b) => a + b, 0);
    for (let i = 0; i < 10; i++) expect((await get(`${server.url}/health`)).status).toBe(200);
    const after = await get(`${server.url}/metrics`);
    expect(after.status).toBe(200);
    expect(count(after.body) - count(before.body)).toBe(10);
  });

  it('replaces a worker that dies', async () => {
    const [victim] = workerPids(server.output());
    process.kill(victim as number, 'SIGKILL');
    await until('a replacement worker', () => workerPids(server.output()).length === 3);
    expect(server.output()).toContain('worker died; replacing it');
    expect((await get(`${server.url}/health`)).status).toBe(200);
  });

  it('stops every worker gracefully on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('all workers stopped');
    for (const pid of workerPids(server.output())) expect(alive(pid)).toBe(false);
  });
});
