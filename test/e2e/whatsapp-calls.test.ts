import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RedisRateLimitStore } from '../../src/limits/redis-store.js';
import { permissionReply } from '../delivery/providers/whatsapp/support/webhooks.js';
import {
  type FakeCalling,
  type FakeCallingOptions,
  startFakeCalling,
} from '../delivery/support/fake-whatsapp-calling.js';
import { metaSignature } from '../delivery/support/signing.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { postJson, type RunningServer, startServer } from '../support/process.js';
import { hasPostgres, hasRedis, REDIS_URL } from '../support/services.js';

const ADMIN = 'whatsapp-calls-admin-token-0123456789';
const APP_SECRET = 'app-secret';

const whatsappEnv = (fake: FakeCalling): Record<string, string> => ({
  ADMIN_TOKEN: ADMIN,
  WHATSAPP_TOKEN: 'EAAGtoken',
  WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
  WHATSAPP_TEMPLATE: 'verify_code',
  WHATSAPP_APP_SECRET: APP_SECRET,
  WHATSAPP_BASE_URL: fake.url,
  WEBRTC_ANNOUNCED_ADDRESSES: '127.0.0.1',
  CODE_LENGTH: '4',
});

/** Posts a webhook body signed as Meta signs it to one instance. */
async function signedWebhook(server: RunningServer, body: unknown): Promise<number> {
  const raw = JSON.stringify(body);
  const res = await fetch(`${server.url}/v1/callbacks/whatsapp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(APP_SECRET, raw) },
    body: raw,
  });
  return res.status;
}

async function until<T>(
  what: string,
  check: () => T | null | undefined | false,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * WhatsApp calls across processes: a request waiting for the user's permission survives a kill -9
 * (the accept taken by the next process still places the call, and the code it speaks verifies),
 * and with two instances the call's webhooks may reach the instance that does not hold its media.
 */
describe('WhatsApp calls across processes', () => {
  const servers: RunningServer[] = [];
  let fake: FakeCalling | null = null;
  const fakeOptions: FakeCallingOptions = { appSecret: APP_SECRET, webhookUrl: 'http://127.0.0.1:9/unset' };
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      if (s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGTERM');
        await s.exited;
      }
    }
    await fake?.close();
    fake = null;
  });

  async function keyOn(server: RunningServer): Promise<string> {
    const created = await postJson(
      `${server.url}/v1/admin/api-keys`,
      { name: 'calls', channels: ['WHATSAPP'] },
      ADMIN,
    );
    expect(created.status).toBe(201);
    return created.body.data.key as string;
  }

  it('a kill -9 while the request waits for permission: after the restart the accept still places the call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cv-wacall-'));
    try {
      fake = await startFakeCalling(fakeOptions);
      fake.addUser('14155550130', { onPermissionRequest: 'ignore', language: 'en' });
      const env = { ...whatsappEnv(fake), DATABASE_URL: `sqlite:${join(dir, 'verify.db')}` };
      const a = await startServer(env);
      servers.push(a);
      const key = await keyOn(a);
      const sent = await postJson(
        `${a.url}/v1/contact/send-code`,
        { channel: 'WHATSAPP', phone: '+14155550130', deliveryType: 'CALL', locale: 'en' },
        key,
      );
      expect(sent.status).toBe(200);
      const requestId = sent.body.data.requestId as string;
      const asked = await until('the permission request', () =>
        fake?.received.find((r) => r.path.endsWith('/messages')),
      );
      // Committed before the Graph API answered; a moment for the job's move to awaiting_permission.
      await new Promise((r) => setTimeout(r, 500));
      a.child.kill('SIGKILL');
      await a.exited;

      const b = await startServer(env);
      servers.push(b);
      fakeOptions.webhookUrl = `${b.url}/v1/callbacks/whatsapp`;
      const user = fake.users.get('14155550130');
      if (user) user.permission = { kind: 'temporary', expiresAt: Date.now() + 86_400_000 };
      expect(asked.body).toMatchObject({ type: 'interactive' });
      // The reply quotes no request id here (an automatic reply): the waiting job is found by the user.
      expect(await signedWebhook(b, permissionReply('14155550130', 'accept'))).toBe(200);
      const call = await until('the call', () => [...(fake?.calls.values() ?? [])].at(-1));
      const heard = await until('the call to end', () => call.state === 'ended' && call, 60_000);
      const digits = (await heard.heard)?.digits ?? '';
      expect(digits).toHaveLength(8);
      const verified = await postJson(
        `${b.url}/v1/contact/verify-code`,
        { requestId, code: digits.slice(0, 4) },
        key,
      );
      expect(verified.body.data).toMatchObject({ verified: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  describe.skipIf(!hasPostgres || !hasRedis)('two instances on PostgreSQL and Redis', () => {
    let db: TestDatabase | null = null;
    const prefix = `test-${randomUUID()}`;
    afterAll(async () => {
      const cleaner = await RedisRateLimitStore.connect(REDIS_URL, { prefix });
      await cleaner.clear();
      await cleaner.close();
      await db?.drop();
    });

    it('the instance that placed the call holds its media; its webhooks reach the other one, which hands the answer over', async () => {
      db = await createTestDatabase();
      fake = await startFakeCalling(fakeOptions);
      fake.addUser('14155550131', { onPermissionRequest: 'ignore', language: 'en' });
      const env = { ...whatsappEnv(fake), DATABASE_URL: db.url, REDIS_URL, REDIS_KEY_PREFIX: prefix };
      const a = await startServer(env);
      servers.push(a);
      const b = await startServer(env);
      servers.push(b);
      // Every webhook of the fake goes to B.
      fakeOptions.webhookUrl = `${b.url}/v1/callbacks/whatsapp`;
      const key = await keyOn(a);
      const sent = await postJson(
        `${a.url}/v1/contact/send-code`,
        { channel: 'WHATSAPP', phone: '+14155550131', deliveryType: 'CALL', locale: 'en' },
        key,
      );
      const requestId = sent.body.data.requestId as string;
      await until('the permission request', () => fake?.received.find((r) => r.path.endsWith('/messages')));
      await new Promise((r) => setTimeout(r, 500));
      const user = fake.users.get('14155550131');
      if (user) user.permission = { kind: 'temporary', expiresAt: Date.now() + 86_400_000 };
      // The accept reaches A, which places the call and holds its media; the connect (SDP answer),
      // the statuses and the terminate go to B.
      expect(await signedWebhook(a, permissionReply('14155550131', 'accept'))).toBe(200);
      const call = await until('the call', () => [...(fake?.calls.values() ?? [])].at(-1));
      await until('the call to end', () => call.state === 'ended', 60_000);
      const digits = (await call.heard)?.digits ?? '';
      expect(digits).toHaveLength(8);
      const verified = await postJson(
        `${b.url}/v1/contact/verify-code`,
        { requestId, code: digits.slice(0, 4) },
        key,
      );
      expect(verified.body.data).toMatchObject({ verified: true });
      const calls = fake.webhooks.filter((w) => JSON.stringify(w).includes('"calls"'));
      expect(calls.length).toBeGreaterThanOrEqual(2);
    }, 120_000);
  });
});
