import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrations } from '../../src/store/migrations.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { DAY, T0, verification } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'cv-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite migrations', () => {
  it('upgrade a database of the first schema in place, keeping its rows', async () => {
    const path = join(dir, 'v1.db');
    const old = verification({ destination: 'kept@example.com', createdAt: T0 });
    // A database as the first release left it: migration 001 only, with a pending code in it.
    const v1 = new BetterSqlite3(path);
    v1.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    v1.exec(readFileSync(new URL('../../migrations/sqlite/001_init.sql', import.meta.url), 'utf8'));
    v1.prepare("INSERT INTO schema_migrations VALUES (1, '001_init', 0)").run();
    v1.prepare(
      `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
         created_at, expires_at, delivery_status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      old.id,
      old.accountId,
      old.groupId,
      old.channel,
      old.destination,
      old.codeHash,
      5,
      T0,
      T0 + DAY,
      'outbox',
    );
    v1.close();

    const store = new SqliteStore(path);
    const next = verification({ destination: 'kept@example.com', createdAt: T0 + 1000 });
    try {
      expect((await store.verifications.getVerification('acc_1', old.id))?.status).toBe('pending');
      // The new code cancels the old one.
      await store.verifications.createVerifications([next]);
      expect((await store.verifications.getVerification('acc_1', old.id))?.status).toBe('canceled');
      expect((await store.verifications.getVerification('acc_1', next.id))?.status).toBe('pending');
    } finally {
      await store.close();
    }
    const probe = new BetterSqlite3(path, { readonly: true });
    try {
      const names = (
        probe.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'verifications_%'").all() as Array<{
          name: string;
        }>
      ).map((r) => r.name);
      expect(names).toContain('verifications_destination');
      expect(names).not.toContain('verifications_created');
      // No trigger writes on the hot table: its changes are logged by the statements themselves.
      expect(probe.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all()).toEqual([]);
      expect(probe.prepare('SELECT kind, request_id FROM changes ORDER BY seq').all()).toEqual([
        { kind: 'canceled', request_id: old.id },
        { kind: 'created', request_id: next.id },
      ]);
      const versions = probe.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
      expect(versions).toEqual(loadMigrations('sqlite').map((m) => ({ version: m.version })));
    } finally {
      probe.close();
    }
  });
});
