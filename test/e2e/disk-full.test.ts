import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { SmallDisk } from '../../scripts/chaos/disk.js';
import { postJson, type RunningServer, startServer } from '../support/process.js';
import { recordSkip } from '../support/skips.js';

const ADMIN = 'disk-full-admin-token-of-32-characters';

const health = async (url: string) => {
  const res = await fetch(`${url}/health`);
  return {
    status: res.status,
    body: (await res.json()) as { status: string; services: Record<string, string> },
  };
};

// A real full filesystem: a small tmpfs of the test's own, which needs root (CAP_SYS_ADMIN).
const dir = mkdtempSync(join(tmpdir(), 'cv-disk-full-'));
const disk = SmallDisk.mount(join(dir, 'data'), 16);
if (typeof disk === 'string') recordSkip(`a full disk needs a small tmpfs: ${disk}`);

/**
 * SQLite's disk fills up under a running service: sends are refused with 503 UNAVAILABLE and
 * Retry-After (a state that passes, as an unreachable database), never 500 INTERNAL; nothing
 * acknowledged is lost, and sends succeed again as soon as space is freed, without a restart;
 * /health says degraded meanwhile, and healthy again by itself.
 */
describe.runIf(typeof disk !== 'string')('SQLite with a full disk', () => {
  const small = disk as SmallDisk;
  let server: RunningServer | undefined;
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    small.unmount();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 while the disk is full and 200 once space is freed, losing no acknowledged send', async () => {
    server = await startServer({
      DATABASE_URL: `sqlite:${join(small.dir, 'verify.db')}`,
      ADMIN_TOKEN: ADMIN,
      RESEND_COOLDOWN_SECONDS: '0',
      KEY_SEND_PER_SECOND: '100000',
    });
    const url = server.url;
    const key = (await postJson(`${url}/v1/admin/api-keys`, { name: 'disk', channels: ['EMAIL'] }, ADMIN))
      .body.data.key as string;
    const acked: Array<{ requestId: string; email: string }> = [];
    let n = 0;
    const send = async () => {
      const email = `full-${n++}@example.com`;
      const res = await postJson(`${url}/v1/contact/send-code`, { channel: 'EMAIL', email }, key);
      if (res.status === 200) acked.push({ requestId: res.body.data.requestId, email });
      return res;
    };
    expect((await send()).status).toBe(200);

    small.fill();
    // Pages the WAL already holds take a few more commits; then every write is refused.
    const refused: Array<Awaited<ReturnType<typeof send>>> = [];
    for (let batch = 0; batch < 300 && refused.length < 10; batch++) {
      for (const res of await Promise.all(Array.from({ length: 10 }, send)))
        if (res.status !== 200) refused.push(res);
    }
    expect(refused.length).toBeGreaterThanOrEqual(10);
    for (const res of refused) {
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('UNAVAILABLE');
      expect(res.headers.get('retry-after')).toBe('1');
    }

    // Reads still work; the embedded limits cannot keep their counters in the full file.
    // The limits' store says down once one of its writes failed, and up again after one that
    // succeeded: in a batch of parallel sends on a full disk either may come last. One send at a
    // time until a failed write is the last one (the disk is still full).
    let full = await health(url);
    for (let i = 0; i < 50 && full.body.status !== 'degraded'; i++) {
      await send();
      full = await health(url);
    }
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({
      status: 'degraded',
      services: { database: 'up', rateLimitStore: 'down' },
    });

    small.release();
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await send()).status;
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
    // The counters are written again: /health says so by itself, with no restart.
    await send();
    expect((await health(url)).body.services).toEqual({ database: 'up', rateLimitStore: 'up' });

    // Every acknowledged send, before, during and after, is stored and verifies.
    for (const { requestId, email } of acked) {
      const outbox = await fetch(`${url}/v1/admin/outbox?to=${encodeURIComponent(email)}`, {
        headers: { authorization: `Bearer ${ADMIN}` },
      });
      const [message] = ((await outbox.json()) as { data: Array<{ text: string }> }).data;
      const otpCode = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1];
      const res = await postJson(`${url}/v1/contact/verify-code`, { requestId, otpCode }, key);
      expect(res.body.data?.verified, `verify ${email}`).toBe(true);
    }
  }, 120_000);
});
