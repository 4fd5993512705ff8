import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrations } from '../../src/store/migrations.js';
import { ADMIN_TOKEN, startTestService } from '../support/app.js';
import { createTestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';

/**
 * Migration 111: contacts and requests stored before sends were keyed by the canonical mailbox
 * move to it, so a block made on `j.ane@gmail.com` before the upgrade still refuses
 * `jane@googlemail.com` after it, and the contacts of one mailbox become one.
 */

const dir = mkdtempSync(join(tmpdir(), 'cv-mailbox-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ACCOUNT = 'acc_migrated';
const NOW = Date.now();
const MIN = 60_000;

/** The rows a version before migration 111 left: addresses as sent, lower-cased. */
function oldRows(bytes: string, no: string, yes: string): string[] {
  const contact = (
    id: string,
    destination: string,
    counts: [number, number, number, number],
    firstSeen: number,
    blocked: string | null,
  ) =>
    `INSERT INTO contacts (id, account_id, test, destination, channel, masked, first_seen, last_seen, sends,
       verified, failed, wrong_codes, blocked_at, blocked_reason)
     VALUES ('${id}', '${ACCOUNT}', ${no}, '${destination}', 'EMAIL', 'x***@x', ${firstSeen}, ${firstSeen + MIN},
       ${counts.join(', ')}, ${blocked ? NOW - MIN : 'NULL'}, ${blocked ? `'${blocked}'` : 'NULL'})`;
  const request = (id: string, destination: string, status: string, createdAt: number) =>
    `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
       created_at, expires_at, delivery_status, status, masked, test)
     VALUES ('${id}', '${ACCOUNT}', '${id}', 'EMAIL', '${destination}', ${bytes}, 5, ${createdAt},
       ${createdAt + 10 * MIN}, 'outbox', '${status}', 'x***@x', ${no})`;
  return [
    `INSERT INTO accounts (id, name, settings, created_at) VALUES ('${ACCOUNT}', 'migrated', '{}', ${NOW - 60 * MIN})`,
    // One mailbox, two contacts and no contact at the mailbox itself: the first seen is kept.
    contact('c-dotted', 'j.ane@gmail.com', [2, 1, 0, 1], NOW - 30 * MIN, 'abuse'),
    contact('c-tagged', 'jane+1@gmail.com', [3, 0, 1, 2], NOW - 40 * MIN, null),
    // A contact at the mailbox and one of its variants: the one at the mailbox is kept.
    contact('c-bob', 'bob@example.com', [1, 1, 0, 0], NOW - 20 * MIN, null),
    contact('c-bob-x', 'bob+x@example.com', [2, 0, 0, 0], NOW - 50 * MIN, null),
    `INSERT INTO contacts (id, account_id, test, destination, channel, masked, first_seen, last_seen)
     VALUES ('c-phone', '${ACCOUNT}', ${no}, '+447400123456', 'SMS', '+4*******3456', ${NOW}, ${NOW})`,
    `INSERT INTO contacts (id, account_id, test, destination, channel, masked, first_seen, last_seen)
     VALUES ('c-test-mode', '${ACCOUNT}', ${yes}, 'jane+2@gmail.com', 'EMAIL', 'j*****@gmail.com', ${NOW}, ${NOW})`,
    request('r-dotted', 'j.ane@gmail.com', 'verified', NOW - 30 * MIN),
    request('r-tagged', 'jane+1@gmail.com', 'expired', NOW - 40 * MIN),
    // Two pending codes of one mailbox: both keep their destination (one live code per destination).
    request('r-carol-a', 'carol+a@example.com', 'pending', NOW - 2 * MIN),
    request('r-carol-b', 'carol+b@example.com', 'pending', NOW - MIN),
    // A pending code alone at its mailbox moves to it.
    request('r-dave', 'dave+x@example.com', 'pending', NOW - MIN),
  ];
}

async function checkMigrated(
  databaseUrl: string,
  read: (sql: string) => Promise<Array<Record<string, unknown>>>,
) {
  const svc = await startTestService({ DATABASE_URL: databaseUrl });
  try {
    const admin = (url: string) => svc.get(url, ADMIN_TOKEN);
    // Live contacts: the search lists both modes.
    const search = async (q: string) =>
      (await admin(`/v1/admin/contacts?accountId=${ACCOUNT}&q=${encodeURIComponent(q)}`)).body.data.filter(
        (c: { mode: string }) => c.mode === 'live',
      );

    const [jane, ...moreJane] = await search('jane@gmail.com');
    expect(moreJane).toEqual([]);
    expect(jane).toMatchObject({
      id: 'c-tagged',
      destination: 'jane@gmail.com',
      masked: 'j***@gmail.com',
      counts: { sends: 5, verified: 1, failed: 1, wrongCodes: 3 },
      blocked: true,
      blockedReason: 'abuse',
      firstSeen: new Date(NOW - 40 * MIN).toISOString(),
    });
    const profile = (await admin(`/v1/admin/contacts/${jane.id}`)).body.data;
    expect([...profile.addressesSeen].sort()).toEqual(['j.ane@gmail.com', 'jane+1@gmail.com']);

    const bob = await search('bob@example.com');
    expect(bob.map((c: { id: string; counts: { sends: number } }) => [c.id, c.counts.sends])).toEqual([
      ['c-bob', 3],
    ]);
    // A phone contact is left as it was; a contact of the other mode moves, on its own.
    expect((await search('+447400123456')).map((c: { id: string }) => c.id)).toEqual(['c-phone']);
    expect(await read("SELECT destination, blocked_at FROM contacts WHERE id = 'c-test-mode'")).toEqual([
      { destination: 'jane@gmail.com', blocked_at: null },
    ]);

    const requests = Object.fromEntries(
      (await read('SELECT id, destination, address FROM verifications ORDER BY id')).map((r) => [
        r.id,
        [r.destination, r.address],
      ]),
    );
    expect(requests).toMatchObject({
      'r-dotted': ['jane@gmail.com', 'j.ane@gmail.com'],
      'r-tagged': ['jane@gmail.com', 'jane+1@gmail.com'],
      'r-carol-a': ['carol+a@example.com', null],
      'r-carol-b': ['carol+b@example.com', null],
      'r-dave': ['dave@example.com', 'dave+x@example.com'],
    });

    // The block made before the upgrade holds for every form of the mailbox.
    const key = await svc.createKey({ accountId: ACCOUNT });
    for (const email of ['jane@gmail.com', 'J.A.N.E@googlemail.com', 'jane+9@gmail.com']) {
      const res = await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);
      expect(res.status, email).toBe(403);
      expect(res.body.error.code).toBe('CONTACT_BLOCKED');
    }
    expect((await read('SELECT count(*) AS n FROM mailbox_migration').catch(() => [])).length).toBe(0);
  } finally {
    await svc.close();
  }
}

describe('migration 111: contacts and requests move to their canonical mailbox', () => {
  it('SQLite', async () => {
    const path = join(dir, 'before.db');
    const db = new BetterSqlite3(path);
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL, tolerated INTEGER NOT NULL DEFAULT 0)',
    );
    for (const m of loadMigrations('sqlite').filter((m) => m.version < 111)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)').run(
        m.version,
        m.name,
      );
    }
    for (const sql of oldRows("X'00'", '0', '1')) db.exec(sql);
    db.close();
    await checkMigrated(`sqlite:${path}`, async (sql) => {
      const probe = new BetterSqlite3(path, { readonly: true });
      try {
        return probe.prepare(sql).all() as Array<Record<string, unknown>>;
      } finally {
        probe.close();
      }
    });
  });

  it.runIf(hasPostgres)('PostgreSQL', async () => {
    const database = await createTestDatabase();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL, tolerated BOOLEAN NOT NULL DEFAULT false)',
      );
      for (const m of loadMigrations('postgres').filter((m) => m.version < 111)) {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, 0)', [
          m.version,
          m.name,
        ]);
      }
      for (const sql of oldRows("'\\x00'::bytea", 'false', 'true')) await client.query(sql);
      await checkMigrated(database.url, async (sql) => (await client.query(sql)).rows);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
