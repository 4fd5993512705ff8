import { type Clock, HOUR_MS } from '../../domain/clock.js';
import type {
  AnalyticsQuery,
  ContactListFilter,
  ContactRecord,
  DestinationSignals,
  ReadModel,
  Refusal,
} from '../../domain/ports/read-model.js';
import type { BreakerState } from '../../domain/pumping-breaker.js';
import type { Mode } from '../../domain/types.js';
import { analyticsSql, refusalParams, refusalSql, rowsToAnalytics } from '../analytics.js';
import { breakerParams, breakerSql, rowToBreaker } from '../breakers.js';
import {
  contactSql,
  numberBlock,
  prefixEnd,
  recentParams,
  rowToContact,
  rowToHistory,
  rowToSignals,
  searchParams,
} from '../contacts.js';
import { type DestinationFilter, signalsThrough } from '../known-destinations.js';
import { postgresMode } from '../mode.js';
import type { PostgresConnection } from './connection.js';
import type { PostgresFold } from './fold.js';
import { SQL } from './statements.js';
import { settleBatch, TurnBatch } from './turn-batch.js';

const CONTACT_SQL = contactSql('postgres');
const BREAKER_SQL = breakerSql('postgres');
interface SignalsCall {
  accountId: string;
  test: boolean;
  destination: string;
  country: string | null;
  now: number;
  resolve: (signals: DestinationSignals) => void;
  reject: (err: unknown) => void;
}

/** Analytics, contacts and breakers on PostgreSQL, folded from the change log. */
export class PostgresReadModel implements ReadModel {
  /** The risk screen's reads for the sends of one event-loop turn, read together. */
  private readonly signals = new TurnBatch<SignalsCall>((batch) => this.signalsBatch(batch));

  constructor(
    private readonly db: PostgresConnection,
    private readonly folder: PostgresFold,
    private readonly clock: Clock,
    private readonly known: DestinationFilter | null = null,
  ) {}

  /** Reads the risk signals of the current turn (before the pool closes). */
  flush(): Promise<void> {
    return this.signals.flush();
  }

  /** Folds up to `batchSize` changes no other instance holds (see PostgresFold). */
  fold(batchSize: number): Promise<number> {
    return this.folder.run(batchSize, this.clock.now());
  }

  /** Counts agree with the requests at every read: changes not folded yet are folded first. */
  private foldPending(): Promise<void> {
    return this.folder.all(this.clock.now());
  }

  async analytics(query: AnalyticsQuery) {
    await this.foldPending();
    const sql = analyticsSql('postgres', query);
    const [buckets, ttv, refusals] = await Promise.all([
      this.db.query(sql.buckets, sql.bucketParams),
      this.db.query(sql.ttv, sql.params),
      this.db.query(sql.refusals, sql.params),
    ]);
    return rowsToAnalytics(buckets?.rows ?? [], ttv?.rows ?? [], refusals?.rows ?? []);
  }

  async recordRefusal(refusal: Refusal) {
    await this.db.query(refusalSql('postgres'), refusalParams(refusal, 'postgres'));
  }

  async getContact(id: string) {
    // Contacts are made and counted by the fold: what it has not reached yet is folded first.
    await this.foldPending();
    const row = (await this.db.query(CONTACT_SQL.get, [id])).rows[0];
    return row ? rowToContact(row) : null;
  }

  async searchContacts(accountId: string, prefix: string, limit: number, mode?: Mode) {
    await this.foldPending();
    const { rows } = await this.db.query(
      CONTACT_SQL.search,
      searchParams(accountId, prefix, limit, mode, 'postgres'),
    );
    return rows.map(rowToContact);
  }

  async listContacts(filter: ContactListFilter) {
    await this.foldPending();
    const { rows } = await this.db.query(CONTACT_SQL.recent, recentParams(filter, 'postgres'));
    return rows.map(rowToContact);
  }

  async contactHistory(contact: ContactRecord, limit: number) {
    const { rows } = await this.db.query(CONTACT_SQL.history, [
      contact.destination,
      contact.accountId,
      postgresMode(contact.mode),
      limit,
    ]);
    return rows.map(rowToHistory);
  }

  /** Batched with the other sends of this event-loop turn (see signalsBatch). */
  destinationSignals(
    accountId: string,
    mode: Mode,
    destination: string,
    country: string | null,
    now: number,
  ): Promise<DestinationSignals> {
    const test = postgresMode(mode);
    return signalsThrough(
      this.known,
      { accountId, mode, destination, country },
      () =>
        new Promise((resolve, reject) =>
          this.signals.add({ accountId, test, destination, country, now, resolve, reject }),
        ),
    );
  }

  /** The risk screen's reads of one turn in one statement (SQL.destinationSignals). */
  private async signalsBatch(batch: SignalsCall[]): Promise<void> {
    await settleBatch(
      batch,
      async (calls) => {
        await this.readSignals(calls);
        return [];
      },
      (call) => this.readSignals([call]).catch(call.reject),
    );
  }

  private async readSignals(calls: SignalsCall[]): Promise<void> {
    const blocks = calls.map((c) => numberBlock(c.destination));
    const phone = calls.some((c, i) => blocks[i] !== null || c.country !== null);
    const common = [
      calls.map((c) => c.accountId),
      calls.map((c) => c.destination),
      calls.map((c) => c.test),
      calls.map((c) => c.now - HOUR_MS),
    ];
    const { rows } = await this.db.query<Record<string, unknown>>(
      phone ? SQL.destinationSignals : SQL.destinationSignalsEmail,
      phone
        ? [...common, blocks, blocks.map((b) => (b ? prefixEnd(b) : null)), calls.map((c) => c.country)]
        : common,
    );
    for (const row of rows) calls[Number(row.n) - 1]?.resolve(rowToSignals(row));
  }

  async setContactBlocked(id: string, block: { reason: string } | null, now: number) {
    await this.foldPending();
    return this.db.transaction(async (client) => {
      const changed = await this.db.query(
        CONTACT_SQL.block,
        [block ? now : null, block?.reason ?? null, id],
        client,
      );
      if (!changed.rowCount) return null;
      await this.db.query(
        'INSERT INTO changes (kind, contact_id, at, data) VALUES ($1, $2, $3, $4::jsonb)',
        [
          block ? 'contact.blocked' : 'contact.unblocked',
          id,
          now,
          block ? JSON.stringify({ reason: block.reason }) : null,
        ],
        client,
      );
      const row = (await this.db.query(CONTACT_SQL.get, [id], client)).rows[0];
      return row ? rowToContact(row) : null;
    });
  }

  async getBreaker(accountId: string, mode: Mode, country: string) {
    const row = (await this.db.query(BREAKER_SQL.get, [accountId, postgresMode(mode), country])).rows[0];
    return row ? rowToBreaker(row) : null;
  }

  async saveBreaker(state: BreakerState) {
    await this.db.query(BREAKER_SQL.save, breakerParams(state, 'postgres'));
  }

  async listBreakers(filter: { accountId?: string; trippedOnly?: boolean }) {
    const { rows } = await this.db.query(BREAKER_SQL.list, [
      filter.accountId ?? null,
      filter.trippedOnly === true,
    ]);
    return rows.map(rowToBreaker);
  }
}
