import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/ops.js';
import { postJson, type RunningServer, runToExit, startServer } from './support/process.js';

/** The examples of examples/, each run against a started service as an integrator would. */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ADMIN = 'examples-admin-token-0123456789abcdef';
const EXAMPLES = join(ROOT, 'examples');

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });

describe('the settings of the examples', () => {
  const read = sources(EXAMPLES).map((file) => ({
    file: relative(ROOT, file),
    text: readFileSync(file, 'utf8'),
    vars: [...readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z_]+)/g)].map((m) => m[1] as string),
  }));

  it('are each in the table of examples/README.md, CV_BASE_URL and PORT among them', () => {
    const readme = readFileSync(join(EXAMPLES, 'README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    const used = [...new Set(read.flatMap((r) => r.vars))].sort();
    expect(used).toEqual(expect.arrayContaining(['CV_API_KEY', 'CV_BASE_URL', 'PORT']));
    expect([...documented].sort()).toEqual(used);
  });

  it("are named in the opening comment of each file that reads them, or of each entry point's", () => {
    const missing: string[] = [];
    for (const { file, text, vars } of read) {
      const opening = /^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? '';
      // Each runnable file reaches the service through otp.ts, so it names where that is.
      const needs = new Set([...vars, ...(/from '[./]+otp\.js'/.test(text) ? ['CV_BASE_URL'] : [])]);
      for (const name of needs) if (!opening.includes(name)) missing.push(`${file}: ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('labels the Next.js example a fragment and says what it needs', () => {
    const readme = readFileSync(join(EXAMPLES, 'nextjs/README.md'), 'utf8');
    expect(readme).toMatch(/fragment/i);
    for (const need of ['app/api/otp/start/route.ts', 'CV_BASE_URL', 'CV_API_KEY', 'clients/typescript'])
      expect(readme).toContain(need);
  });
});

describe('examples', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-examples-'));
  let server: RunningServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'verify.db')}`, ADMIN_TOKEN: ADMIN });
    const key = await postJson(
      `${server.url}/v1/admin/api-keys`,
      { name: 'examples', channels: ['EMAIL'] },
      ADMIN,
    );
    env = { CV_BASE_URL: server.url, CV_API_KEY: key.body.data.key, CV_ADMIN_TOKEN: ADMIN };
    // The route examples read their client's settings when first imported.
    Object.assign(process.env, env);
  }, 60_000);
  afterAll(() => {
    server?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('the plain script sends, verifies, and handles a refused resend', async () => {
    const { code, output } = await runToExit(
      process.execPath,
      ['--import', 'tsx', 'examples/send-and-verify.ts', 'script@example.com'],
      { cwd: ROOT, env: { ...process.env, ...env } },
    );
    expect(code, output).toBe(0);
    expect(output).toContain('a wrong code: verified=false, 4 attempts left');
    expect(output).toContain('the right code: verified=true on EMAIL');
    expect(output).toMatch(/a resend right away: Too many codes requested\. Try again in \d+ s\./);
  }, 60_000);

  it('the Express routes start and check a code, and turn errors into user-facing answers', async () => {
    const { otpApp } = await import('../examples/express/app.js');
    const { codeFromOutbox } = await import('../examples/otp.js');
    const listening = otpApp().listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    try {
      const started = await postJson(`${base}/otp/start`, { email: 'express@example.com' });
      expect(started.status).toBe(200);
      const checked = await postJson(`${base}/otp/check`, {
        requestId: started.body.requestId,
        code: await codeFromOutbox('express@example.com'),
      });
      expect(checked.body).toEqual({ verified: true, attemptsRemaining: 4 });
      const again = await postJson(`${base}/otp/start`, { email: 'express@example.com' });
      expect(again.status).toBe(429);
      expect(again.body.message).toMatch(/^Too many codes requested/);
      const invalid = await postJson(`${base}/otp/start`, { email: 'not-an-address' });
      expect(invalid.status).toBe(400);
    } finally {
      listening.close();
    }
  }, 60_000);

  it('the Express server listens on PORT and reaches the service at CV_BASE_URL', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/express/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes(`http://127.0.0.1:${port}`)) resolve();
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', () => reject(new Error(`the example exited:\n${output}`)));
      });
      const started = await postJson(`http://127.0.0.1:${port}/otp/start`, { email: 'port@example.com' });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect(started.body.to).toBe('p***@example.com');
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);

  it('the Next.js route handlers run out of attempts into TOO_MANY_ATTEMPTS', async () => {
    const start = await import('../examples/nextjs/app/api/otp/start/route.js');
    const check = await import('../examples/nextjs/app/api/otp/check/route.js');
    const post = (handler: (r: Request) => Promise<Response>, body: unknown) =>
      handler(new Request('http://app.test/api', { method: 'POST', body: JSON.stringify(body) }));
    const started = (await (await post(start.POST, { email: 'next@example.com' })).json()) as {
      requestId: string;
    };
    expect(started.requestId).toBeTruthy();
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      answers.push((await post(check.POST, { requestId: started.requestId, code: '000000' })).status);
    }
    // Five wrong codes are answered; the sixth is TOO_MANY_ATTEMPTS, shown as a 429 to the user.
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    const last = await post(check.POST, { requestId: started.requestId, code: '000000' });
    expect(((await last.json()) as { message: string }).message).toBe(
      'Too many wrong codes. Ask for a new code.',
    );
  }, 60_000);
});
