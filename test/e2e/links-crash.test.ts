import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSmtp, startFakeSmtp } from '../delivery/support/fake-smtp.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { postJson, type RunningServer, startServer } from '../support/process.js';
import { hasPostgres } from '../support/services.js';

const ADMIN = 'links-crash-admin-token-of-32-characters';
const BASE = 'https://verify.example.test';

/**
 * A process killed (kill -9) while a link's POST is under way, at moments spread from before the
 * request reaches the store to after its answer: after a restart on the same database, each
 * request is verified at most once (the analytics count each verification once), a link that was
 * used answers 410, its code then answers `verified: false`, and a link the crash left unused still
 * works exactly once, on both stores.
 */
function crashSuite(name: string, databaseUrl: () => Promise<string>, cleanup: () => Promise<void>) {
  describe(`A kill -9 while a link is used (${name})`, () => {
    let smtp: FakeSmtp;
    let env: Record<string, string>;
    const servers: RunningServer[] = [];
    beforeAll(async () => {
      smtp = await startFakeSmtp();
      env = {
        DATABASE_URL: await databaseUrl(),
        ADMIN_TOKEN: ADMIN,
        CODE_SECRET: 'links-crash-code-secret',
        SMTP_URL: smtp.url,
        EMAIL_FROM: 'codes@acme.test',
        PUBLIC_BASE_URL: BASE,
        RESEND_COOLDOWN_SECONDS: '0',
      };
    });
    afterAll(async () => {
      for (const s of servers) s.child.kill('SIGKILL');
      await smtp.close();
      await cleanup();
    });
    const start = async () => {
      const server = await startServer(env);
      servers.push(server);
      return server;
    };

    it('never verifies a request twice, and never leaves a code usable after its link', async () => {
      let server = await start();
      const key = (
        await postJson(`${server.url}/v1/admin/api-keys`, { name: 'crash', channels: ['EMAIL'] }, ADMIN)
      ).body.data.key as string;
      const delays = [0, 1, 2, 3, 5, 8, 13, 21];
      let verified = 0;
      /** Per round: the POST's answer as the client saw it (null: cut by the kill), and the link's state after. */
      const outcomes: string[] = [];
      const from = new Date(Date.now() - 3_600_000).toISOString();
      for (const [round, delay] of delays.entries()) {
        const email = `crash-${round}@example.com`;
        const sent = await postJson(
          `${server.url}/v1/contact/send-code`,
          { channel: 'EMAIL', email, link: {} },
          key,
        );
        expect(sent.status).toBe(200);
        const requestId = sent.body.data.requestId as string;
        const mail = [...smtp.mails].reverse().find((m) => m.envelopeTo.includes(email));
        const text = mail?.mail.text ?? '';
        const token = /\/v1\/links\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
        const code = /\b(\d{6})\b/.exec(text)?.[1];
        expect(token && code).toBeTruthy();

        // The POST, and the kill `delay` ms after it left: its answer may or may not arrive.
        const use = fetch(`${server.url}/v1/links/${token}`, { method: 'POST' }).then(
          (r) => r.status,
          () => null,
        );
        await new Promise((r) => setTimeout(r, delay));
        server.child.kill('SIGKILL');
        await server.exited;
        const answered = await use;
        server = await start();

        // Whatever the crash cut, the link now says whether it was used, and the code agrees.
        const page = await fetch(`${server.url}/v1/links/${token}`);
        if (answered === 200) expect(page.status).toBe(410);
        expect([200, 410]).toContain(page.status);
        outcomes.push(
          `${delay} ms: answer ${answered ?? 'lost'}, link ${page.status === 410 ? 'used' : 'unused'}`,
        );
        const check = await postJson(`${server.url}/v1/contact/verify-code`, { requestId, code }, key);
        if (page.status === 410) {
          expect(check.body.data, `round ${round}`).toMatchObject({ verified: false, status: 'verified' });
        } else {
          // Not used before the crash: the code verifies once, and the link is then gone.
          expect(check.body.data, `round ${round}`).toMatchObject({ verified: true });
          expect((await fetch(`${server.url}/v1/links/${token}`, { method: 'POST' })).status).toBe(410);
        }
        verified++;
        const again = await fetch(`${server.url}/v1/links/${token}`, { method: 'POST' });
        expect(again.status).toBe(410);
      }
      // What the kills cut, for the reader of the run (the timing varies with the machine's load).
      console.info(`links kill -9 (${name}): ${outcomes.join('; ')}`);
      // Each request counted verified exactly once, whichever way and however often it was tried.
      const res = await fetch(
        `${server.url}/v1/admin/analytics?from=${encodeURIComponent(from)}&interval=day&groupBy=method`,
        { headers: { authorization: `Bearer ${ADMIN}` } },
      );
      const buckets = (
        (await res.json()) as { data: { buckets: Array<{ group: string; sent: number; verified: number }> } }
      ).data.buckets;
      const link = buckets.filter((b) => b.group === 'link');
      expect(link.reduce((a, b) => a + b.sent, 0)).toBe(delays.length);
      expect(link.reduce((a, b) => a + b.verified, 0)).toBe(verified);
    }, 180_000);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cv-links-crash-'));
crashSuite(
  'SQLite',
  async () => `sqlite:${join(dir, 'verify.db')}`,
  async () => rmSync(dir, { recursive: true, force: true }),
);

let db: TestDatabase | undefined;
if (hasPostgres)
  crashSuite(
    'PostgreSQL',
    async () => {
      db = await createTestDatabase();
      return db.url;
    },
    async () => db?.drop(),
  );
