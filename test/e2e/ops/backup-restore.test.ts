import {
  accessSync,
  constants,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  documentedBlock,
  freshInstall,
  runDocumented,
  sendCode,
  testKey,
  verifyCode,
} from '../../support/ops.js';
import { createTestDatabase } from '../../support/postgres.js';
import { type RunningServer, startServer } from '../../support/process.js';
import { hasPostgres } from '../../support/services.js';

/**
 * docs/operations.md, "Backup and restore", its blocks run as written: a backup taken while the
 * service runs lands in /backups (created when missing), one file of mode 0600, and brings back,
 * after a restore, a code that was pending when it was taken; what came after it is gone. The
 * files a run writes to /backups are removed after it, and /backups too when the run made it.
 */

const scratch = mkdtempSync(join(tmpdir(), 'cv-backup-'));
const FOLDER = '/backups';
const folderExisted = existsSync(FOLDER);
const written: string[] = [];
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  for (const file of written) rmSync(file, { force: true });
  if (!folderExisted && existsSync(FOLDER) && readdirSync(FOLDER).length === 0) rmdirSync(FOLDER);
});
beforeAll(freshInstall, 600_000);

/** Why this machine cannot run the doc's blocks as written, if it cannot (/backups not writable). */
function cannotWriteBackups(): string | null {
  try {
    accessSync(existsSync(FOLDER) ? FOLDER : dirname(FOLDER), constants.W_OK);
    return null;
  } catch {
    return `${FOLDER} cannot be written by this user: the documented backup needs it`;
  }
}

const CODE_SECRET = 'ops-backup-code-secret-0123456789abcdef';

async function stop(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

/** The backup is alone in its folder: no -wal, -shm or partial file of it beside it. */
function expectOneFile(file: string): void {
  expect(statSync(file).mode & 0o777, `${file} is readable by its owner only`).toBe(0o600);
  expect(readdirSync(dirname(file)).filter((f) => f.includes(basename(file)))).toEqual([basename(file)]);
}

describe('backup and restore', () => {
  it('SQLite: the backup block while the service runs, the restore block after a stop', async (context) => {
    const reason = cannotWriteBackups();
    if (reason) context.skip(reason);
    const env = { DATABASE_URL: `sqlite:${join(scratch, 'verify.db')}`, ADMIN_TOKEN, CODE_SECRET };
    let server = await startServer(env);
    const key = await testKey(server.url);
    const kept = await sendCode(server.url, key, 'kept@example.com');

    const backedUp = await runDocumented(documentedBlock('npx contact-verify backup "$BACKUP"'), env);
    expect(backedUp.code, backedUp.output).toBe(0);
    const file = /backed up \S+ to (\S+) \(schema \d+_\w+, 1 verification requests\)/.exec(
      backedUp.output,
    )?.[1];
    expect(file, backedUp.output).toMatch(/^\/backups\/verify-\d{8}-\d{6}\.db$/);
    written.push(file as string);
    expectOneFile(file as string);
    // Written after the backup: the restore takes it away.
    const lost = await sendCode(server.url, key, 'lost@example.com');
    await stop(server);

    const restored = await runDocumented('npx contact-verify restore "$BACKUP"', {
      ...env,
      BACKUP: file as string,
    });
    expect(restored.code, restored.output).toBe(0);
    // Reading the backup left nothing beside it either.
    expectOneFile(file as string);

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
    const refused = await runDocumented('npx contact-verify restore "$BACKUP"', env);
    expect(refused.code).toBe(2);
    expect(refused.output).toMatch(/cannot be restored/);
  });

  it.runIf(hasPostgres)(
    'PostgreSQL: the pg_dump block while the service runs, pg_restore into a new database',
    async (context) => {
      const reason = cannotWriteBackups();
      if (reason) context.skip(reason);
      const source = await createTestDatabase();
      const target = await createTestDatabase();
      try {
        const env = { DATABASE_URL: source.url, ADMIN_TOKEN, CODE_SECRET };
        let server = await startServer(env);
        const key = await testKey(server.url);
        const kept = await sendCode(server.url, key, 'kept@example.com');
        const dumped = await runDocumented(documentedBlock('ls -l "$BACKUP"'), env);
        expect(dumped.code, dumped.output).toBe(0);
        // `ls -l`: the mode first, the path last.
        const [mode, file] =
          /^(\S+) .* (\/backups\/verify-\d{8}-\d{6}\.dump)$/m.exec(dumped.output)?.slice(1) ?? [];
        expect(file, dumped.output).toBeDefined();
        written.push(file as string);
        expect(mode).toBe('-rw-------');
        expectOneFile(file as string);
        await stop(server);

        const restoreEnv = { ...env, DATABASE_URL: target.url, BACKUP: file as string };
        const restored = await runDocumented(
          documentedBlock('pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" "$BACKUP"'),
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
    180_000,
  );
});
