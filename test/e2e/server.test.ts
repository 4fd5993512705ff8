import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postJson, type RunningServer, startServer } from '../support/process.js';

const ADMIN = 'e2e-admin-token-0123456789abcdefgh';

describe('the service as a process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-e2e-'));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'verify.db')}`,
    ADMIN_TOKEN: ADMIN,
    RESEND_COOLDOWN_SECONDS: '0',
  };
  const issuedCodes: string[] = [];
  const servers: RunningServer[] = [];
  afterAll(() => {
    for (const s of servers) s.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(extra: Record<string, string> = {}) {
    const server = await startServer({ ...env, ...extra });
    servers.push(server);
    return server;
  }

  async function createKey(url: string) {
    const res = await postJson(
      `${url}/v1/admin/api-keys`,
      { name: 'e2e', channels: ['EMAIL', 'SMS', 'WHATSAPP'] },
      ADMIN,
    );
    expect(res.status).toBe(201);
    return res.body.data.key as string;
  }

  async function codeFor(url: string, to: string) {
    const res = await fetch(`${url}/v1/admin/outbox?to=${encodeURIComponent(to)}&limit=1`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    const body = (await res.json()) as { data: Array<{ text: string }> };
    const code = /\b(\d{6})\b/.exec(body.data[0]?.text ?? '')?.[1];
    if (!code) throw new Error(`no code for ${to}`);
    issuedCodes.push(code);
    return code;
  }

  let key = '';
  let pending = { requestId: '', code: '' };

  it('serves /health, sends and verifies over real HTTP', async () => {
    const server = await start();
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    key = await createKey(server.url);
    const sent = await postJson(
      `${server.url}/v1/contact/send-code`,
      { channel: 'EMAIL', email: 'e2e@example.com', purpose: 'signup' },
      key,
    );
    expect(sent.status).toBe(200);
    const code = await codeFor(server.url, 'e2e@example.com');
    const verified = await postJson(
      `${server.url}/v1/contact/verify-code`,
      { requestId: sent.body.data.requestId, otpCode: code },
      key,
    );
    expect(verified.body.data.verified).toBe(true);

    // Parallel guesses over real sockets: still at most 5 evaluated.
    const other = await postJson(
      `${server.url}/v1/contact/send-code`,
      { channel: 'SMS', phone: '+14155550161' },
      key,
    );
    const right = await codeFor(server.url, '+14155550161');
    const guesses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        postJson(
          `${server.url}/v1/contact/verify-code`,
          {
            requestId: other.body.data.requestId,
            otpCode: String((Number(right) + 1 + i) % 1e6).padStart(6, '0'),
          },
          key,
        ),
      ),
    );
    expect(guesses.filter((g) => g.status === 200).length).toBe(5);

    const dual = await postJson(
      `${server.url}/v1/contact/send-code`,
      { channels: ['EMAIL', 'WHATSAPP'], email: 'keep@example.com', phone: '+14155550162' },
      key,
    );
    expect(dual.status).toBe(200);
    pending = { requestId: dual.body.data[1].requestId, code: await codeFor(server.url, 'keep@example.com') };
    await codeFor(server.url, '+14155550162');
  });

  it('keeps a pending code across kill -9 and a restart', async () => {
    const first = servers[0] as RunningServer;
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const server = await start();
    const res = await postJson(`${server.url}/v1/contact/verify-code`, pending, key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ verified: true, channel: 'EMAIL' });
  });

  it('finishes in-flight requests on SIGTERM and closes the database', async () => {
    const server = servers[1] as RunningServer;
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      postJson(
        `${server.url}/v1/contact/send-code`,
        { channel: 'EMAIL', email: `term${i}@example.com` },
        key,
      ).catch(() => null),
    );
    await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGTERM');
    const answers = await Promise.all(inFlight);
    const code = await server.exited;
    expect(code, server.output().slice(-3000)).toBe(0);
    // Every request either completed or was refused before it started; none was cut mid-way.
    for (const a of answers) if (a) expect([200, 503]).toContain(a.status);
    expect(server.output()).toContain('"msg":"stopped"');
    // A clean close checkpoints and removes the write-ahead log.
    expect(existsSync(join(dir, 'verify.db-wal'))).toBe(false);
  });

  it('never writes an issued code to its output', () => {
    expect(issuedCodes.length).toBeGreaterThanOrEqual(4);
    const output = servers.map((s) => s.output()).join('\n');
    expect(output).toContain('"msg":"listening"');
    for (const code of issuedCodes) expect(output).not.toContain(code);
    // Sends are logged with their purpose and a masked destination, never the address itself.
    expect(output).toMatch(/"purpose":"signup".*"msg":"code sent"|"msg":"code sent".*"purpose":"signup"/);
    expect(output).toContain('e**@example.com');
    expect(output).not.toContain('e2e@example.com');
    expect(output).not.toContain('4155550161');
  });
});
