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
 * Migration 112: rows stored under a key the newer rules fold (Fastmail's subdomain addresses,
 * Yahoo's disposable addresses, an Argentine mobile without its 9) move to the new key, so a block
 * made before the upgrade on `shop@evil.fastmail.com` or `+541112345678` still refuses it after.
 */

const dir = mkdtempSync(join(tmpdir(), 'cv-destination-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ACCOUNT = 'acc_migrated';
const NOW = Date.now();
const MIN = 60_000;
const FILTER_SECRET = 'the-filter-secret-before-the-upgrade';

/** The rows a version before migration 112 left: destinations canonical under the older rules. */
function oldRows(bytes: string, no: string): string[] {
  const contact = (
    id: string,
    destination: string,
    channel: string,
    sends: number,
    firstSeen: number,
    blocked: boolean,
  ) =>
    `INSERT INTO contacts (id, account_id, test, destination, channel, masked, first_seen, last_seen, sends,
       verified, failed, wrong_codes, blocked_at, blocked_reason)
     VALUES ('${id}', '${ACCOUNT}', ${no}, '${destination}', '${channel}', 'x***@x', ${firstSeen}, ${firstSeen + MIN},
       ${sends}, 0, 0, 0, ${blocked ? NOW - MIN : 'NULL'}, ${blocked ? "'abuse'" : 'NULL'})`;
  const request = (id: string, destination: string, channel: string, status: string, createdAt: number) =>
    `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
       created_at, expires_at, delivery_status, status, masked, test)
     VALUES ('${id}', '${ACCOUNT}', '${id}', '${channel}', '${destination}', ${bytes}, 5, ${createdAt},
       ${createdAt + 10 * MIN}, 'outbox', '${status}', 'x***@x', ${no})`;
  return [
    `INSERT INTO accounts (id, name, settings, created_at) VALUES ('${ACCOUNT}', 'migrated', '{}', ${NOW - 60 * MIN})`,
    `INSERT INTO settings (name, value) VALUES ('destination_filter_key', '${FILTER_SECRET}')`,
    // A blocked Fastmail subdomain address, and the user's own address seen earlier: merged there.
    contact('c-fm-shop', 'shop@evil.fastmail.com', 'EMAIL', 2, NOW - 30 * MIN, true),
    contact('c-fm-user', 'evil@fastmail.com', 'EMAIL', 1, NOW - 40 * MIN, false),
    contact('c-fm-under', 'x@joe-citizen.fastmail.fm', 'EMAIL', 1, NOW - 20 * MIN, false),
    contact('c-yahoo', 'lee-shop@yahoo.com', 'EMAIL', 3, NOW - 20 * MIN, true),
    contact('c-ar', '+541112345678', 'SMS', 4, NOW - 20 * MIN, true),
    // Left as they are: other domains, a deeper subdomain, a toll-free Argentine number, a mobile.
    contact('c-other', 'shop@evil.example.com', 'EMAIL', 1, NOW, false),
    contact('c-deep', 'a@b.evil.fastmail.com', 'EMAIL', 1, NOW, false),
    contact('c-ar-free', '+548002221234', 'SMS', 1, NOW, false),
    contact('c-ar-mobile', '+5493514123456', 'SMS', 1, NOW, false),
    request('r-fm', 'shop@evil.fastmail.com', 'EMAIL', 'verified', NOW - 30 * MIN),
    request('r-ar', '+541112345678', 'SMS', 'expired', NOW - 20 * MIN),
    request('r-yahoo', 'lee-shop@yahoo.com', 'EMAIL', 'pending', NOW - MIN),
  ];
}

async function checkMigrated(
  databaseUrl: string,
  read: (sql: string) => Promise<Array<Record<string, unknown>>>,
) {
  const svc = await startTestService({ DATABASE_URL: databaseUrl });
  try {
    const admin = (url: string) => svc.get(url, ADMIN_TOKEN);
    const search = async (q: string) =>
      (await admin(`/v1/admin/contacts?accountId=${ACCOUNT}&q=${encodeURIComponent(q)}`)).body.data;

    expect(await search('evil@fastmail.com')).toMatchObject([
      {
        id: 'c-fm-user',
        destination: 'evil@fastmail.com',
        counts: { sends: 3 },
        blocked: true,
      },
    ]);
    expect(await search('joe_citizen@fastmail.fm')).toMatchObject([{ id: 'c-fm-under' }]);
    expect(await search('lee-@yahoo.com')).toMatchObject([
      { id: 'c-yahoo', destination: 'lee-@yahoo.com', masked: 'l***@yahoo.com', blocked: true },
    ]);
    expect(await search('+5491112345678')).toMatchObject([
      { id: 'c-ar', destination: '+5491112345678', masked: '+5********5678', blocked: true },
    ]);
    const unchanged = await read(
      "SELECT id, destination FROM contacts WHERE id IN ('c-other', 'c-deep', 'c-ar-free', 'c-ar-mobile') ORDER BY id",
    );
    expect(unchanged).toEqual([
      { id: 'c-ar-free', destination: '+548002221234' },
      { id: 'c-ar-mobile', destination: '+5493514123456' },
      { id: 'c-deep', destination: 'a@b.evil.fastmail.com' },
      { id: 'c-other', destination: 'shop@evil.example.com' },
    ]);
    const requests = Object.fromEntries(
      (await read('SELECT id, destination, address, masked FROM verifications ORDER BY id')).map((r) => [
        r.id,
        [r.destination, r.address, r.masked],
      ]),
    );
    expect(requests).toMatchObject({
      'r-fm': ['evil@fastmail.com', 'shop@evil.fastmail.com', 'e***@fastmail.com'],
      'r-ar': ['+5491112345678', '+541112345678', '+5********5678'],
      'r-yahoo': ['lee-@yahoo.com', 'lee-shop@yahoo.com', 'l***@yahoo.com'],
    });
    // The filter's secret was made anew: a filter shared in Redis is loaded again under a new key.
    const [setting] = await read("SELECT value FROM settings WHERE name = 'destination_filter_key'");
    expect(setting?.value).not.toBe(FILTER_SECRET);

    // The blocks made before the upgrade hold for every form.
    const key = await svc.createKey({ accountId: ACCOUNT, channels: ['EMAIL', 'SMS'] });
    for (const body of [
      { channel: 'EMAIL', email: 'shop@evil.fastmail.com' },
      { channel: 'EMAIL', email: 'evil@fastmail.com' },
      { channel: 'EMAIL', email: 'lee-news@yahoo.com' },
      { channel: 'SMS', phone: '+541112345678' },
      { channel: 'SMS', phone: '+5491112345678' },
    ]) {
      const res = await svc.post('/v1/contact/send-code', body, key);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.error.code).toBe('CONTACT_BLOCKED');
    }
  } finally {
    await svc.close();
  }
}

describe('migration 112: contacts and requests move to their canonical destination', () => {
  it('SQLite', async () => {
    const path = join(dir, 'before.db');
    const db = new BetterSqlite3(path);
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL, tolerated INTEGER NOT NULL DEFAULT 0)',
    );
    for (const m of loadMigrations('sqlite').filter((m) => m.version < 112)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)').run(
        m.version,
        m.name,
      );
    }
    for (const sql of oldRows("X'00'", '0')) db.exec(sql);
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
      for (const m of loadMigrations('postgres').filter((m) => m.version < 112)) {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, 0)', [
          m.version,
          m.name,
        ]);
      }
      for (const sql of oldRows("'\\x00'::bytea", 'false')) await client.query(sql);
      await checkMigrated(database.url, async (sql) => (await client.query(sql)).rows);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
