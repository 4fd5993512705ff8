import type pg from 'pg';
import { timeOrderedUuid } from '../../domain/ids.js';
import type { WebhookEvent } from '../../webhooks/events.js';
import { foldSql, rowToWebhookEvent } from '../fold.js';
import { ANY_ENDPOINT_ENABLED, type PostgresWebhookStore } from '../webhooks/postgres.js';
import { ADVISORY_LOCKS } from './advisory-locks.js';
import { isRetryable, isUniqueViolation, toStoreError } from './pg-errors.js';
import { PLANNED_ONCE_IN_TRANSACTION } from './planned-once.js';
import { inTransaction, type Runner } from './transaction.js';

/**
 * One batch of the fold as one statement, run under the fold's advisory lock: it deletes the first
 * `$1` changes and adds them up in the same statement, so every instance folds without ever holding a
 * lock a send waits on. With `events`, it also returns the batch's events, the contacts made by
 * this very statement included.
 */
function batchSql(events: boolean): string {
  const sql = foldSql('postgres', 'per c', { sums: 'sums', ttv: 'ttvs' });
  // No FOR UPDATE: the fold's advisory lock keeps a batch alone, and a row lock would write a WAL
  // record per change (54 bytes) before its delete writes another. Beside an older version that
  // takes no advisory lock, a delete waits for the other batch's and leaves out the rows it took
  // (DELETE … RETURNING returns only what this statement deleted): no change is folded twice.
  // The log's first rows in seq order over both tables, as many as hold $1 changes (a set holds
  // as many as it has requests; the first row is taken whatever its size, so none is left behind).
  const take = `SELECT seq FROM (
      SELECT seq, n, sum(n) OVER (ORDER BY seq) AS upto FROM (
        (SELECT seq, 1 AS n FROM changes ORDER BY seq LIMIT $1)
        UNION ALL
        (SELECT seq, cardinality(request_ids) AS n FROM change_sets ORDER BY seq LIMIT $1)
      ) logged
    ) counted WHERE upto <= $1 OR upto = n`;
  const [hourly, daily, ttv, ttvDaily] = sql.upserts;
  const contacts = sql.contactsApart('contact_batch');
  // A join with the taken rows, not seq = ANY(ARRAY(...)): an array of a parameter's elements is
  // searched element by element for every row (a batch of 1,000 changes: a million comparisons,
  // 1.6 of the fold's 15 ms). Every part reads the changes from `per` (each change's request and
  // contact looked up once), and no part joins the result of another: a plan kept from a first,
  // small batch then holds for a batch of any size.
  // The changes and the sets of changes (migration 187) taken, each set's requests one change
  // each, after their set's seq in their order (`part`; 0 for a change of its own). A set of
  // `created` changes has no time of its own: each is its request's created_at (perChange).
  return `WITH take AS MATERIALIZED (${take}),
    taken AS (DELETE FROM changes d USING take t WHERE d.seq = t.seq
      RETURNING d.seq, d.kind, d.at, d.request_id, d.contact_id, d.provider),
    sets AS (DELETE FROM change_sets d USING take t WHERE d.seq = t.seq RETURNING d.*),
    batch AS (SELECT seq, 0::bigint AS part, kind, at, request_id, contact_id, provider FROM taken
      UNION ALL
      SELECT s.seq, r.part, s.kind, s.at, r.id::text, NULL, s.provider
      FROM sets s CROSS JOIN LATERAL unnest(s.request_ids) WITH ORDINALITY r(id, part)),
    per AS MATERIALIZED (${sql.perChange('batch')}),
    sums AS MATERIALIZED (${sql.sumsByHour}), ttvs AS MATERIALIZED (${sql.ttvByHour}),
    hourly AS (${hourly}), daily AS (${daily}), ttv AS (${ttv}), ttv_daily AS (${ttvDaily}),
    contact_batch AS MATERIALIZED (${sql.contactsKnown}),
    made AS (${contacts.made}), counted AS (${contacts.counted})
    ${events ? sql.events : 'SELECT count(*) AS n FROM batch'}`;
}

const STATEMENTS = {
  counts: { name: 'fold_batch', text: batchSql(false) },
  events: { name: 'fold_batch_events', text: batchSql(true) },
};

/**
 * The fold's advisory lock: taken if free (a timer's fold), or waited for (a read's); and, in the
 * same statement (a round trip less per batch), whether an endpoint is enabled, read once (OFFSET
 * 0 keeps the subquery whole).
 *
 * The batch is planned once per connection, as the send's and the verify's statements are: the
 * planned-once settings, for this transaction only. Planning it took more of the server than
 * running it (pg_stat_statements under bench/service-hotpath: about 1 ms of planning a batch of 50
 * changes, against 1.5 of running). Every table it reads is read by index whatever the statistics
 * (foldSql's joinEach), and no part joins the result of another, so the plan it keeps holds as
 * the tables and the batches grow (test/store/postgres.plans.test.ts).
 *
 * The lock's key is written into the text: a statement without parameters keeps its first plan
 * (with them, the server planned this one at every run, 75 µs a batch).
 */
const FOLD_LOCK = ADVISORY_LOCKS.fold.join(', ');
const locked = (
  held: string,
  from = '',
) => `SELECT l.held, l.endpoints, ${PLANNED_ONCE_IN_TRANSACTION} AS planned_once
  FROM (SELECT ${held} AS held, ${ANY_ENDPOINT_ENABLED} AS endpoints${from} OFFSET 0) l`;
const LOCK = {
  take: { name: 'fold_lock_take', text: locked(`pg_try_advisory_xact_lock(${FOLD_LOCK})`) },
  wait: { name: 'fold_lock_wait', text: locked('true', ` FROM pg_advisory_xact_lock(${FOLD_LOCK})`) },
};

/**
 * The fold of the change log on PostgreSQL (src/store/fold.ts). seq values are taken before
 * commit, so there is no cursor: a batch is the changes one statement deletes.
 *
 * One instance folds at a time: each batch is a transaction that first takes the fold's advisory
 * lock (ADVISORY_LOCKS.fold), and an instance whose timer finds it held folds nothing this time
 * (the holder folds what it would have), rather than run its batch beside the holder's: batches
 * that run together meet on the same analytics and contact rows (one waits for the other, or a
 * deadlock rolls one back) and each pays the statement's planning for a share of the rows. The
 * rows are deleted without being locked first (no WAL record of a row lock per change); beside an
 * older version that takes no advisory lock, the two deletes meet on a row and the later one
 * leaves it out, so batches stay disjoint. Neither the lock nor the rows a batch holds (changes, analytics
 * buckets, contacts, webhook deliveries) is anything a send or a verify waits for: those insert
 * changes and read contacts without locking them (test/store/postgres.fold-lock.test.ts).
 */
export class PostgresFold {
  constructor(
    private readonly pool: pg.Pool,
    private readonly webhooks: PostgresWebhookStore,
  ) {}

  /**
   * Folds up to `limit` changes, in a transaction of its own; returns how many (0 when another
   * instance is folding). `wait`: waits for a fold under way instead, and takes also the changes
   * another fold holds (they are gone once it commits), so that a read after it counts everything
   * committed before.
   */
  async run(limit: number, now: number, wait = false): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.pool, (client) => this.batchOn(client, limit, now, wait));
      } catch (err) {
        // A batch that meets another writer on a bucket row may be rolled back, and one that meets
        // a contact another version's fold made meanwhile (it takes no advisory lock) fails on the
        // contact's key: either simply runs again.
        if (!(isRetryable(err) || isUniqueViolation(err)) || attempt >= 3) throw toStoreError(err);
      }
    }
  }

  /**
   * One batch on `client`, in a transaction its caller opened and ends: the fold's lock, then the
   * batch, with the webhook deliveries of its events when an endpoint is enabled. Returns how many
   * changes it folded; 0, at once, when another instance holds the lock and `wait` is false.
   */
  async batchOn(client: Runner, limit: number, now: number, wait: boolean): Promise<number> {
    const { rows: lock } = await client.query(wait ? LOCK.wait : LOCK.take);
    if (lock[0]?.held !== true) return 0;
    if (lock[0]?.endpoints !== true) {
      const { rows } = await client.query({ ...STATEMENTS.counts, values: [limit] });
      return Number(rows[0]?.n ?? 0);
    }
    const { rows } = await client.query({ ...STATEMENTS.events, values: [limit] });
    const events: WebhookEvent[] = [];
    for (const row of rows) {
      const event = rowToWebhookEvent(row, timeOrderedUuid(Number(row.at)));
      if (event) events.push(event);
    }
    await this.webhooks.enqueueOn(client, events, now);
    return rows.length;
  }

  /** Folds every change committed so far, waiting for folds under way. */
  async all(now: number, batchSize = 5_000): Promise<void> {
    while ((await this.run(batchSize, now, true)) >= batchSize) {
      // a full batch: more may wait
    }
  }
}
