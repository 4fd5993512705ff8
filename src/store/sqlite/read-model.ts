import type { Database, Statement } from 'better-sqlite3';
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
import { sqliteMode } from '../mode.js';
import type { SqliteFold } from './fold.js';
import type { GroupCommit } from './group-commit.js';
import { SqliteSignals } from './signals.js';
import type { Statements } from './statements.js';

/** Analytics, contacts and breakers on the SQLite connection, folded from the change log. */
export class SqliteReadModel implements ReadModel {
  private readonly signals: SqliteSignals;
  private readonly contacts: Record<keyof ReturnType<typeof contactSql>, Statement>;
  private readonly refusal: Statement;
  private readonly breakers: Record<keyof ReturnType<typeof breakerSql>, Statement>;

  constructor(
    private readonly db: Database,
    private readonly tx: GroupCommit,
    private readonly stmts: Statements,
    private readonly folder: SqliteFold,
    private readonly clock: Clock,
    private readonly known: DestinationFilter | null = null,
  ) {
    this.signals = new SqliteSignals(db);
    const sql = contactSql('sqlite');
    this.contacts = Object.fromEntries(
      Object.entries(sql).map(([name, text]) => [name, db.prepare(text)]),
    ) as typeof this.contacts;
    this.refusal = db.prepare(refusalSql('sqlite'));
    const breakers = breakerSql('sqlite');
    this.breakers = {
      get: db.prepare(breakers.get),
      save: db.prepare(breakers.save),
      list: db.prepare(breakers.list),
    };
  }

  /** Folds up to `batchSize` changes (src/store/fold.ts) in one write unit; returns how many. */
  fold(batchSize: number): Promise<number> {
    return this.tx.write(() => this.folder.run(batchSize, this.clock.now()));
  }

  /**
   * Counts agree with the requests at every read of analytics and contacts: the changes the fold
   * has not reached yet are folded first (asking costs one lookup when none wait).
   */
  private async foldPending(): Promise<void> {
    const folder = this.folder;
    if (await this.tx.read(() => folder.pending())) await this.tx.write(() => folder.all(this.clock.now()));
  }

  async analytics(query: AnalyticsQuery) {
    await this.foldPending();
    const sql = analyticsSql('sqlite', query);
    const all = (text: string, params = sql.params) =>
      this.db.prepare(text).all(...params) as Array<Record<string, unknown>>;
    return this.tx.read(() =>
      rowsToAnalytics(all(sql.buckets, sql.bucketParams), all(sql.ttv), all(sql.refusals)),
    );
  }

  recordRefusal(refusal: Refusal) {
    return this.tx.write(() => {
      this.refusal.run(...refusalParams(refusal, 'sqlite'));
    }, false);
  }

  async getContact(id: string) {
    await this.foldPending();
    return this.tx.read(() => {
      const row = this.contacts.get.get(id) as Record<string, unknown> | undefined;
      return row ? rowToContact(row) : null;
    });
  }

  async searchContacts(accountId: string, prefix: string, limit: number, mode?: Mode) {
    await this.foldPending();
    return this.tx.read(() =>
      (
        this.contacts.search.all(...searchParams(accountId, prefix, limit, mode, 'sqlite')) as Array<
          Record<string, unknown>
        >
      ).map(rowToContact),
    );
  }

  async listContacts(filter: ContactListFilter) {
    await this.foldPending();
    return this.tx.read(() =>
      (this.contacts.recent.all(...recentParams(filter, 'sqlite')) as Array<Record<string, unknown>>).map(
        rowToContact,
      ),
    );
  }

  contactHistory(contact: ContactRecord, limit: number) {
    return this.tx.read(() =>
      (
        this.contacts.history.all(
          contact.destination,
          contact.accountId,
          sqliteMode(contact.mode),
          limit,
        ) as Array<Record<string, unknown>>
      ).map(rowToHistory),
    );
  }

  destinationSignals(
    accountId: string,
    mode: Mode,
    destination: string,
    country: string | null,
    now: number,
  ): Promise<DestinationSignals> {
    return signalsThrough(this.known, { accountId, mode, destination, country }, () =>
      this.tx.read(() => {
        const block = numberBlock(destination);
        return rowToSignals(
          this.signals.read({
            account: accountId,
            mode: sqliteMode(mode),
            destination,
            block,
            blockEnd: block ? prefixEnd(block) : null,
            hourAgo: now - HOUR_MS,
            country,
          }),
        );
      }),
    );
  }

  async setContactBlocked(id: string, block: { reason: string } | null, now: number) {
    await this.foldPending();
    return this.tx.write(() => {
      if (this.contacts.block.run(block ? now : null, block?.reason ?? null, id).changes === 0) return null;
      this.stmts.appendContactChange.run(
        block ? 'contact.blocked' : 'contact.unblocked',
        id,
        now,
        block ? JSON.stringify({ reason: block.reason }) : null,
      );
      return rowToContact(this.contacts.get.get(id) as Record<string, unknown>);
    });
  }

  getBreaker(accountId: string, mode: Mode, country: string) {
    return this.tx.read(() => {
      const row = this.breakers.get.get(accountId, sqliteMode(mode), country) as
        | Record<string, unknown>
        | undefined;
      return row ? rowToBreaker(row) : null;
    });
  }

  saveBreaker(state: BreakerState) {
    return this.tx.write(() => {
      this.breakers.save.run(...breakerParams(state, 'sqlite'));
    }, false);
  }

  listBreakers(filter: { accountId?: string; trippedOnly?: boolean }) {
    return this.tx.read(() =>
      (
        this.breakers.list.all({
          account: filter.accountId ?? null,
          trippedOnly: filter.trippedOnly ? 1 : 0,
        }) as Array<Record<string, unknown>>
      ).map(rowToBreaker),
    );
  }
}
