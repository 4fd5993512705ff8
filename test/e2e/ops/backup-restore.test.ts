import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, cliOnPath, runDocumented, sendCode, testKey, verifyCode } from '../../support/ops.js';
import { createTestDatabase } from '../../support/postgres.js';
import { type RunningServer, startServer } from '../../support/process.js';
import { hasPostgres } from '../../support/services.js';

/**
 * docs/operations.md, "Backup and restore": a backup taken while the service runs brings back,
 * after a restore, a code that was pending when it was taken; what came after it is gone.
 */

const scratch = mkdtempSync(join(tmpdir(), 'cv-backup-'));
const bin = cliOnPath(scratch);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CODE_SECRET = 'ops-backup-code-secret-0123456789abcdef';

async function stop(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

describe('backup and restore', () => {
  it('SQLite: contact-verify backup while the service runs, contact-verify restore after a stop', async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(scratch, 'verify.db')}`,
      ADMIN_TOKEN,
      CODE_SECRET,
      BACKUP: join(scratch, 'verify-backup.db'),
    };
    let server = await startServer(env);
    const key = await testKey(server.url);
    const kept = await sendCode(server.url, key, 'kept@example.com');

    const backedUp = await runDocumented('contact-verify backup "$BACKUP"', bin, env);
    expect(backedUp.code, backedUp.output).toBe(0);
    expect(backedUp.output).toMatch(/backed up .* \(schema \d+_\w+, 1 verification requests\)/);
    // Written after the backup: the restore takes it away.
    const lost = await sendCode(server.url, key, 'lost@example.com');
    await stop(server);

    const restored = await runDocumented('contact-verify restore "$BACKUP"', bin, env);
    expect(restored.code, restored.output).toBe(0);

    server = await startServer(env);
    try {
      expect(await verifyCode(server.url, key, kept.requestId, kept.code)).toMatchObject({
        status: 200,
        verified: true,
      });
      expect(await verifyCode(server.url, key, lost.requestId, lost.code)).toMatchObject({
        status: 404,
        error: 'NOT_FOUND',
      });
    } finally {
      await stop(server);
    }
  }, 180_000);

  it('SQLite: restore refuses a file that is not a sound contact-verify database', async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(scratch, 'other.db')}`,
      BACKUP: join(scratch, 'not-a-backup.db'),
    };
    writeFileSync(env.BACKUP, 'not a database at all, but long enough to be read as one '.repeat(100));
    const refused = await runDocumented('contact-verify restore "$BACKUP"', bin, env);
    expect(refused.code).toBe(2);
    expect(refused.output).toMatch(/cannot be restored/);
  });

  it.runIf(hasPostgres)(
    'PostgreSQL: pg_dump while the service runs, pg_restore into a new database',
    async () => {
      const source = await createTestDatabase();
      const target = await createTestDatabase();
      const dump = join(scratch, 'verify.dump');
      try {
        const env = { DATABASE_URL: source.url, ADMIN_TOKEN, CODE_SECRET, BACKUP: dump };
        let server = await startServer(env);
        const key = await testKey(server.url);
        const kept = await sendCode(server.url, key, 'kept@example.com');
        const dumped = await runDocumented(
          'pg_dump --format=custom --file="$BACKUP" "$DATABASE_URL"',
          bin,
          env,
        );
        expect(dumped.code, dumped.output).toBe(0);
        await stop(server);

        const restoreEnv = { ...env, DATABASE_URL: target.url };
        const restored = await runDocumented(
          'pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" "$BACKUP"',
          bin,
          restoreEnv,
        );
        expect(restored.code, restored.output).toBe(0);
        server = await startServer(restoreEnv);
        try {
          expect(await verifyCode(server.url, key, kept.requestId, kept.code)).toMatchObject({
            status: 200,
            verified: true,
          });
        } finally {
          await stop(server);
        }
      } finally {
        await source.drop();
        await target.drop();
      }
    },
    120_000,
  );
});
