import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadMigrations,
  markedTolerated,
  NewerSchemaError,
  newerMigrations,
} from '../../../src/store/migrations.js';
import {
  ADMIN_TOKEN,
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
 * docs/operations.md, "Upgrade and roll back": a newer version's migration (applied here by hand,
 * as that version would) makes this version refuse to start, and its CLI too, with a message
 * that says what to do; marked tolerated, this version runs on it; a restore of the backup taken
 * before the upgrade brings back a database this version runs on.
 */

const scratch = mkdtempSync(join(tmpdir(), 'cv-rollback-'));
beforeAll(freshInstall, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FUTURE = { version: 9001, name: '9001_future_note' };
const REFUSAL =
  /migrations this version of contact-verify does not know: 9001_future_note\..*restore the backup/s;

async function stop(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

describe('rolling back one version', () => {
  it('names the marker and refuses only newer migrations not marked tolerated', () => {
    const known = loadMigrations('sqlite');
    expect(markedTolerated('-- Adds a table.\n-- rollback: tolerated\nCREATE TABLE x (a INT);')).toBe(true);
    expect(markedTolerated('-- rollback: tolerated? no: a column is renamed\nALTER TABLE …')).toBe(false);
    const applied = known.map((m) => ({ version: m.version, name: m.name, tolerated: false }));
    expect(newerMigrations(applied, known)).toEqual([]);
    expect(newerMigrations([...applied, { ...FUTURE, tolerated: true }], known)).toEqual([
      { ...FUTURE, tolerated: true },
    ]);
    expect(() => newerMigrations([...applied, { ...FUTURE, tolerated: false }], known)).toThrow(
      NewerSchemaError,
    );
  });

  it('SQLite: refuses a newer schema, runs on a tolerated one, and starts again after a restore', async () => {
    const path = join(scratch, 'verify.db');
    const env = {
      DATABASE_URL: `sqlite:${path}`,
      ADMIN_TOKEN,
      CODE_SECRET: 'ops-rollback-code-secret-0123456789abcdef',
      BACKUP: join(scratch, 'before-upgrade.db'),
    };
    let server = await startServer(env);
    const key = await testKey(server.url);
    const first = await sendCode(server.url, key, 'first@example.com');
    const second = await sendCode(server.url, key, 'second@example.com');
    await stop(server);
    const backedUp = await runDocumented('npx contact-verify backup "$BACKUP"', env);
    expect(backedUp.code, backedUp.output).toBe(0);

    // The upgrade: what a newer version's migration would do to the file.
    const db = new BetterSqlite3(path);
    db.exec('ALTER TABLE verifications ADD COLUMN future_note TEXT');
    db.prepare(
      'INSERT INTO schema_migrations (version, name, applied_at, tolerated) VALUES (?, ?, ?, 0)',
    ).run(FUTURE.version, FUTURE.name, Date.now());
    db.close();

    await expect(startServer(env)).rejects.toThrow(REFUSAL);
    const migrate = await runDocumented('npx contact-verify migrate', env);
    expect(migrate.code).toBe(1);
    expect(migrate.output).toMatch(REFUSAL);

    const mark = (tolerated: 0 | 1) => {
      const db = new BetterSqlite3(path);
      db.prepare('UPDATE schema_migrations SET tolerated = ? WHERE version = ?').run(
        tolerated,
        FUTURE.version,
      );
      db.close();
    };
    mark(1);
    server = await startServer(env);
    try {
      expect(server.output()).toContain('running on a database a newer version migrated (9001_future_note');
      expect(await verifyCode(server.url, key, first.requestId, first.code)).toMatchObject({
        verified: true,
      });
    } finally {
      await stop(server);
    }

    mark(0);
    const restored = await runDocumented('npx contact-verify restore "$BACKUP"', env);
    expect(restored.code, restored.output).toBe(0);
    server = await startServer(env);
    try {
      expect(await verifyCode(server.url, key, second.requestId, second.code)).toMatchObject({
        verified: true,
      });
    } finally {
      await stop(server);
    }
  }, 180_000);

  it.runIf(hasPostgres)(
    'PostgreSQL: refuses a newer schema before touching it, runs on a tolerated one',
    async () => {
      const database = await createTestDatabase();
      try {
        const env = { DATABASE_URL: database.url, ADMIN_TOKEN };
        expect((await runDocumented('npx contact-verify migrate', env)).code).toBe(0);
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          await client.query('ALTER TABLE verifications ADD COLUMN future_note TEXT');
          await client.query(
            'INSERT INTO schema_migrations (version, name, applied_at, tolerated) VALUES ($1, $2, $3, false)',
            [FUTURE.version, FUTURE.name, Date.now()],
          );
          const migrate = await runDocumented('npx contact-verify migrate', env);
          expect(migrate.code).toBe(1);
          expect(migrate.output).toMatch(REFUSAL);
          await expect(startServer(env)).rejects.toThrow(REFUSAL);

          await client.query('UPDATE schema_migrations SET tolerated = true WHERE version = $1', [
            FUTURE.version,
          ]);
          const server = await startServer(env);
          try {
            expect(server.output()).toContain(
              'running on a database a newer version migrated (9001_future_note',
            );
            const key = await testKey(server.url);
            const sent = await sendCode(server.url, key, 'pg@example.com');
            expect(await verifyCode(server.url, key, sent.requestId, sent.code)).toMatchObject({
              verified: true,
            });
          } finally {
            await stop(server);
          }
        } finally {
          await client.end();
        }
      } finally {
        await database.drop();
      }
    },
    120_000,
  );
});
