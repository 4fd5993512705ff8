import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NewVerification } from '../../src/domain/types.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { WebhookEventData } from '../../src/webhooks/events.js';
import { migratedTestDatabase, truncateAll } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { claimAll, everyEventEndpoint, firstCode, LIVE_DAYS_OF_ACC_1, T0, verification } from './fixtures.js';

/**
 * Migration 187: the `created` changes of one send statement are one row of `change_sets`, their
 * requests' ids in an array, instead of a `changes` row each; the fold reads both tables in seq
 * order, a set's changes one by one, each at its request's created_at.
 */
describe.runIf(hasPostgres)('PostgreSQL: the sends of one statement logged as one set of changes', () => {
  const url = migratedTestDatabase();
  let store: PostgresStore;
  let db: pg.Client;
  beforeAll(async () => {
    db = new pg.Client({ connectionString: url() });
    await db.connect();
  });
  afterAll(() => db.end());
  beforeEach(async () => {
    await truncateAll(url());
    store = new PostgresStore(url());
    await store.webhooks.createEndpoint(everyEventEndpoint('we_sets'));
  });
  afterEach(() => store.close());

  /** Sends `rows` in one turn: the store writes them with one statement. */
  const inOneTurn = (rows: NewVerification[]) =>
    Promise.all(rows.map((row) => store.verifications.createVerifications([row])));
  const log = async () => ({
    changes: (await db.query('SELECT seq::int, kind, request_id FROM changes ORDER BY seq')).rows,
    sets: (await db.query('SELECT seq::int, kind, at, provider, request_ids::text[] AS ids FROM change_sets'))
      .rows,
  });
  const announced = async (): Promise<WebhookEventData[]> =>
    (await store.webhooks.claimDue(claimAll())).map(
      (d) => (JSON.parse(d.payload) as { data: WebhookEventData }).data,
    );

  it('logs a turn of sends as one set, in id order, after the cancellations of the requests it supersedes', async () => {
    const first = verification({ destination: 'ann@example.com' });
    await store.verifications.createVerifications([first]);
    expect((await log()).sets).toHaveLength(1);
    expect(await store.readModel.fold(100)).toBe(1);

    const others = Array.from({ length: 11 }, (_, i) => verification({ createdAt: T0 + 1 + i }));
    const resend = verification({ destination: 'ann@example.com', createdAt: T0 + 20 });
    await inOneTurn([...others, resend]);
    const { changes, sets } = await log();
    // The superseded request's cancellation is a change of its own, logged before the set.
    expect(changes).toEqual([{ seq: expect.any(Number), kind: 'canceled', request_id: first.id }]);
    expect(sets).toEqual([
      {
        seq: expect.any(Number),
        kind: 'created',
        at: null,
        provider: 'outbox',
        ids: [...others, resend].map((v) => v.id),
      },
    ]);
    expect(sets[0].seq).toBeGreaterThan(changes[0].seq);
  });

  it('folds a set larger than the batch whole, each change at its own request time', async () => {
    const sent = Array.from({ length: 12 }, (_, i) => verification({ createdAt: T0 + i * 60_000 }));
    await inOneTurn(sent);
    expect(await store.readModel.fold(5)).toBe(12);
    expect(await store.readModel.fold(5)).toBe(0);
    expect(await log()).toEqual({ changes: [], sets: [] });

    const events = await announced();
    expect(events.map((e) => [e.type, e.requestId, Date.parse(e.timestamp)])).toEqual(
      sent.map((v) => ['verification.created', v.id, v.createdAt]),
    );
    const { buckets } = await store.readModel.analytics(LIVE_DAYS_OF_ACC_1);
    expect(buckets.reduce((n, b) => n + b.sent, 0)).toBe(12);
    const contacts = await db.query('SELECT count(*)::int AS n, sum(sends)::int AS sends FROM contacts');
    expect(contacts.rows[0]).toEqual({ n: 12, sends: 12 });
  });

  it('takes the log in seq order across both tables, within the batch', async () => {
    const a = Array.from({ length: 4 }, () => verification());
    await inOneTurn(a);
    const [settled] = a;
    if (settled === undefined) throw new Error('nothing sent');
    await store.verifications.attempt('acc_1', settled.id, T0 + 1_000, firstCode);
    const b = Array.from({ length: 4 }, () => verification());
    await inOneTurn(b);
    const { changes, sets } = await log();
    expect(changes.map((c) => c.kind)).toEqual(['verified']);
    expect(sets.map((s) => s.ids.length)).toEqual([4, 4]);

    // The first set (4) and the change after it (1) fill a batch of 5; the second set waits.
    expect(await store.readModel.fold(5)).toBe(5);
    expect((await log()).sets.map((s) => s.ids)).toEqual([b.map((v) => v.id)]);
    expect(await store.readModel.fold(5)).toBe(4);
    const events = await announced();
    expect(events.filter((e) => e.type === 'verification.verified').map((e) => e.requestId)).toEqual([
      settled.id,
    ]);
    expect(events.filter((e) => e.type === 'verification.created')).toHaveLength(8);
  });
});
