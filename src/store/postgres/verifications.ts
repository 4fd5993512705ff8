import { timeOrderedUuidFloor } from '../../domain/ids.js';
import { maskDestination } from '../../domain/masking.js';
import type {
  AttemptOutcome,
  CodeGuess,
  DeliveryRecord,
  LinkedRequest,
  OutboxEntry,
  OutboxFilter,
  SweepResult,
  Verifications,
} from '../../domain/ports/verifications.js';
import type { Channel, DeliveryStatus, Mode, NewVerification } from '../../domain/types.js';
import { refusalParams, refusalSql } from '../analytics.js';
import { refusedSend } from '../blocks.js';
import type { DestinationFilter } from '../known-destinations.js';
import { postgresMode } from '../mode.js';
import {
  attemptOutcome,
  attemptReadFor,
  noRequestForOutbox,
  pickWinner,
  rowToLinkedRequest,
  rowToOutboxEntry,
  rowToVerification,
} from '../rows.js';
import type { PostgresConnection } from './connection.js';
import { SQL } from './statements.js';
import { firstPerKey, rowsPerCall, settleBatch, TurnBatch } from './turn-batch.js';

/** A row of readGroup: the request, and one live row of its group (or nulls). */
type AttemptRow = Record<string, unknown>;
interface SendCall {
  rows: NewVerification[];
  resolve: () => void;
  reject: (err: unknown) => void;
}
interface ReadCall {
  requestId: string;
  accountId: string;
  test: boolean;
  now: number;
  resolve: (rows: AttemptRow[]) => void;
  reject: (err: unknown) => void;
}
/** An attempt tried in one statement (tryAttempts); `hashes`: CodeGuess.hashesFor's, one or two. */
interface TryCall extends Omit<ReadCall, 'resolve'> {
  scope: string | null;
  hashes: Buffer[];
  resolve: (tried: Tried) => void;
}
/**
 * What tryAttempts found of one attempt: the rows readGroup would have read and, when the request
 * was its group's only live row (`alone`), the row its update decided (none: it had moved on).
 */
interface Tried {
  read: AttemptRow[];
  alone: boolean;
  decided: AttemptRow | null;
}
/** A magic link's use (consumeLink), batched per turn as the attempts are. */
interface LinkCall {
  hashes: readonly Buffer[];
  now: number;
  resolve: (used: { request: LinkedRequest; consumed: boolean } | null) => void;
  reject: (err: unknown) => void;
}
interface DecideCall {
  groupId: string;
  /** The request the guess was made on: a wrong guess is counted on it. */
  requestId: string;
  winnerId: string | null;
  now: number;
  resolve: (rows: AttemptRow[]) => void;
  reject: (err: unknown) => void;
}

/**
 * Verification requests and their attempts on PostgreSQL. The sends of one event-loop turn are
 * one statement, and so are the reads and the decisions of its verify attempts (TurnBatch).
 */
export class PostgresVerifications implements Verifications {
  /** The sends of the current event-loop turn, written together (see createVerifications). */
  private readonly sends = new TurnBatch<SendCall>((batch) => this.writeSendBatch(batch));
  /** The verify attempts of one event-loop turn that carry their hashes, tried together (see attempt). */
  private readonly tries = new TurnBatch<TryCall>((batch) => this.tryBatch(batch));
  /** The first halves of the verify attempts of one event-loop turn, read together (see attempt). */
  private readonly reads = new TurnBatch<ReadCall>((batch) => this.readBatch(batch));
  /** The second halves of the verify attempts of one event-loop turn, decided together. */
  private readonly decisions = new TurnBatch<DecideCall>((batch) => this.decideBatch(batch));
  /** The magic link uses of one event-loop turn, consumed together (see consumeLink). */
  private readonly links = new TurnBatch<LinkCall>((batch) => this.linkBatch(batch));

  constructor(
    private readonly db: PostgresConnection,
    private readonly known: DestinationFilter | null = null,
  ) {}

  /** Writes the sends and attempts of the current turn (before the pool closes). */
  async flush(): Promise<void> {
    await this.sends.flush();
    await this.tries.flush();
    await this.reads.flush();
    await this.decisions.flush();
    await this.links.flush();
  }

  /**
   * Sends are written in batches: those that arrive in one event-loop turn go to the database as
   * one statement and one commit, as SQLite's group commit does; each resolves once that
   * statement has committed. A conflict inside the batch (two sends to one destination, a lost
   * race with another instance, a bad row) fails the whole statement; the sends of that batch
   * then run one by one, in arrival order, so each gets its own outcome and a later send still
   * supersedes an earlier one.
   */
  createVerifications(rows: NewVerification[]): Promise<void> {
    for (const v of rows) this.known?.add(v.accountId, v.mode, v.destination);
    return new Promise((resolve, reject) => this.sends.add({ rows, resolve, reject }));
  }

  private async writeSendBatch(batch: SendCall[]): Promise<void> {
    await settleBatch(
      batch,
      async (sends) => {
        const blocked = await this.supersedeAndInsert(sends.flatMap((send) => send.rows));
        const refusals: Array<Promise<void>> = [];
        for (const send of sends) {
          const refused = send.rows.find((v) => blocked.has(v));
          if (refused) refusals.push(this.refuse(send, refused));
          else send.resolve();
        }
        await Promise.all(refusals);
        return [];
      },
      (send) => this.insertSend(send),
    );
  }

  /** One send's rows on their own, superseding whatever is pending for their destinations. */
  private async insertSend(send: SendCall): Promise<void> {
    // A send that raced another one to the same destination lost on verifications_one_live; its
    // next try sees the winner's row and supersedes it. Each lost race means another send
    // committed, so the retries are few; the bound only guards against a livelock.
    for (let attempt = 1; ; attempt++) {
      try {
        const blocked = await this.supersedeAndInsert(send.rows);
        const refused = send.rows.find((v) => blocked.has(v));
        if (refused) await this.refuse(send, refused);
        else send.resolve();
        return;
      } catch (err) {
        const lostRace = (err as { constraint?: string }).constraint === 'verifications_one_live';
        if (!lostRace || attempt >= 10) return send.reject(err);
      }
    }
  }

  /** A send the statement left out for its blocked row `blocked`: counted, then refused (blocks.ts). */
  private async refuse(send: SendCall, blocked: NewVerification): Promise<void> {
    const { error, refusal } = refusedSend(blocked);
    try {
      await this.db.query(refusalSql('postgres'), refusalParams(refusal, 'postgres'));
    } catch {
      // Only a count is lost: the send is refused all the same.
    }
    send.reject(error);
  }

  /** Writes the rows, leaving out each send (group) with a blocked destination: returns those rows. */
  private async supersedeAndInsert(rows: NewVerification[]): Promise<Set<NewVerification>> {
    const col = <K extends keyof NewVerification>(k: K) => rows.map((v) => v[k]);
    // Only a screen this store's filter answered may have skipped the read of a block (blocks.ts).
    const statement = this.known ? SQL.supersedeAndInsertCheckingBlocks : SQL.supersedeAndInsert;
    const { rows: blocked } = await this.db.query<{ n: string }>(statement, [
      col('id'),
      col('accountId'),
      col('groupId'),
      col('channel'),
      col('destination'),
      col('deliveryType'),
      col('country'),
      col('purpose'),
      col('codeHash'),
      col('maxAttempts'),
      col('createdAt'),
      col('expiresAt'),
      col('deliveryStatus'),
      col('outbox'),
      rows.map((v) => postgresMode(v.mode)),
      rows.map((v) => (v.outbox === null ? null : (v.outboxCode ?? null))),
      rows.map((v) => maskDestination(v.channel, v.destination)),
      rows.map((v) => v.risk ?? null),
      rows.map((v) => v.address ?? null),
      rows.map((v) => v.locale ?? null),
      rows.map((v) => v.linkHash ?? null),
      rows.map((v) => (v.linkHash ? (v.linkRedirect ?? null) : null)),
    ]);
    return new Set(blocked.map((b) => rows[Number(b.n) - 1] as NewVerification));
  }

  async getVerification(accountId: string, id: string, mode: Mode = 'live') {
    const row = (await this.db.query(SQL.getVerification, [id, accountId, postgresMode(mode)])).rows[0];
    return row ? rowToVerification(row) : null;
  }

  /**
   * A verify attempt. When the guess gives its hashes (CodeGuess.hashesFor) and its request is the
   * only live row of its group, one round trip: tryAttempts reads the request, compares the hashes
   * and counts or consumes under the row's lock. Otherwise (a dual pair, a guess without hashes)
   * two: the first reads the request and the live rows of its group, the caller compares the
   * guess with their codes, and the second counts the attempt and, for a right guess, consumes the
   * group, in one statement (countOrConsume). Either way the decision is taken under the rows'
   * locks: of parallel right guesses one verifies and the others, finding the group settled,
   * count nothing; of parallel wrong guesses no more than the attempts left are counted, and one
   * not counted has no effect, whatever its comparison said.
   */
  async attempt(
    accountId: string,
    requestId: string,
    now: number,
    guess: CodeGuess,
    mode: Mode = 'live',
    channels?: readonly Channel[],
  ): Promise<AttemptOutcome> {
    const test = postgresMode(mode);
    const hashes = guess.hashesFor?.(requestId);
    // tryAttempts takes the current secret's hash and one previous secret's: a rotation that keeps
    // more than one previous secret takes the two-round-trip way.
    const tried: Tried =
      hashes && hashes.length >= 1 && hashes.length <= 2
        ? await new Promise<Tried>((resolve, reject) =>
            this.tries.add({
              requestId,
              accountId,
              test,
              now,
              scope: channels ? channels.join(',') : null,
              hashes,
              resolve,
              reject,
            }),
          )
        : { read: await this.read({ requestId, accountId, test, now }), alone: false, decided: null };
    const { request, live } = attemptReadFor(tried.read, channels);
    if (!request || live.length === 0) return { request, counted: null, winnerId: null, consumed: false };
    if (tried.alone) {
      const d = tried.decided;
      if (!d) return { request, counted: null, winnerId: null, consumed: false };
      return attemptOutcome(request, d.status === 'verified' ? String(d.id) : null, [d]);
    }
    const guessed = pickWinner(live, guess);
    const rows = await new Promise<AttemptRow[]>((resolve, reject) =>
      this.decisions.add({ groupId: request.groupId, requestId, winnerId: guessed, now, resolve, reject }),
    );
    return attemptOutcome(request, guessed, rows);
  }

  /** The first half of a two-round-trip attempt: the request and the live rows of its group. */
  private read(call: Omit<ReadCall, 'resolve' | 'reject'>): Promise<AttemptRow[]> {
    return new Promise<AttemptRow[]>((resolve, reject) => this.reads.add({ ...call, resolve, reject }));
  }

  /**
   * The tries of one turn in one statement, one per request (an UPDATE changes a row once however
   * many joined rows name it); a second guess on a request in the same turn, or any guess when
   * the statement fails, takes the two-round-trip way, after it.
   */
  private async tryBatch(batch: TryCall[]): Promise<void> {
    await settleBatch(
      batch,
      async (calls) => {
        const { first, later } = firstPerKey(calls, (c) => c.requestId);
        const { rows } = await this.db.query<AttemptRow & { n: string }>(SQL.tryAttempts, [
          first.map((c) => c.requestId),
          first.map((c) => c.accountId),
          first.map((c) => c.test),
          first.map((c) => c.now),
          first.map((c) => c.scope),
          first.map((c) => c.hashes[0]),
          first.map((c) => c.hashes[1] ?? null),
        ]);
        const perCall = rowsPerCall(first.length, rows);
        for (const [i, call] of first.entries()) call.resolve(triedOf(perCall[i] as AttemptRow[]));
        return later;
      },
      (call) =>
        this.read(call).then((read) => call.resolve({ read, alone: false, decided: null }), call.reject),
      1,
    );
  }

  /** The reads of one turn in one statement; a read changes nothing, so none waits for another. */
  private async readBatch(batch: ReadCall[]): Promise<void> {
    await settleBatch(
      batch,
      async (calls) => {
        const { rows } = await this.db.query<AttemptRow & { n: string }>(SQL.readGroups, [
          calls.map((c) => c.requestId),
          calls.map((c) => c.accountId),
          calls.map((c) => c.test),
          calls.map((c) => c.now),
        ]);
        const perCall = rowsPerCall(calls.length, rows);
        for (const [i, call] of calls.entries()) call.resolve(perCall[i] as AttemptRow[]);
        return [];
      },
      (call) =>
        this.db
          .query<AttemptRow>(SQL.readGroup, [call.requestId, call.accountId, call.test, call.now])
          .then(({ rows }) => call.resolve(rows), call.reject),
    );
  }

  /**
   * The decisions of one turn in one statement, one guess per group; a second guess on a group
   * runs after it on its own, so that it sees the first one's effect (counted, or consumed).
   */
  private async decideBatch(batch: DecideCall[]): Promise<void> {
    await settleBatch(
      batch,
      async (calls) => {
        const { first, later } = firstPerKey(calls, (c) => c.groupId);
        const { rows } = await this.db.query<AttemptRow & { n: string }>(SQL.countOrConsumeMany, [
          first.map((c) => c.groupId),
          first.map((c) => c.winnerId),
          first.map((c) => c.now),
          first.map((c) => c.requestId),
        ]);
        const perCall = rowsPerCall(first.length, rows);
        for (const [i, call] of first.entries()) call.resolve(perCall[i] as AttemptRow[]);
        return later;
      },
      (call) =>
        this.db
          .query<AttemptRow>(SQL.countOrConsume, [call.groupId, call.winnerId, call.now, call.requestId])
          .then(({ rows }) => call.resolve(rows), call.reject),
    );
  }

  async getGroup(accountId: string, id: string, mode: Mode = 'live') {
    const { rows } = await this.db.query(SQL.getGroup, [id, accountId, postgresMode(mode)]);
    return rows.map(rowToVerification);
  }

  async findLink(hashes: readonly Buffer[]): Promise<LinkedRequest | null> {
    const row = (await this.db.query(SQL.findLink, [hashes])).rows[0];
    return row ? rowToLinkedRequest(row) : null;
  }

  /**
   * A link's use. The uses of one event-loop turn are one statement (consumeLinks), as verify
   * attempts are, so a burst of clicks costs what a burst of codes does; a second use of one token
   * in the same turn runs after it, on its own, and finds the request verified.
   */
  consumeLink(hashes: readonly Buffer[], now: number) {
    return new Promise<{ request: LinkedRequest; consumed: boolean } | null>((resolve, reject) =>
      this.links.add({ hashes, now, resolve, reject }),
    );
  }

  private async consumeOne(call: LinkCall): Promise<void> {
    try {
      const row = (await this.db.query(SQL.consumeLink, [call.hashes, call.now])).rows[0];
      call.resolve(row ? { request: rowToLinkedRequest(row), consumed: row.consumed === true } : null);
    } catch (err) {
      call.reject(err);
    }
  }

  private async linkBatch(batch: LinkCall[]): Promise<void> {
    await settleBatch(
      batch,
      async (calls) => {
        const { first, later } = firstPerKey(calls, (c) => c.hashes.map((h) => h.toString('hex')).join());
        const { rows } = await this.db.query<AttemptRow & { n: string }>(SQL.consumeLinks, [
          first.map((c) => c.hashes[0] ?? null),
          first.map((c) => c.hashes[1] ?? null),
          first.map((c) => c.now),
        ]);
        const perCall = rowsPerCall(first.length, rows);
        for (const [i, call] of first.entries()) {
          const row = perCall[i]?.[0];
          call.resolve(row ? { request: rowToLinkedRequest(row), consumed: row.consumed === true } : null);
        }
        return later;
      },
      (call) => this.consumeOne(call),
    );
  }

  async settleGroup(groupId: string, status: 'expired' | 'failed' | 'canceled', now: number) {
    const statement =
      status === 'expired' ? SQL.expireGroup : status === 'canceled' ? SQL.cancelGroup : SQL.failGroup;
    await this.db.query(statement, [groupId, now]);
  }

  async recordDelivery(id: string, d: DeliveryRecord) {
    await this.db.query(SQL.recordDelivery, [
      d.deliveryStatus,
      d.provider,
      d.providerMessageId,
      d.error ?? null,
      id,
      d.cancel === true,
      d.at,
    ]);
  }

  async recordDeliveryByProviderId(
    provider: string,
    providerMessageId: string,
    deliveryStatus: DeliveryStatus,
    error: string | null,
    now: number,
  ) {
    const { rows } = await this.db.query(SQL.recordDeliveryByProvider, [
      deliveryStatus,
      error,
      provider,
      providerMessageId,
      now,
    ]);
    return Number(rows[0]?.n ?? 0) > 0;
  }

  async addOutboxMessage(verificationId: string, content: string, code: string) {
    const { rowCount } = await this.db.query(SQL.setOutbox, [content, code, verificationId]);
    if (!rowCount) throw noRequestForOutbox(verificationId);
  }

  async listOutbox(filter: OutboxFilter): Promise<OutboxEntry[]> {
    const params = [
      filter.accountId ?? null,
      filter.to ?? null,
      filter.limit,
      filter.before ?? null,
      filter.mode === undefined ? null : postgresMode(filter.mode),
    ];
    // The statement whose index finds the rows: the request's key, the destination's, or the id order.
    const { rows } = filter.requestId
      ? await this.db.query(SQL.listOutboxRequest, [...params, filter.requestId])
      : await this.db.query(filter.to ? SQL.listOutboxTo : SQL.listOutbox, params);
    return rows.map(rowToOutboxEntry);
  }

  async sweep(now: number, retentionMs: number, batchSize: number): Promise<SweepResult> {
    const cutoff = now - retentionMs;
    // Plain statements, not one transaction: each batch commits on its own, and SKIP LOCKED lets
    // sweepers on other instances take other rows instead of waiting for these.
    const expired = Number((await this.db.query(SQL.sweepExpire, [now, batchSize])).rows[0]?.n ?? 0);
    const deleted =
      (await this.db.query(SQL.sweepDelete, [cutoff, batchSize, timeOrderedUuidFloor(cutoff)])).rowCount ?? 0;
    return { expired, deleted };
  }
}

/** One attempt's rows of tryAttempts, as Tried. */
function triedOf(rows: AttemptRow[]): Tried {
  const first = rows[0];
  const decided =
    first && first.decided_id !== null && first.decided_id !== undefined
      ? {
          id: first.decided_id,
          channel: first.decided_channel,
          country: first.decided_country,
          attempts: first.decided_attempts,
          max_attempts: first.decided_max_attempts,
          status: first.decided_status,
        }
      : null;
  return { read: rows, alone: first?.alone === true, decided };
}
