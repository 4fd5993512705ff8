import type { Database, Statement } from 'better-sqlite3';
import type {
  CallJob,
  CallJobChange,
  CallJobState,
  CallPermissionRecord,
  NewCallJob,
  WhatsAppCalls,
} from '../../domain/ports/whatsapp-calls.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import {
  CALL_SQL,
  insertParams,
  moveStatement,
  permissionParams,
  rowToCallJob,
  rowToPermission,
} from './sql.js';

type Row = Record<string, unknown>;

/** The WhatsApp call jobs on the SQLite store's connection: each write one unit of its group commit. */
export class SqliteWhatsAppCalls implements WhatsAppCalls {
  private readonly stmts: Record<keyof typeof CALL_SQL, Statement>;
  /** A move's statement per shape (the fields it sets, the states it moves from). */
  private readonly moves = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly tx: GroupCommit,
  ) {
    this.stmts = Object.fromEntries(
      Object.entries(CALL_SQL).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as Record<keyof typeof CALL_SQL, Statement>;
  }

  async insert(job: NewCallJob) {
    await this.tx.write(() => this.stmts.insert.run(...insertParams(job)), false);
  }

  get(id: string) {
    return this.tx.read(() => {
      const row = this.stmts.get.get(id) as Row | undefined;
      return row ? rowToCallJob(row) : null;
    });
  }

  move(
    id: string,
    from: readonly CallJobState[],
    change: CallJobChange,
    now: number,
    expect?: { dueAt: number | null },
  ) {
    const { sql, params } = moveStatement(id, from, change, now, expect);
    let stmt = this.moves.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.moves.set(sql, stmt);
    }
    const prepared = stmt;
    return this.tx.write(() => prepared.run(...params).changes > 0, false);
  }

  byCallId(callId: string) {
    return this.tx.read(() => {
      const row = this.stmts.byCallId.get(callId) as Row | undefined;
      return row ? rowToCallJob(row) : null;
    });
  }

  awaitingPermission(waUser: string): Promise<CallJob[]> {
    return this.tx.read(() => (this.stmts.awaiting.all(waUser) as Row[]).map(rowToCallJob));
  }

  due(now: number, limit: number): Promise<CallJob[]> {
    return this.tx.read(() => (this.stmts.due.all(now, limit) as Row[]).map(rowToCallJob));
  }

  heldBy(holder: string): Promise<CallJob[]> {
    return this.tx.read(() => (this.stmts.heldBy.all(holder) as Row[]).map(rowToCallJob));
  }

  endSettled(now: number, limit: number): Promise<CallJob[]> {
    return this.tx.write(() => (this.stmts.endSettled.all(now, limit) as Row[]).map(rowToCallJob), false);
  }

  sweep(before: number, limit: number) {
    return this.tx.write(() => this.stmts.sweep.run(before, limit).changes, false);
  }

  permission(accountId: string, waUser: string) {
    return this.tx.read(() => {
      const row = this.stmts.permission.get(accountId, waUser) as Row | undefined;
      return row ? rowToPermission(row) : null;
    });
  }

  async putPermission(p: CallPermissionRecord) {
    await this.tx.write(() => this.stmts.putPermission.run(...permissionParams(p)), false);
  }

  async dropPermission(accountId: string, waUser: string) {
    await this.tx.write(() => this.stmts.dropPermission.run(accountId, waUser), false);
  }
}
