import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshInstall, runDocumented } from '../../support/ops.js';
import { type RunningServer, startServer } from '../../support/process.js';

/**
 * docs/operations.md, "Rotating ADMIN_TOKEN", on real processes: both tokens work while the
 * rotation rolls over, only the new one after it, and `sessions close-all` ends the dashboard
 * sessions signed in with the old one.
 */

const scratch = mkdtempSync(join(tmpdir(), 'cv-admin-rotate-'));
beforeAll(freshInstall, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const OLD = 'ops-rotation-old-admin-token-0123456789abcdef';
const NEW = 'ops-rotation-new-admin-token-fedcba9876543210';

async function stop(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

const adminStatus = async (url: string, token: string) =>
  (await fetch(`${url}/v1/admin/accounts`, { headers: { authorization: `Bearer ${token}` } })).status;

const signIn = async (url: string, token: string) => {
  const res = await fetch(`${url}/dashboard/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
};

const sessionStatus = async (url: string, cookie: string) =>
  (await fetch(`${url}/v1/admin/accounts`, { headers: { cookie } })).status;

describe('rotating ADMIN_TOKEN', () => {
  it('accepts both tokens during the rotation, only the new one after, and closes old sessions', async () => {
    const base = {
      DATABASE_URL: `sqlite:${join(scratch, 'verify.db')}`,
      CODE_SECRET: 'ops-admin-rotation-code-secret-0123456789',
    };
    let server = await startServer({ ...base, ADMIN_TOKEN: OLD });
    const old = await signIn(server.url, OLD);
    expect(old.status).toBe(200);
    await stop(server);

    server = await startServer({ ...base, ADMIN_TOKEN: NEW, ADMIN_TOKEN_PREVIOUS: OLD });
    try {
      expect(await adminStatus(server.url, NEW)).toBe(200);
      expect(await adminStatus(server.url, OLD)).toBe(200);
      expect((await signIn(server.url, OLD)).status).toBe(200);
      expect(await adminStatus(server.url, 'ops-rotation-some-other-token-000000000000')).toBe(401);
    } finally {
      await stop(server);
    }

    const after = { ...base, ADMIN_TOKEN: NEW };
    server = await startServer(after);
    try {
      expect(await adminStatus(server.url, NEW)).toBe(200);
      expect(await adminStatus(server.url, OLD)).toBe(401);
      expect((await signIn(server.url, OLD)).status).toBe(401);
      // Signed in with the old token before the rotation: alive until closed.
      expect(await sessionStatus(server.url, old.cookie)).toBe(200);
      const closed = await runDocumented('npx contact-verify sessions close-all', after);
      expect(closed.code, closed.output).toBe(0);
      expect(closed.output).toMatch(/closed [1-9]\d* dashboard session/);
      expect(await sessionStatus(server.url, old.cookie)).toBe(401);
    } finally {
      await stop(server);
    }
  }, 180_000);
});
