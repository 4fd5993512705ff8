import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  freshInstall,
  OPERATIONS_DOC,
  runDocumented,
  sendCode,
  testKey,
  verifyCode,
} from '../../support/ops.js';
import { TEST_DATABASE_PREFIX } from '../../support/postgres.js';
import { postJson, type RunningServer, startServer } from '../../support/process.js';
import { hasPostgres, POSTGRES_URL } from '../../support/services.js';

/**
 * docs/operations.md, "Least privileges on PostgreSQL": the owner migrates and runs
 * deploy/postgres/runtime-role.sql; the service then runs as a role that may only read and write
 * rows, through sends, verifies, admin writes, the webhook fan-out, dashboard sessions and the
 * retention sweep, with no permission error logged. The roles and the database are this test's.
 */

const scratch = mkdtempSync(join(tmpdir(), 'cv-roles-'));
beforeAll(freshInstall, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const suffix = randomBytes(4).toString('hex');
const OWNER = `cv_owner_${suffix}`;
const APP = `cv_app_${suffix}`;
const DATABASE = `${TEST_DATABASE_PREFIX}roles_${suffix}`;

/** The shared server's URL with another user and database. */
function urlAs(user: string, database: string): string {
  const url = new URL(POSTGRES_URL);
  url.username = user;
  url.password = '';
  url.pathname = `/${database}`;
  return url.toString();
}

async function superuser(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs `sql` as `user`; resolves the error's SQLSTATE, or null when it succeeded. */
async function attempt(user: string, sql: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: urlAs(user, DATABASE) });
  await client.connect();
  try {
    await client.query(sql);
    return null;
  } catch (err) {
    return (err as { code?: string }).code ?? 'error';
  } finally {
    await client.end();
  }
}

async function stop(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

describe.runIf(hasPostgres)('least privileges on PostgreSQL', () => {
  afterAll(async () => {
    await superuser(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await superuser(`DROP ROLE IF EXISTS ${APP}`);
    await superuser(`DROP ROLE IF EXISTS ${OWNER}`);
  });

  it('runs the service as a runtime role after the owner migrated and granted', async () => {
    await superuser(`CREATE ROLE ${OWNER} LOGIN`);
    await superuser(`CREATE ROLE ${APP} LOGIN`);
    await superuser(`CREATE DATABASE ${DATABASE} OWNER ${OWNER}`);
    const env = {
      OWNER_URL: urlAs(OWNER, DATABASE),
      APP_URL: urlAs(APP, DATABASE),
      APP_ROLE: APP,
      ADMIN_TOKEN,
      CODE_SECRET: 'ops-roles-code-secret-0123456789abcdef',
    };
    // The documented sequence (its last command, `npm start`, is startServer below).
    const migrated = await runDocumented('DATABASE_URL="$OWNER_URL" npx contact-verify migrate', env);
    expect(migrated.code, migrated.output).toBe(0);
    const granted = await runDocumented(
      'psql "$OWNER_URL" -v runtime_role="$APP_ROLE" -f deploy/postgres/runtime-role.sql',
      env,
    );
    expect(granted.code, granted.output).toBe(0);
    expect(OPERATIONS_DOC).toContain('DATABASE_URL="$APP_URL" npm start');

    const server = await startServer({
      ...env,
      DATABASE_URL: env.APP_URL,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '100',
      SWEEP_INTERVAL_SECONDS: '1',
    });
    try {
      const key = await testKey(server.url);
      const account = await postJson(`${server.url}/v1/admin/accounts`, { name: 'Least' }, ADMIN_TOKEN);
      expect(account.status).toBe(201);
      const hook = await postJson(
        `${server.url}/v1/admin/webhooks`,
        { url: 'http://127.0.0.1:9/hook', events: ['verification.verified'] },
        ADMIN_TOKEN,
      );
      expect(hook.status).toBe(201);
      const sent = await sendCode(server.url, key, 'least@example.com');
      expect(await verifyCode(server.url, key, sent.requestId, '000000')).toMatchObject({ status: 200 });
      expect(await verifyCode(server.url, key, sent.requestId, sent.code)).toMatchObject({ verified: true });
      const session = await fetch(`${server.url}/dashboard/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: ADMIN_TOKEN }),
      });
      expect(session.status).toBe(200);
      const from = new Date(Date.now() - 86_400_000).toISOString();
      for (const path of [
        `/v1/admin/analytics?from=${from}&interval=day`,
        '/v1/admin/contacts?accountId=acc_default&q=least%40example.com',
        '/v1/admin/api-keys',
      ]) {
        const res = await fetch(`${server.url}${path}`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        expect(res.status, path).toBe(200);
      }
      // The webhook fan-out folded the journal and queued the delivery (the receiver is away).
      const deadline = Date.now() + 20_000;
      for (;;) {
        const res = await fetch(`${server.url}/v1/admin/webhooks/${hook.body.data.id}/deliveries`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        if (((await res.json()) as { data: unknown[] }).data.length > 0) break;
        if (Date.now() > deadline) throw new Error(`no webhook delivery was queued:\n${server.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // Sweeps ran (every second) meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(server.output()).not.toMatch(/permission denied|must be owner/);
    } finally {
      await stop(server);
    }

    // What the runtime role may not do.
    expect(await attempt(APP, 'CREATE TABLE intruder (a INT)')).toBe('42501');
    expect(await attempt(APP, 'ALTER TABLE verifications ADD COLUMN intruder INT')).toBe('42501');
    expect(await attempt(APP, 'DROP TABLE verifications')).toBe('42501');
    expect(await attempt(APP, 'TRUNCATE verifications')).toBe('42501');
    expect(await attempt(APP, 'DELETE FROM schema_migrations')).toBe('42501');
    expect(await attempt(APP, 'SELECT count(*) FROM schema_migrations')).toBeNull();

    // A pending migration (here: the last one forgotten) is named, not attempted as the runtime role.
    expect(
      await attempt(
        OWNER,
        'DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)',
      ),
    ).toBeNull();
    await expect(startServer({ ...env, DATABASE_URL: env.APP_URL })).rejects.toThrow(
      /migrations \d+_\w+ are pending, and this database role may not apply them .*contact-verify migrate/s,
    );
  }, 180_000);
});
