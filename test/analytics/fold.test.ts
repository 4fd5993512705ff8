import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AnalyticsQuery, analyticsSql } from '../../src/store/insights.js';
import type { Store } from '../../src/store/interface.js';
import { loadMigrations } from '../../src/store/migrations.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { DAY, T0, verification } from '../store/fixtures.js';
import { createTestDatabase, type TestDatabase, truncateAll } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';

/**
 * The analytics buckets are folded from the journal in batches (migration 060), by the fan-out
 * of every instance and before each analytics read: a read sees every change committed before
 * it, a send counts under the provider that took it whichever comes first, and concurrent folds
 * count each event once.
 */
const query = (groupBy?: AnalyticsQuery['groupBy']): AnalyticsQuery => ({
  accountId: 'acc_1',
  test: false,
  from: T0 - DAY,
  to: T0 + DAY,
  intervalMs: DAY,
  groupBy,
});
const pickFirst = (rows: Array<{ id: string }>) => rows[0]?.id ?? null;
const totals = async (store: Store, groupBy?: AnalyticsQuery['groupBy']) => {
  const rows = await store.analytics(query(groupBy));
  return Object.fromEntries(
    rows.buckets.map((b) => [b.group, { sent: b.sent, verified: b.verified, wrongCodes: b.wrongCodes }]),
  );
};

function readsSeeWrites(name: string, open: () => Promise<Store>) {
  describe(`Analytics fold: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

    it('an analytics read right after a send, a wrong code and a verify counts each of them', async () => {
      const v = verification();
      await store.createVerifications([v]);
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 0 } });
      await store.attempt('acc_1', v.id, T0 + 1000, () => null);
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 1 } });
      await store.attempt('acc_1', v.id, T0 + 2000, pickFirst);
      const rows = await store.analytics(query());
      expect(rows.buckets[0]).toMatchObject({ sent: 1, verified: 1, wrongCodes: 1 });
      expect(rows.ttv).toEqual([{ start: T0 - (T0 % DAY), group: '', bin: 0, count: 1 }]);
      // Nothing pending: the next read adds nothing twice.
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 1, wrongCodes: 1 } });
    });

    it("the breaker's country window counts a phone send at once, and the sweep drops it once out of the window", async () => {
      const sms = verification({ channel: 'SMS', destination: '+447400123456', country: 'GB' });
      await store.createVerifications([sms]);
      expect(await store.countryWindow('acc_1', false, 'GB', T0)).toEqual({ sent: 1, verified: 0 });
      await store.attempt('acc_1', sms.id, T0 + 1000, pickFirst);
      expect(await store.countryWindow('acc_1', false, 'GB', T0 + 3_600_000)).toEqual({
        sent: 1,
        verified: 1,
      });
      await store.sweep(T0 + 3 * 3_600_000, 365 * DAY, 100);
      expect(await store.countryWindow('acc_1', false, 'GB', T0)).toEqual({ sent: 0, verified: 0 });
    });

    it('a send counts under the provider that took it, folded before or after the provider came', async () => {
      const early = verification({ deliveryStatus: 'queued' });
      await store.createVerifications([early]);
      // Folded by this read while no provider had the message: under ''.
      expect(await totals(store, 'provider')).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 0 } });
      await store.recordDelivery(early.id, {
        deliveryStatus: 'sent',
        provider: 'ses',
        providerMessageId: 'm1',
      });
      const late = verification({ deliveryStatus: 'queued' });
      await store.createVerifications([late]);
      // Taken by the provider before any fold reached it.
      await store.recordDelivery(late.id, {
        deliveryStatus: 'sent',
        provider: 'ses',
        providerMessageId: 'm2',
      });
      const byProvider = await totals(store, 'provider');
      expect(byProvider.ses).toEqual({ sent: 2, verified: 0, wrongCodes: 0 });
      expect(byProvider['']?.sent ?? 0).toBe(0);
    });
  });
}

readsSeeWrites('SQLite', async () => new SqliteStore(':memory:'));

/**
 * A database journaled by the triggers of 020 (which folded every change as it was made) and then
 * upgraded: its counts stay, none is folded again, and a send counted under no provider still
 * moves to its provider's bucket.
 */
async function upgradeKeepsCounts(
  dialect: 'sqlite' | 'postgres',
  exec: (sql: string, params?: unknown[]) => Promise<void>,
  open: () => Promise<Store>,
) {
  await exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  );
  for (const m of loadMigrations(dialect).filter((m) => m.version < 60)) {
    await exec(m.sql);
    await exec('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)', [
      m.version,
      m.name,
    ]);
  }
  const [a, b] = [verification({ deliveryStatus: 'queued' }), verification({ deliveryStatus: 'queued' })];
  for (const v of [a, b]) {
    await exec(
      `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
         created_at, expires_at, delivery_status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        v.id,
        v.accountId,
        v.groupId,
        v.channel,
        v.destination,
        v.codeHash,
        5,
        v.createdAt,
        v.expiresAt,
        'queued',
      ],
    );
  }
  await exec("UPDATE verifications SET status = 'verified', verified_at = created_at + 3000 WHERE id = ?", [
    a.id,
  ]);
  const store = await open();
  try {
    expect(await totals(store, 'provider')).toEqual({ '': { sent: 2, verified: 1, wrongCodes: 0 } });
    await store.recordDelivery(b.id, { deliveryStatus: 'sent', provider: 'ses', providerMessageId: 'm3' });
    const rows = await store.analytics(query('provider'));
    expect(rows.buckets.map((r) => [r.group, r.sent, r.verified])).toEqual([
      ['', 1, 1],
      ['ses', 1, 0],
    ]);
    expect(rows.ttv.reduce((n, r) => n + r.count, 0)).toBe(1);
  } finally {
    await store.close();
  }
}

describe('Analytics fold: upgrade from the folding triggers', () => {
  it('keeps the counts of a SQLite database journaled before it, folding none twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cv-fold-'));
    const path = join(dir, 'old.db');
    const raw = new BetterSqlite3(path);
    try {
      await upgradeKeepsCounts(
        'sqlite',
        async (sql, params) => {
          if (params) raw.prepare(sql).run(...params);
          else raw.exec(sql);
        },
        async () => {
          raw.close();
          return new SqliteStore(path);
        },
      );
    } finally {
      if (raw.open) raw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Analytics fold: wrong codes counted on their requests (migration 080)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cv-wrong-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  /** The analytics' wrong codes as a read of another connection sees them, folding nothing. */
  const unfoldedRead = (path: string) => {
    const raw = new BetterSqlite3(path, { readonly: true });
    try {
      const sql = analyticsSql('sqlite', query());
      const rows = raw.prepare(sql.buckets).all(...sql.bucketParams) as Array<{ wrong_codes: number }>;
      return rows.reduce((n, r) => n + r.wrong_codes, 0);
    } finally {
      raw.close();
    }
  };

  it('a read between a request settling and its fold counts its wrong codes once', async () => {
    const path = join(dir, 'verify.db');
    const store = new SqliteStore(path);
    try {
      const v = verification();
      await store.createVerifications([v]);
      await store.attempt('acc_1', v.id, T0 + 1000, () => null);
      await store.attempt('acc_1', v.id, T0 + 2000, () => null);
      // Pending: read from the request.
      expect(unfoldedRead(path)).toBe(2);
      await store.settleGroup(v.groupId, 'expired', v.expiresAt);
      // Settled, its row not folded yet: read from the request, through its unfolded row.
      expect(unfoldedRead(path)).toBe(2);
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 2 } });
      // Folded: from the bucket only.
      expect(unfoldedRead(path)).toBe(2);
      const raw = new BetterSqlite3(path, { readonly: true });
      expect(raw.prepare('SELECT sum(wrong_codes) FROM analytics_hourly').pluck().get()).toBe(2);
      raw.close();
    } finally {
      await store.close();
    }
  });

  it('an upgrade counts a wrong code journaled before it once, and those after it on the request', async () => {
    const path = join(dir, 'old.db');
    const raw = new BetterSqlite3(path);
    raw.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
    );
    for (const m of loadMigrations('sqlite').filter((m) => m.version < 80)) {
      raw.exec(m.sql);
      raw
        .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)')
        .run(m.version, m.name);
    }
    const v = verification();
    raw
      .prepare(
        `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
           created_at, expires_at, delivery_status, contact_id, attempts) VALUES (?, ?, ?, ?, ?, ?, 5, ?, ?, 'outbox', 'ct-1', 1)`,
      )
      .run(v.id, v.accountId, v.groupId, v.channel, v.destination, v.codeHash, v.createdAt, v.expiresAt);
    // The wrong code as the store journaled it before migration 080.
    raw
      .prepare(
        `INSERT INTO events (id, account_id, test, type, request_id, group_id, channel, contact_id, status, created_at)
         VALUES ('e-old', ?, 0, 'verification.attempt_failed', ?, ?, ?, 'ct-1', 'pending', ?)`,
      )
      .run(v.accountId, v.id, v.groupId, v.channel, T0 + 1000);
    raw.close();
    const store = new SqliteStore(path);
    try {
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 1 } });
      await store.attempt('acc_1', v.id, T0 + 2000, () => null);
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 2 } });
      await store.attempt('acc_1', v.id, T0 + 3000, pickFirst);
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 1, wrongCodes: 2 } });
      expect((await store.getContact('ct-1'))?.counts).toEqual({
        sends: 1,
        verified: 1,
        failed: 0,
        wrongCodes: 2,
      });
    } finally {
      await store.close();
    }
  });
});

describe.runIf(hasPostgres)('on PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    const store = new PostgresStore(db.url);
    await store.migrate();
    await store.close();
  });
  afterAll(() => db?.drop());

  readsSeeWrites('PostgreSQL', async () => {
    await truncateAll(db.url);
    return new PostgresStore(db.url);
  });

  it('keeps the counts of a database journaled before the upgrade, folding none twice', async () => {
    const old = await createTestDatabase();
    const client = new pg.Client({ connectionString: old.url });
    await client.connect();
    try {
      await upgradeKeepsCounts(
        'postgres',
        async (sql, params) => {
          let n = 0;
          await client.query(params ? sql.replace(/\?/g, () => `$${++n}`) : sql, params);
        },
        async () => {
          const store = new PostgresStore(old.url);
          await store.migrate();
          return store;
        },
      );
    } finally {
      await client.end();
      await old.drop();
    }
  });

  it('two stores folding while both send and verify count each event exactly once', async () => {
    await truncateAll(db.url);
    const a = new PostgresStore(db.url);
    const b = new PostgresStore(db.url);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      let sending = true;
      // Both instances' fan-outs (which fold) and analytics reads (which fold what is left) run
      // in loops the whole time, as the workers and an operator's dashboard would.
      const folders = [a, b].map(async (store) => {
        while (sending) {
          await store.webhooks.fanOut(Date.now(), 25, () => null);
          await store.analytics(query());
        }
      });
      const ids: string[] = [];
      for (let round = 0; round < 15; round++) {
        await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const store = i % 2 ? a : b;
            const v = verification({ createdAt: T0 + round * 1000 + i, country: i % 3 ? 'GB' : null });
            await store.createVerifications([v]);
            ids.push(v.id);
            // Every other request: a wrong code, then (every fourth) the right one, on the other store.
            if (i % 2 === 0)
              await (i % 4 ? a : b).attempt('acc_1', v.id, T0 + round * 1000 + 500, () => null);
            if (i % 4 === 0) await (i % 8 ? b : a).attempt('acc_1', v.id, T0 + round * 1000 + 900, pickFirst);
          }),
        );
      }
      sending = false;
      await Promise.all(folders);
      const rows = await a.analytics(query());
      const sum = (field: 'sent' | 'verified' | 'wrongCodes') =>
        rows.buckets.reduce((n, r) => n + r[field], 0);
      const journaled = async (type: string) =>
        Number(
          (
            await client.query('SELECT count(*)::int AS n FROM events WHERE type = $1', [
              `verification.${type}`,
            ])
          ).rows[0].n,
        );
      expect(ids).toHaveLength(300);
      expect(await journaled('created')).toBe(300);
      expect(sum('sent')).toBe(300);
      expect(sum('verified')).toBe(await journaled('verified'));
      expect(sum('verified')).toBe(75);
      // Wrong codes are counted on their requests (migration 080): the read adds those of the
      // requests still pending to the folded ones of the settled requests.
      const wrong = async (where: string) =>
        Number(
          (await client.query(`SELECT coalesce(sum(wrong_codes), 0)::int AS n FROM verifications ${where}`))
            .rows[0].n,
        );
      expect(await journaled('attempt_failed')).toBe(0);
      expect(sum('wrongCodes')).toBe(await wrong(''));
      expect(sum('wrongCodes')).toBe(150);
      expect(rows.ttv.reduce((n, r) => n + r.count, 0)).toBe(75);
      // The hourly buckets hold the same sums as the daily ones, and no row is left unfolded.
      const hourly = await client.query(
        'SELECT sum(sent)::int AS sent, sum(verified)::int AS verified, sum(wrong_codes)::int AS wrong FROM analytics_hourly',
      );
      expect(hourly.rows[0]).toEqual({
        sent: 300,
        verified: 75,
        wrong: await wrong("WHERE status <> 'pending'"),
      });
      expect(await wrong("WHERE status <> 'pending'")).toBe(75);
      const left = await client.query('SELECT count(*)::int AS n FROM events WHERE NOT folded');
      expect(left.rows[0].n).toBe(0);
    } finally {
      await client.end();
      await a.close();
      await b.close();
    }
  }, 120_000);

  it('two first sends to a destination in concurrent transactions name two ids and count on one contact', async () => {
    await truncateAll(db.url);
    const store = new PostgresStore(db.url);
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      // No country: the country's hour counter would make the second wait for the first's commit.
      const to = { destination: '+447700900888', country: null };
      const first = verification({ ...to, channel: 'SMS', contactId: 'ct-a' });
      const second = verification({
        ...to,
        channel: 'WHATSAPP',
        createdAt: T0 + 1000,
        contactId: 'ct-b',
        maxAttempts: 1,
      });
      // The first send's transaction has not committed when the second's statement reads.
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO verifications (id, account_id, group_id, channel, destination, country, code_hash, max_attempts,
           created_at, expires_at, delivery_status, contact_id, masked, test)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 5, $8, $9, 'outbox', $10, '+4*******0888', false)`,
        [
          first.id,
          first.accountId,
          first.groupId,
          first.channel,
          first.destination,
          first.country,
          first.codeHash,
          first.createdAt,
          first.expiresAt,
          first.contactId,
        ],
      );
      await store.createVerifications([second]);
      await other.query('COMMIT');
      const named = await other.query('SELECT id, contact_id FROM verifications ORDER BY created_at');
      expect(named.rows.map((r) => r.contact_id)).toEqual(['ct-a', 'ct-b']);

      await store.attempt('acc_1', second.id, T0 + 2000, () => null);
      await store.attempt('acc_1', first.id, T0 + 3000, pickFirst);
      await store.settleGroup(second.groupId, 'failed', T0 + 4000);
      const found = await store.searchContacts('acc_1', to.destination, 10);
      expect(found).toHaveLength(1);
      expect(found[0]?.counts).toEqual({ sends: 2, verified: 1, failed: 1, wrongCodes: 1 });
      const history = await store.contactHistory(found[0] as NonNullable<(typeof found)[0]>, 10);
      expect(history.map((h) => h.requestId)).toEqual([second.id, first.id]);
      // A send after the fold names the contact's id.
      const third = verification({ ...to, channel: 'SMS', createdAt: T0 + 5000, contactId: 'ct-c' });
      await store.createVerifications([third]);
      expect((await store.listEvents({ requestId: third.id, limit: 1 }))[0]?.contactId).toBe(found[0]?.id);
    } finally {
      await other.end();
      await store.close();
    }
  });
});
