import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { postJson, type RunningServer, startServer } from '../support/process.js';
import { hasPostgres } from '../support/services.js';

const ADMIN = 'e2e-admin-token-0123456789abcdefgh';

/** One HTTP/1.1 connection written byte-exactly, its answers read back as they come. */
class RawConnection {
  private received = '';
  private waiters: Array<() => void> = [];
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.received += chunk;
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port) }, () =>
        resolve(new RawConnection(socket)),
      );
      socket.once('error', reject);
    });
  }

  write(text: string): void {
    this.socket.write(text);
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Waits until what the server sent so far matches `pattern`. */
  async until(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.received)) {
      if (Date.now() > deadline) throw new Error(`no ${pattern} in ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return this.received;
  }

  /** The complete answers received so far: status, headers (lower case) and body. */
  answers(): Array<{ status: number; headers: Record<string, string>; body: string }> {
    const out: Array<{ status: number; headers: Record<string, string>; body: string }> = [];
    let rest = this.received;
    for (;;) {
      const end = rest.indexOf('\r\n\r\n');
      if (end < 0) return out;
      const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const status = Number(statusLine?.split(' ')[1]);
      const length = Number(headers['content-length'] ?? 0);
      if (status === 100) {
        rest = rest.slice(end + 4);
        continue;
      }
      if (rest.length < end + 4 + length) return out;
      out.push({ status, headers, body: rest.slice(end + 4, end + 4 + length) });
      rest = rest.slice(end + 4 + length);
    }
  }
}

function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ host: 'localhost', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

/** Resolves once a new connection to `url` is refused: the server stopped listening. */
async function untilRefused(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const refused = await RawConnection.open(url).then(
      (c) => {
        c.destroy();
        return false;
      },
      () => true,
    );
    if (refused) return;
    if (Date.now() > deadline) throw new Error('the server kept accepting connections');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const STORES = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
] as const;

// Under SIGTERM the service finishes what it started, and every request that arrives meanwhile
// on a connection it still holds is refused in the contract's shape: 503 UNAVAILABLE with
// Retry-After (not Fastify's own {"error":"Service Unavailable",…} body).
for (const store of STORES) {
  describe.runIf(!store.postgres || hasPostgres)(`shutting down under SIGTERM (${store.name})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cv-shutdown-'));
    let db: TestDatabase | undefined;
    let server: RunningServer | undefined;
    afterAll(async () => {
      server?.child.kill('SIGKILL');
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('finishes requests in flight and answers new ones 503 UNAVAILABLE with Retry-After', async () => {
      db = store.postgres ? await createTestDatabase() : undefined;
      server = await startServer({
        DATABASE_URL: db?.url ?? `sqlite:${join(dir, 'verify.db')}`,
        ADMIN_TOKEN: ADMIN,
        RESEND_COOLDOWN_SECONDS: '0',
      });
      const created = await postJson(
        `${server.url}/v1/admin/api-keys`,
        { name: 'shutdown', channels: ['EMAIL'] },
        ADMIN,
      );
      expect(created.status).toBe(201);
      const key = created.body.data.key as string;

      // In flight: three sends whose headers were read (the 100 Continue says so) and whose
      // bodies are still on their way when the signal comes.
      const sends = await Promise.all(
        [0, 1, 2].map(async (i) => {
          const body = JSON.stringify({ channel: 'EMAIL', email: `shutdown${i}@example.com` });
          const connection = await RawConnection.open(server!.url);
          connection.write(
            requestHead('POST', '/v1/contact/send-code', {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              expect: '100-continue',
            }),
          );
          await connection.until(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
          return { connection, body };
        }),
      );

      // A connection that has sent nothing yet (a client about to send, a balancer's TCP probe):
      // Node counts it as busy until its headers timeout, which held the close past the forced
      // exit (exit code 1 after 10 s).
      const silent = await RawConnection.open(server.url);
      // A round trip after it: the server has accepted the silent connection by then.
      expect((await fetch(`${server.url}/health`)).status).toBe(200);

      server.child.kill('SIGTERM');
      await untilRefused(server.url);

      // New requests arrive on the connections the service still holds: a send and a health
      // check pipelined behind each unfinished send.
      for (const [i, { connection, body }] of sends.entries()) {
        const next =
          i === 0
            ? requestHead('GET', '/health', {})
            : `${requestHead('POST', '/v1/contact/send-code', {
                authorization: `Bearer ${key}`,
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(body),
              })}${body}`;
        connection.write(body + next);
      }
      for (const { connection } of sends) await connection.closed;
      await silent.closed;
      expect(silent.answers()).toEqual([]);

      expect(await server.exited, server.output().slice(-3000)).toBe(0);
      for (const { connection } of sends) {
        const [finished, refused, ...more] = connection.answers();
        expect(more).toEqual([]);
        // The request in flight completed.
        expect(finished?.status, finished?.body).toBe(200);
        expect(JSON.parse(finished!.body).data.status).toBe('pending');
        // The request that arrived meanwhile: the contract's shape, a wait, and no keep-alive.
        expect(refused?.status, `${refused?.body}\n${server.output().slice(-3000)}`).toBe(503);
        expect(JSON.parse(refused!.body)).toEqual({
          error: { code: 'UNAVAILABLE', message: expect.stringMatching(/shutting down/) },
        });
        expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused?.headers['cache-control']).toBe('no-store');
        expect(refused?.headers.connection).toBe('close');
      }
      expect(server.output()).toContain('"msg":"stopped"');
    }, 60_000);
  });
}
