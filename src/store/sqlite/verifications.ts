import { deliveryChange, movesForward } from '../../domain/delivery-states.js';
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
import { refusalParams } from '../analytics.js';
import { refusedSend } from '../blocks.js';
import { type RequestChange, settledKind } from '../changes.js';
import type { DestinationFilter } from '../known-destinations.js';
import { sqliteMode } from '../mode.js';
import {
  attemptOutcome,
  attemptReadFor,
  noRequestForOutbox,
  pickWinner,
  rowToLinkedRequest,
  rowToOutboxEntry,
  rowToVerification,
} from '../rows.js';
import type { GroupCommit } from './group-commit.js';
import type { Statements } from './statements.js';

/** Verification requests and their attempts on the SQLite connection: each call is one unit of its group commit. */
export class SqliteVerifications implements Verifications {
  constructor(
    private readonly tx: GroupCommit,
    private readonly stmts: Statements,
    private readonly known: DestinationFilter | null = null,
  ) {}

  /**
   * One send: each row cancels the pending request of its destination, channel and mode, is
   * inserted, and appends its changes (created, and canceled for what it superseded), in one
   * write unit; unless the store keeps a destination filter and the contact of one of its
   * destinations is blocked (blocks.ts): then the unit only counts the refusal.
   */
  async createVerifications(rows: NewVerification[]) {
    for (const v of rows) this.known?.add(v.accountId, v.mode, v.destination);
    const refused = await this.tx.write(() => {
      // Only a screen this store's filter answered may have skipped the read of a block (blocks.ts).
      const blocked =
        this.known &&
        rows.find(
          (v) => this.stmts.blockedContact.get(v.accountId, v.destination, sqliteMode(v.mode)) !== undefined,
        );
      if (blocked) {
        const refused = refusedSend(blocked);
        this.stmts.recordRefusal.run(...refusalParams(refused.refusal, 'sqlite'));
        return refused.error;
      }
      for (const v of rows) {
        const mode = sqliteMode(v.mode);
        const superseded = this.stmts.supersede.all(v.destination, v.accountId, v.channel, mode) as Array<{
          id: string;
          provider: string | null;
        }>;
        for (const old of superseded) this.appendChange('canceled', old.id, v.createdAt, old.provider);
        this.stmts.insertVerification.run(
          v.id,
          v.accountId,
          v.groupId,
          v.channel,
          v.destination,
          v.deliveryType,
          v.country,
          v.purpose,
          v.codeHash,
          v.maxAttempts,
          v.createdAt,
          v.expiresAt,
          v.deliveryStatus,
          v.outbox,
          v.outbox === null ? null : v.outboxCode,
          maskDestination(v.channel, v.destination),
          v.risk ?? null,
          mode,
          v.address ?? null,
          v.locale ?? null,
          v.linkHash ?? null,
          v.linkHash ? (v.linkRedirect ?? null) : null,
        );
        this.appendChange('created', v.id, v.createdAt, v.deliveryStatus === 'outbox' ? 'outbox' : null);
      }
      return null;
      // A savepoint keeps the rows of a dual send together. A single row needs none: should its
      // insert fail, what ran before it (a supersede, with its change) stands on its own.
    }, rows.length > 1);
    if (refused) throw refused;
  }

  private appendChange(kind: RequestChange['kind'], requestId: string, at: number, provider: string | null) {
    this.stmts.appendChange.run(kind, requestId, at, provider);
  }

  getVerification(accountId: string, id: string, mode: Mode = 'live') {
    return this.tx.read(() => {
      const row = this.stmts.getVerification.get(id, accountId, sqliteMode(mode)) as
        | Record<string, unknown>
        | undefined;
      return row ? rowToVerification(row) : null;
    });
  }

  /**
   * A verify attempt in one write unit: reads the request and the live rows of its group, asks
   * `guess` which row it matches, then one counting update decides (see decideAttempt).
   */
  attempt(
    accountId: string,
    requestId: string,
    now: number,
    guess: CodeGuess,
    mode: Mode = 'live',
    channels?: readonly Channel[],
  ) {
    return this.tx.write((): AttemptOutcome => {
      const read = this.stmts.readGroup.all({
        id: requestId,
        account: accountId,
        mode: sqliteMode(mode),
        now,
      }) as Array<Record<string, unknown>>;
      const { request, live } = attemptReadFor(read, channels);
      if (!request || live.length === 0) return { request, counted: null, winnerId: null, consumed: false };
      const guessed = pickWinner(live, guess);
      return attemptOutcome(request, guessed, this.decideAttempt(request.groupId, guessed, now, requestId));
      // No savepoint: the unit writes one statement, and the changes it appends after it.
    }, false);
  }

  /**
   * The attempt rule on the group's rows (src/domain/attempt-rule.ts): counts the attempt, consumes
   * the group on a match, fails it on the last wrong guess. Settled rows append their changes.
   */
  private decideAttempt(groupId: string, winnerId: string | null, now: number, guessedOn: string) {
    const rows = this.stmts.decideAttempt.all({ group: groupId, winner: winnerId, now, guessedOn }) as Array<
      Record<string, unknown>
    >;
    for (const r of rows)
      if (r.status !== 'pending')
        this.appendChange(settledKind(String(r.status)), String(r.id), now, (r.provider as string) ?? null);
    return rows;
  }

  getGroup(accountId: string, id: string, mode: Mode = 'live') {
    return this.tx.read(() => {
      const rows = this.stmts.getGroup.all(id, accountId, sqliteMode(mode)) as Array<Record<string, unknown>>;
      return rows.map(rowToVerification);
    });
  }

  findLink(hashes: readonly Buffer[]) {
    return this.tx.read(() => this.readLink(hashes));
  }

  private readLink(hashes: readonly Buffer[]): LinkedRequest | null {
    const row = this.stmts.findLink.get({ current: hashes[0] ?? null, previous: hashes[1] ?? null }) as
      | Record<string, unknown>
      | undefined;
    return row ? rowToLinkedRequest(row) : null;
  }

  /** The link's request read and, when it is live, its group consumed: one write unit of the one writer. */
  consumeLink(hashes: readonly Buffer[], now: number) {
    return this.tx.write(() => {
      const request = this.readLink(hashes);
      if (!request) return null;
      if (request.status !== 'pending' || request.expiresAt <= now) return { request, consumed: false };
      const settled = this.stmts.consumeLink.all({ id: request.id, group: request.groupId, now }) as Array<{
        id: string;
        status: string;
        provider: string | null;
      }>;
      for (const r of settled) this.appendChange(settledKind(r.status), r.id, now, r.provider);
      return { request, consumed: settled.some((r) => r.id === request.id && r.status === 'verified') };
    });
  }

  settleGroup(groupId: string, status: 'expired' | 'failed' | 'canceled', now: number) {
    return this.tx.write(() => {
      const settled = (
        status === 'expired'
          ? this.stmts.expireGroup.all(groupId, now)
          : status === 'canceled'
            ? this.stmts.cancelGroup.all(groupId, now)
            : this.stmts.failGroup.all(groupId)
      ) as Array<{ id: string; provider: string | null }>;
      for (const r of settled) this.appendChange(status, r.id, now, r.provider);
    });
  }

  /**
   * What a delivery attempt found: the provider that took the message (a 'dispatched' change, so
   * the send counts under it), a delivery state (delivered or undelivered changes when it moves
   * there), and the cancel of a request nobody received.
   */
  recordDelivery(id: string, d: DeliveryRecord) {
    const now = d.at;
    return this.tx.write(() => {
      const before = this.stmts.deliveryOf.get(id) as
        | { delivery_status: string; provider: string | null; status: string }
        | undefined;
      if (!before) return;
      this.stmts.recordDelivery.run(
        d.deliveryStatus,
        d.provider,
        d.providerMessageId,
        d.error ?? null,
        now,
        id,
      );
      const provider = d.provider ?? before.provider;
      if (d.provider !== null && before.provider === null) this.appendChange('dispatched', id, now, provider);
      this.appendDeliveryChange(id, before.delivery_status, d.deliveryStatus, now, provider);
      if (d.cancel && this.stmts.cancel.run(id).changes > 0) this.appendChange('canceled', id, now, provider);
    });
  }

  /** The change a move of the delivery state appends (src/domain/delivery-states.ts), if any. */
  private appendDeliveryChange(
    id: string,
    from: string,
    to: DeliveryStatus,
    now: number,
    provider: string | null,
  ) {
    const kind = deliveryChange(from as DeliveryStatus, to);
    if (kind) this.appendChange(kind, id, now, provider);
  }

  recordDeliveryByProviderId(
    provider: string,
    providerMessageId: string,
    deliveryStatus: DeliveryStatus,
    error: string | null,
    now: number,
  ) {
    return this.tx.write(() => {
      const before = this.stmts.deliveryByProvider.all(provider, providerMessageId) as Array<{
        id: string;
        delivery_status: string;
      }>;
      if (before.length === 0) return false;
      // Forward or sideways, never back: a late `answered` does not undo `completed`.
      for (const r of before) {
        if (!movesForward(r.delivery_status as DeliveryStatus, deliveryStatus)) continue;
        this.stmts.recordDeliveryOf.run(deliveryStatus, error ?? null, now, r.id);
        this.appendDeliveryChange(r.id, r.delivery_status, deliveryStatus, now, provider);
      }
      return true;
    });
  }

  addOutboxMessage(verificationId: string, content: string, code: string) {
    // One statement, atomic by itself: no savepoint needed.
    return this.tx.write(() => {
      if (this.stmts.setOutbox.run(content, code, verificationId).changes === 0)
        throw noRequestForOutbox(verificationId);
    }, false);
  }

  listOutbox(filter: OutboxFilter): Promise<OutboxEntry[]> {
    return this.tx.read(() => {
      const params = {
        accountId: filter.accountId ?? null,
        to: filter.to ?? null,
        requestId: filter.requestId ?? null,
        before: filter.before ?? null,
        test: filter.mode === undefined ? null : sqliteMode(filter.mode),
        limit: filter.limit,
      };
      // The statement whose index finds the rows: the request's key, the destination's, or the id order.
      const statement = filter.requestId
        ? this.stmts.listOutboxRequest
        : filter.to
          ? this.stmts.listOutboxTo
          : this.stmts.listOutbox;
      const rows = statement.all(params) as Array<Record<string, unknown>>;
      return rows.map(rowToOutboxEntry);
    });
  }

  sweep(now: number, retentionMs: number, batchSize: number): Promise<SweepResult> {
    return this.tx.write(() => {
      const expired = this.stmts.sweepExpire.all(now, batchSize) as Array<{
        id: string;
        provider: string | null;
      }>;
      for (const r of expired) this.appendChange('expired', r.id, now, r.provider);
      const cutoff = now - retentionMs;
      const deleted = this.stmts.sweepDelete.run(timeOrderedUuidFloor(cutoff), cutoff, batchSize).changes;
      return { expired: expired.length, deleted };
    });
  }
}
