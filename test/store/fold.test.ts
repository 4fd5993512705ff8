import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsQuery } from '../../src/domain/ports/read-model.js';
import type { Store } from '../../src/store/factory.js';
import { loadMigrations } from '../../src/store/migrations.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createTestDatabase, migratedTestDatabase, truncateAll } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { claimAll, DAY, firstCode, guessOf, T0, verification } from './fixtures.js';

/**
 * The analytics buckets are folded from the change log in batches (migration 100), by the fold
 * worker of every instance and before each analytics read: a read sees every change committed
 * before it, a send counts under the provider that took it whichever comes first, and
 * concurrent folds count each change once.
 */
const query = (groupBy?: AnalyticsQuery['groupBy']): AnalyticsQuery => ({
  accountId: 'acc_1',
  mode: 'live',
  from: T0 - DAY,
  to: T0 + DAY,
  intervalMs: DAY,
  groupBy,
});
const pickFirst = firstCode;
const totals = async (store: Store, groupBy?: AnalyticsQuery['groupBy']) => {
  const rows = await store.readModel.analytics(query(groupBy));
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
      await store.verifications.createVerifications([v]);
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 0 } });
      await store.verifications.attempt('acc_1', v.id, T0 + 1000, guessOf(null));
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 1 } });
      await store.verifications.attempt('acc_1', v.id, T0 + 2000, pickFirst);
      const rows = await store.readModel.analytics(query());
      expect(rows.buckets[0]).toMatchObject({ sent: 1, verified: 1, wrongCodes: 1 });
      expect(rows.ttv).toEqual([{ start: T0 - (T0 % DAY), group: '', bin: 0, count: 1 }]);
      // Nothing pending: the next read adds nothing twice.
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 1, wrongCodes: 1 } });
    });

    it('a send counts under the provider that took it, folded before or after the provider came', async () => {
      const early = verification({ deliveryStatus: 'queued' });
      await store.verifications.createVerifications([early]);
      // Folded by this read while no provider had the message: under ''.
      expect(await totals(store, 'provider')).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 0 } });
      await store.verifications.recordDelivery(early.id, {
        at: T0 + 1,
        deliveryStatus: 'sent',
        provider: 'ses',
        providerMessageId: 'm1',
      });
      const late = verification({ deliveryStatus: 'queued' });
      await store.verifications.createVerifications([late]);
      // Taken by the provider before any fold reached it.
      await store.verifications.recordDelivery(late.id, {
        at: T0 + 2,
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
 * A database of the journal (migrations before 100) upgraded to the change log: the counts its
 * old fold made stay, the journal rows it had not folded are folded once, those it had folded but
 * not published to webhooks are published (and not counted again), and a send counted under no
 * provider still moves to its provider's bucket.
 */
async function upgradeFromTheJournal(
  dialect: 'sqlite' | 'postgres',
  exec: (sql: string, params?: unknown[]) => Promise<void>,
  open: () => Promise<Store>,
) {
  const pg = dialect === 'postgres';
  const sqlFor = (sql: string) => {
    let n = 0;
    return pg ? sql.replace(/\?/g, () => `$${++n}`) : sql;
  };
  const run = (sql: string, params?: unknown[]) => exec(sqlFor(sql), params);
  await run(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  );
  for (const m of loadMigrations(dialect).filter((m) => m.version < 100)) {
    await exec(m.sql);
    await run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)', [
      m.version,
      m.name,
    ]);
  }
  const [folded, unfolded, unpublished] = [
    verification({ deliveryStatus: 'queued' }),
    verification({ deliveryStatus: 'queued' }),
    verification({ outbox: '{"v":1,"request":{"code":"123456"}}' }),
  ];
  // Inserted in this order, the old triggers journal them as rows 1, 2 and 3.
  for (const v of [folded, unpublished, unfolded])
    await run(
      `INSERT INTO verifications (id, account_id, group_id, channel, destination, code_hash, max_attempts,
         created_at, expires_at, delivery_status, outbox, masked, test)
       VALUES (?, ?, ?, ?, ?, ?, 5, ?, ?, ?, ?, 'u***@example.com', ?)`,
      [
        v.id,
        v.accountId,
        v.groupId,
        v.channel,
        v.destination,
        v.codeHash,
        v.createdAt,
        v.expiresAt,
        v.deliveryStatus,
        v.outbox,
        pg ? false : 0,
      ],
    );
  // The old fold counted the first two; folding the first marked it counted under no provider.
  await run(
    `INSERT INTO analytics_hourly (account_id, test, hour, channel, country, purpose, provider, sent)
     VALUES ('acc_1', ?, ?, 'EMAIL', '', '', '', 2)`,
    [pg ? false : 0, T0 - (T0 % 3_600_000)],
  );
  await run(
    `INSERT INTO analytics_daily (account_id, test, day, channel, country, purpose, provider, sent)
     VALUES ('acc_1', ?, ?, 'EMAIL', '', '', '', 2)`,
    [pg ? false : 0, T0 - (T0 % DAY)],
  );
  await run(`UPDATE verifications SET sent_unplaced = ? WHERE id = ?`, [pg ? true : 1, folded.id]);
  if (pg) {
    await run('UPDATE events SET folded = true, published = true WHERE seq = 1');
    await run('UPDATE events SET folded = true, published = false WHERE seq = 2');
    await run('UPDATE events SET folded = false, published = false WHERE seq = 3');
  } else {
    await run('UPDATE analytics_fold SET last_seq = 2');
    await run('UPDATE webhook_fanout SET last_seq = 1');
  }
  await run(
    `INSERT INTO webhook_endpoints (id, account_id, url, events, enabled, secret, created_at)
     VALUES ('we_1', 'acc_1', 'https://example.com/hooks', 'verification.created,verification.verified', ?, 's', 0)`,
    [pg ? true : 1],
  );
  const store = await open();
  try {
    expect(await totals(store, 'provider')).toEqual({ '': { sent: 3, verified: 0, wrongCodes: 0 } });
    await store.verifications.recordDelivery(folded.id, {
      at: T0 + 1,
      deliveryStatus: 'sent',
      provider: 'ses',
      providerMessageId: 'm3',
    });
    const rows = await store.readModel.analytics(query('provider'));
    expect(rows.buckets.map((r) => [r.group, r.sent])).toEqual([
      ['', 2],
      ['ses', 1],
    ]);
    // Published once each: the event the old fold had counted but not published, and the one it
    // had not reached; the code of the pending outbox message moved beside it, masked in it.
    const due = await store.webhooks.claimDue(claimAll());
    expect(
      due.map((d) => (JSON.parse(d.payload) as { data: { requestId: string } }).data.requestId).sort(),
    ).toEqual([unfolded.id, unpublished.id].sort());
    const [kept] = await store.verifications.listOutbox({ limit: 5 });
    expect(kept).toMatchObject({ verificationId: unpublished.id, code: '123456' });
    expect(JSON.parse(kept?.content as string)).toEqual({ v: 1, request: { code: '******' } });
  } finally {
    await store.close();
  }
}

describe('Analytics fold: upgrade from the journal', () => {
  it('keeps the counts of a SQLite database, folding none twice and publishing each once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cv-fold-'));
    const path = join(dir, 'old.db');
    const raw = new BetterSqlite3(path);
    try {
      await upgradeFromTheJournal(
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

describe('Analytics fold: wrong codes counted on their requests', () => {
  it('a read after a request settled counts its wrong codes once, before and after the fold', async () => {
    const store = new SqliteStore(':memory:');
    try {
      const v = verification();
      await store.verifications.createVerifications([v]);
      await store.verifications.attempt('acc_1', v.id, T0 + 1000, guessOf(null));
      await store.verifications.attempt('acc_1', v.id, T0 + 2000, guessOf(null));
      // Pending: read from the request.
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 2 } });
      await store.verifications.settleGroup(v.groupId, 'expired', v.expiresAt);
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 2 } });
      expect(await store.readModel.fold(100)).toBe(0);
      expect(await totals(store)).toEqual({ '': { sent: 1, verified: 0, wrongCodes: 2 } });
    } finally {
      await store.close();
    }
  });
});

describe.runIf(hasPostgres)('on PostgreSQL', () => {
  const url = migratedTestDatabase();
  const db = {
    get url() {
      return url();
    },
  };

  readsSeeWrites('PostgreSQL', async () => {
    await truncateAll(db.url);
    return new PostgresStore(db.url);
  });

  it('keeps the counts of a database journaled before the upgrade, folding none twice and publishing each once', async () => {
    const old = await createTestDatabase();
    const client = new pg.Client({ connectionString: old.url });
    await client.connect();
    try {
      await upgradeFromTheJournal(
        'postgres',
        async (sql, params) => {
          await client.query(sql, params);
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
      // Both instances' folds and analytics reads (which fold what is left) run in loops the
      // whole time, as the fold workers and an operator's dashboard would.
      const folders = [a, b].map(async (store) => {
        while (sending) {
          await store.readModel.fold(25);
          await store.readModel.analytics(query());
        }
      });
      const ids: string[] = [];
      for (let round = 0; round < 15; round++) {
        await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const store = i % 2 ? a : b;
            const v = verification({ createdAt: T0 + round * 1000 + i, country: i % 3 ? 'GB' : null });
            await store.verifications.createVerifications([v]);
            ids.push(v.id);
            // Every other request: a wrong code, then (every fourth) the right one, on the other store.
            if (i % 2 === 0)
              await (i % 4 ? a : b).verifications.attempt(
                'acc_1',
                v.id,
                T0 + round * 1000 + 500,
                guessOf(null),
              );
            if (i % 4 === 0)
              await (i % 8 ? b : a).verifications.attempt('acc_1', v.id, T0 + round * 1000 + 900, pickFirst);
          }),
        );
      }
      sending = false;
      await Promise.all(folders);
      const rows = await a.readModel.analytics(query());
      const sum = (field: 'sent' | 'verified' | 'wrongCodes') =>
        rows.buckets.reduce((n, r) => n + r[field], 0);
      const stored = async (where: string) =>
        Number((await client.query(`SELECT count(*)::int AS n FROM verifications ${where}`)).rows[0].n);
      expect(ids).toHaveLength(300);
      expect(await stored('')).toBe(300);
      expect(sum('sent')).toBe(300);
      expect(sum('verified')).toBe(await stored("WHERE status = 'verified'"));
      expect(sum('verified')).toBe(75);
      // Wrong codes are counted on their requests: the read adds those of the requests still
      // pending to the folded ones of the settled requests.
      const wrong = async (where: string) =>
        Number(
          (await client.query(`SELECT coalesce(sum(wrong_codes), 0)::int AS n FROM verifications ${where}`))
            .rows[0].n,
        );
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
      const left = await client.query('SELECT count(*)::int AS n FROM changes');
      expect(left.rows[0].n).toBe(0);
    } finally {
      await client.end();
      await a.close();
      await b.close();
    }
  }, 120_000);

  it('two first sends to a destination in concurrent transactions count on one contact', async () => {
    await truncateAll(db.url);
    const store = new PostgresStore(db.url);
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      const to = { destination: '+447700900888', country: null };
      const first = verification({ ...to, channel: 'SMS' });
      const second = verification({ ...to, channel: 'WHATSAPP', createdAt: T0 + 1000, maxAttempts: 1 });
      // The first send's transaction has not committed when the second's statement runs.
      await other.query('BEGIN');
      await other.query(
        `WITH r AS (
           INSERT INTO verifications (id, account_id, group_id, channel, destination, country, code_hash, max_attempts,
             created_at, expires_at, delivery_status, masked, test)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 5, $8, $9, 'outbox', '+4*******0888', false) RETURNING id, created_at)
         INSERT INTO changes (kind, request_id, at, provider) SELECT 'created', id, created_at, 'outbox' FROM r`,
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
        ],
      );
      await store.verifications.createVerifications([second]);
      // A fold meanwhile takes what is committed, and never waits for the open transaction.
      expect(await store.readModel.fold(100)).toBe(1);
      await other.query('COMMIT');

      await store.verifications.attempt('acc_1', second.id, T0 + 2000, guessOf(null));
      await store.verifications.attempt('acc_1', first.id, T0 + 3000, pickFirst);
      const found = await store.readModel.searchContacts('acc_1', to.destination, 10);
      expect(found).toHaveLength(1);
      expect(found[0]?.counts).toEqual({ sends: 2, verified: 1, failed: 1, wrongCodes: 1 });
      const history = await store.readModel.contactHistory(found[0] as NonNullable<(typeof found)[0]>, 10);
      expect(history.map((h) => h.requestId)).toEqual([second.id, first.id]);
    } finally {
      await other.end();
      await store.close();
    }
  });
});
