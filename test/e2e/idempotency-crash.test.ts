import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postJson, type RunningServer, startServer } from '../support/process.js';

const ADMIN = 'idem-crash-admin-token-of-32-characters';

/**
 * A send-code with an Idempotency-Key whose process is killed (kill -9) is retried against a new
 * process on the same database: the retry replays the stored answer when there is one, and
 * otherwise runs once, after the dead claim's lease.
 */
describe('Idempotency-Key across a kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-idem-'));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'verify.db')}`,
    ADMIN_TOKEN: ADMIN,
    RESEND_COOLDOWN_SECONDS: '0',
    IDEMPOTENCY_LEASE_SECONDS: '2',
  };
  const servers: RunningServer[] = [];
  // An SMTP server that accepts connections and never answers: a send through it hangs, so the
  // process can be killed while it holds the claim and before any answer exists.
  const sockets: net.Socket[] = [];
  const silent = net.createServer((socket) => sockets.push(socket));
  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    for (const s of sockets) s.destroy();
    silent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(extra: Record<string, string> = {}) {
    const server = await startServer({ ...env, ...extra });
    servers.push(server);
    return server;
  }
  async function kill(server: RunningServer) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  const send = (url: string, apiKey: string, body: unknown, idem: string) =>
    fetch(`${url}/v1/contact/send-code`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${apiKey}`,
        'idempotency-key': idem,
      },
      body: JSON.stringify(body),
    });
  const outbox = async (url: string, to: string) => {
    const res = await fetch(`${url}/v1/admin/outbox?to=${encodeURIComponent(to)}`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    return ((await res.json()) as { data: unknown[] }).data.length;
  };

  it('replays the stored answer when the first process answered before it died', async () => {
    const a = await start();
    const created = await postJson(
      `${a.url}/v1/admin/api-keys`,
      { name: 'idem', channels: ['EMAIL'] },
      ADMIN,
    );
    const apiKey = created.body.data.key as string;
    const body = { channel: 'EMAIL', email: 'crash-answered@example.com' };
    const first = await send(a.url, apiKey, body, 'crash-1');
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    await kill(a);

    const b = await start();
    const retry = await send(b.url, apiKey, body, 'crash-1');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(firstBody);
    expect(await outbox(b.url, body.email)).toBe(1);
    await kill(b);
    // Two processes start from the TypeScript sources: on a loaded machine each takes seconds.
  }, 90_000);

  it('runs the retry once when the first process died before answering', async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const a = await start({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      EMAIL_FROM: 'codes@example.com',
      SMTP_TIMEOUT_MS: '60000',
    });
    const created = await postJson(
      `${a.url}/v1/admin/api-keys`,
      { name: 'idem', channels: ['EMAIL'] },
      ADMIN,
    );
    const apiKey = created.body.data.key as string;
    const body = { channel: 'EMAIL', email: 'crash-running@example.com' };
    const hanging = send(a.url, apiKey, body, 'crash-2').catch((err: Error) => err);
    // The request has claimed the key and is waiting on the silent SMTP server.
    const deadline = Date.now() + 20_000;
    while (sockets.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(sockets.length).toBeGreaterThan(0);
    await kill(a);
    expect(await hanging).toBeInstanceOf(Error);

    // The new process delivers to the outbox. Until the dead claim's lease ends the key is in use.
    const b = await start();
    let retry = await send(b.url, apiKey, body, 'crash-2');
    const until = Date.now() + 20_000;
    while (retry.status === 409 && Date.now() < until) {
      expect(retry.headers.get('retry-after')).toBe('1');
      await new Promise((r) => setTimeout(r, 500));
      retry = await send(b.url, apiKey, body, 'crash-2');
    }
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const replay = await send(b.url, apiKey, body, 'crash-2');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await outbox(b.url, body.email)).toBe(1);
    await kill(b);
    // Two processes start from the TypeScript sources: on a loaded machine each takes seconds.
  }, 90_000);
});
