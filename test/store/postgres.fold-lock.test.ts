import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NewVerification } from '../../src/domain/types.js';
import { KnownDestinations } from '../../src/store/known-destinations.js';
import { PostgresFold } from '../../src/store/postgres/fold.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { PostgresWebhookStore } from '../../src/store/webhooks/postgres.js';
import { migratedTestDatabase, truncateAll } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { within } from '../support/wait.js';
import {
  claimAll,
  everyEventEndpoint,
  firstCode,
  guessOf,
  LIVE_DAYS_OF_ACC_1,
  MINUTE,
  T0,
  verification,
} from './fixtures.js';

/** What the requests of acc_1 hold, in the analytics' terms. */
async function truth(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT count(*)::int AS sent,
        count(*) FILTER (WHERE status = 'verified')::int AS verified,
        count(*) FILTER (WHERE status = 'canceled')::int AS canceled,
        count(*) FILTER (WHERE status = 'failed')::int AS failed,
        count(*) FILTER (WHERE status <> 'pending')::int AS settled,
        coalesce(sum(wrong_codes), 0)::int AS wrong_codes
      FROM verifications WHERE account_id = 'acc_1'`);
    return rows[0] as {
      sent: number;
      verified: number;
      canceled: number;
      failed: number;
      settled: number;
      wrong_codes: number;
    };
  } finally {
    await client.end();
  }
}

const totals = async (store: PostgresStore) => {
  const { buckets } = await store.readModel.analytics(LIVE_DAYS_OF_ACC_1);
  const sum = (f: 'sent' | 'verified' | 'canceled' | 'failed' | 'wrongCodes') =>
    buckets.reduce((a, b) => a + b[f], 0);
  return {
    sent: sum('sent'),
    verified: sum('verified'),
    canceled: sum('canceled'),
    failed: sum('failed'),
    wrongCodes: sum('wrongCodes'),
  };
};

/**
 * The fold on PostgreSQL with several instances on one database: one instance folds at a time
 * (an advisory lock), a read waits for the fold under way and then counts everything, and neither
 * the fold nor the webhook deliveries it queues hold anything a send or a verify waits for.
 */
describe.runIf(hasPostgres)('the PostgreSQL fold with several instances', () => {
  const url = migratedTestDatabase();
  /** Two "instances": each its own store and pool. */
  let a: PostgresStore;
  let b: PostgresStore;
  /** A fold whose batch a test holds open in `holder`'s transaction. */
  let pool: pg.Pool;
  let holder: pg.PoolClient;
  let folder: PostgresFold;

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: url(), max: 2 });
    // The database is dropped with FORCE after the suite: an idle client then hears of it.
    pool.on('error', () => undefined);
    folder = new PostgresFold(pool, new PostgresWebhookStore(pool));
  });
  afterAll(() => pool.end());
  beforeEach(async () => {
    await truncateAll(url());
    a = new PostgresStore(url());
    b = new PostgresStore(url());
    holder = await pool.connect();
  });
  afterEach(async () => {
    await holder.query('ROLLBACK').catch(() => undefined);
    holder.release();
    await a.close();
    await b.close();
  });

  const sendOn = async (store: PostgresStore, n: number, overrides: Partial<NewVerification> = {}) => {
    const rows = Array.from({ length: n }, () => verification(overrides));
    for (const row of rows) await store.verifications.createVerifications([row]);
    return rows;
  };
  /** Opens a transaction on `holder` and folds one batch of up to `limit` changes in it, uncommitted. */
  const holdBatch = async (limit: number) => {
    await holder.query('BEGIN');
    return folder.batchOn(holder, limit, T0, false);
  };

  it('folds on one instance at a time: another instance folds nothing meanwhile, and does not wait', async () => {
    await sendOn(a, 3);
    expect(await holdBatch(1)).toBe(1);
    const started = Date.now();
    // Two changes are free, but the fold is held: this instance leaves them to the holder.
    expect(await within(b.readModel.fold(1000), 5000, 'a fold beside a held one')).toBe(0);
    expect(Date.now() - started).toBeLessThan(2000);
    await holder.query('COMMIT');
    expect(await b.readModel.fold(1000)).toBe(2);
    expect(await b.readModel.fold(1000)).toBe(0);
  });

  it('lets a read wait for the fold under way, then count everything committed before it', async () => {
    await sendOn(a, 3);
    expect(await holdBatch(1)).toBe(1);
    let answered = false;
    const read = totals(b).then((t) => {
      answered = true;
      return t;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    await holder.query('COMMIT');
    expect(await within(read, 10_000, 'the read')).toMatchObject({ sent: 3 });
  });

  it('counts a batch whose new contact a fold of an older version made meanwhile, by running it again', async () => {
    const [sent] = await sendOn(a, 1);
    if (sent === undefined) throw new Error('nothing sent');
    // An older version's fold takes no advisory lock: its contact of the same destination, not yet
    // committed, holds the key when this fold inserts the contact it found missing.
    await holder.query('BEGIN');
    await holder.query(
      `INSERT INTO contacts (id, account_id, test, destination, channel, masked, first_seen, last_seen, sends)
       VALUES ('older-fold', $1, $2, $3, $4, 'm***', $5, $5, 1)`,
      [sent.accountId, sent.mode === 'test', sent.destination, sent.channel, sent.createdAt],
    );
    const folded = b.readModel.fold(1000);
    await new Promise((r) => setTimeout(r, 300));
    await holder.query('COMMIT');
    expect(await within(folded, 10_000, 'the fold')).toBe(1);
    const { rows } = await pool.query('SELECT id, sends FROM contacts WHERE destination = $1', [
      sent.destination,
    ]);
    expect(rows).toEqual([{ id: 'older-fold', sends: 2 }]);
  });

  it('never makes a send or a verify wait, while a batch holds its rows and queues webhook deliveries', async () => {
    await a.webhooks.createEndpoint(everyEventEndpoint('we_locks'));
    const destination = 'held@example.com';
    const [first] = await sendOn(a, 1, { destination });
    const [other] = await sendOn(a, 1);
    await a.verifications.attempt('acc_1', (other as NewVerification).id, T0 + MINUTE, guessOf(null));
    // The batch takes every change so far (two sends; a wrong code is counted when its request
    // settles): it holds their rows, the contacts and analytics rows it made or added to, and the
    // deliveries it queued, until it commits.
    expect(await holdBatch(1000)).toBe(2);
    const held = await holder.query<{ relation: string | null; locktype: string; mode: string }>(
      `SELECT c.relname AS relation, l.locktype, l.mode FROM pg_locks l LEFT JOIN pg_class c ON c.oid = l.relation
       WHERE l.pid = pg_backend_pid() AND l.granted`,
    );
    const holds = (relation: string) =>
      held.rows.some((l) => l.relation === relation && l.mode === 'RowExclusiveLock');
    for (const relation of ['changes', 'contacts', 'analytics_hourly', 'webhook_deliveries'])
      expect(holds(relation), relation).toBe(true);
    expect(held.rows.some((l) => l.locktype === 'advisory')).toBe(true);

    // Another instance, and one whose sends read the contact's block in their statement.
    const checking = new PostgresStore(url(), { known: new KnownDestinations(16) });
    try {
      for (const store of [b, checking]) {
        // A resend to the held contact supersedes the request the batch read.
        await within(sendOn(store, 1, { destination }), 5000, 'a send');
        await within(sendOn(store, 2), 5000, 'a send to a new destination');
      }
      const [mine] = await sendOn(b, 1);
      const id = (mine as NewVerification).id;
      await within(b.verifications.attempt('acc_1', id, T0 + MINUTE, guessOf(null)), 5000, 'a wrong code');
      expect(
        (await within(b.verifications.attempt('acc_1', id, T0 + MINUTE, firstCode), 5000, 'the right code'))
          .consumed,
      ).toBe(true);
      // The request the batch folded, verified.
      const otherId = (other as NewVerification).id;
      expect(
        (await within(b.verifications.attempt('acc_1', otherId, T0 + MINUTE, firstCode), 5000, 'a verify'))
          .consumed,
      ).toBe(true);
      await within(
        b.verifications.recordDelivery((first as NewVerification).id, {
          deliveryStatus: 'delivered',
          provider: 'smtp',
          providerMessageId: 'm-1',
          at: T0 + MINUTE,
        }),
        5000,
        'a delivery report',
      );
    } finally {
      await checking.close();
    }
    await holder.query('COMMIT');

    // Once everything is folded, the counts and the deliveries agree with the requests.
    const t = await truth(url());
    expect(await totals(b)).toEqual({
      sent: t.sent,
      verified: t.verified,
      canceled: t.canceled,
      failed: t.failed,
      wrongCodes: t.wrong_codes,
    });
    const payloads = (await b.webhooks.claimDue(claimAll())).map(
      (d) => JSON.parse(d.payload) as { type: string; data: { requestId: string } },
    );
    const created = payloads.filter((p) => p.type === 'verification.created');
    expect(created.length).toBe(t.sent);
  });

  it('counts every change once and queues each event once, with four instances folding at once', async () => {
    const instances = [a, b, new PostgresStore(url()), new PostgresStore(url())];
    try {
      await a.webhooks.createEndpoint(everyEventEndpoint('we_four'));
      let traffic = true;
      const folds: number[] = [];
      // Each instance folds as its timer would (every 10 ms here), small batches, while all send.
      const folding = instances.map(async (store) => {
        while (traffic) {
          folds.push(await store.readModel.fold(20));
          await new Promise((r) => setTimeout(r, 10));
        }
      });
      const shared = Array.from({ length: 5 }, (_, i) => `shared-${i}@example.com`);
      const sending = instances.map(async (store, i) => {
        for (let n = 0; n < 40; n++) {
          // Every fourth send goes to a destination the other instances send to: a supersede.
          const [row] = await sendOn(store, 1, n % 4 === 0 ? { destination: shared[n % 5] } : {});
          const id = (row as NewVerification).id;
          if (n % 3 === 0) await store.verifications.attempt('acc_1', id, T0 + MINUTE, guessOf(null));
          if (n % 2 === 0) await store.verifications.attempt('acc_1', id, T0 + MINUTE, firstCode);
          if (n % 7 === i) await store.verifications.settleGroup(id, 'failed', T0 + 2 * MINUTE);
        }
      });
      await Promise.all(sending);
      traffic = false;
      await Promise.all(folding);
      expect(folds.some((n) => n > 0)).toBe(true);

      const t = await truth(url());
      expect(t.sent).toBe(160);
      expect(await totals(instances[2] as PostgresStore)).toEqual({
        sent: t.sent,
        verified: t.verified,
        canceled: t.canceled,
        failed: t.failed,
        wrongCodes: t.wrong_codes,
      });
      // One delivery per event: a change folded twice would have queued its event twice.
      const payloads = (await a.webhooks.claimDue({ ...claimAll(), main: 10_000 })).map(
        (d) => JSON.parse(d.payload) as { type: string; data: { requestId: string } },
      );
      const keys = payloads.map((p) => `${p.type} ${p.data.requestId}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.length).toBe(t.sent + t.settled);
    } finally {
      for (const store of instances.slice(2)) await store.close();
    }
  }, 60_000);
});
