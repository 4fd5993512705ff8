import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  freshInstall,
  runDocumented,
  sendCode,
  testKey,
  verifyCode,
} from '../../support/ops.js';
import { postJson, type RunningServer, startServer } from '../../support/process.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * docs/operations.md, "Rotating CODE_SECRET", on real processes: a code sent before the rotation
 * verifies after it, a webhook endpoint created before it still gets events signed with its
 * secret after the previous secret is gone, and an open dashboard keeps its CSRF token.
 */

const scratch = mkdtempSync(join(tmpdir(), 'cv-rotate-'));
beforeAll(freshInstall, 600_000);
const receiver = new WebhookReceiver();
afterAll(async () => {
  await receiver.close();
  rmSync(scratch, { recursive: true, force: true });
});

const OLD = 'ops-rotation-old-code-secret-0123456789abcdef';
const NEW = 'ops-rotation-new-code-secret-fedcba9876543210';

async function stop(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

/** Signs in to the dashboard: the session cookie and its CSRF token. */
async function signIn(url: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${url}/dashboard/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: ADMIN_TOKEN }),
  });
  expect(res.status).toBe(200);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { cookie, csrf: ((await res.json()) as { data: { csrfToken: string } }).data.csrfToken };
}

/** A dashboard write (an account created) with the session's cookie and a CSRF token. */
const dashboardWrite = (url: string, session: { cookie: string; csrf: string }) =>
  fetch(`${url}/v1/admin/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf },
    body: JSON.stringify({ name: 'During the rotation' }),
  });

describe('rotating CODE_SECRET', () => {
  it('keeps pending codes, webhook endpoints and dashboard sessions through the three steps', async () => {
    const hookUrl = await receiver.listen();
    const before = {
      DATABASE_URL: `sqlite:${join(scratch, 'verify.db')}`,
      ADMIN_TOKEN,
      CODE_SECRET: OLD,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '100',
    };
    let server = await startServer(before);
    const key = await testKey(server.url);
    const hook = await postJson(
      `${server.url}/v1/admin/webhooks`,
      { url: hookUrl, events: ['verification.verified'] },
      ADMIN_TOKEN,
    );
    expect(hook.status).toBe(201);
    receiver.secret = hook.body.data.secret;
    const pending = await sendCode(server.url, key, 'before@example.com');
    const session = await signIn(server.url);
    await stop(server);

    // Step 1: the new secret, the old one beside it.
    const during = { ...before, CODE_SECRET: NEW, CODE_SECRET_PREVIOUS: OLD };
    server = await startServer(during);
    let sentDuring: { requestId: string; code: string };
    try {
      expect(server.output()).toMatch(/"resealed":1,"unreadable":\[\].*sealed again under CODE_SECRET/);
      expect(await verifyCode(server.url, key, pending.requestId, pending.code)).toMatchObject({
        status: 200,
        verified: true,
      });
      const [first] = await receiver.waitFor(1);
      expect(first?.verifyError).toBeNull();
      expect(first?.verified?.type).toBe('verification.verified');
      expect((await dashboardWrite(server.url, session)).status).toBe(201);
      sentDuring = await sendCode(server.url, key, 'during@example.com');

      // Step 2: nothing left under the old secret.
      const resealed = await runDocumented('npx contact-verify webhooks reseal', during);
      expect(resealed.code, resealed.output).toBe(0);
      expect(resealed.output).toContain('0 signing secret(s) sealed again under CODE_SECRET');
    } finally {
      await stop(server);
    }

    // Step 3: the previous secret removed.
    server = await startServer({ ...before, CODE_SECRET: NEW });
    try {
      expect(await verifyCode(server.url, key, sentDuring.requestId, sentDuring.code)).toMatchObject({
        status: 200,
        verified: true,
      });
      const [, second] = await receiver.waitFor(2);
      expect(second?.verifyError).toBeNull();
      expect(second?.verified?.type).toBe('verification.verified');
      // A dashboard opened before the rotation reads the session's current CSRF token again.
      const current = await fetch(`${server.url}/dashboard/api/session`, {
        headers: { cookie: session.cookie },
      });
      expect(current.status).toBe(200);
    } finally {
      await stop(server);
    }
  }, 180_000);
});
