import type pg from 'pg';
import type {
  CallJob,
  CallJobChange,
  CallJobState,
  CallPermissionRecord,
  NewCallJob,
  WhatsAppCalls,
} from '../../domain/ports/whatsapp-calls.js';
import { numbered } from '../placeholders.js';
import { queryOn } from '../postgres/transaction.js';
import {
  CALL_SQL,
  insertParams,
  moveStatement,
  permissionParams,
  rowToCallJob,
  rowToPermission,
} from './sql.js';

const SQL = Object.fromEntries(Object.entries(CALL_SQL).map(([k, v]) => [k, numbered(v)])) as Record<
  keyof typeof CALL_SQL,
  string
>;
// Two instances ending the same jobs skip each other's rows instead of waiting.
SQL.endSettled = SQL.endSettled.replace(/LIMIT (\$\d+)\)/, 'LIMIT $1 FOR UPDATE OF c SKIP LOCKED)');
SQL.sweep = SQL.sweep.replace(/LIMIT (\$\d+)\)/, 'LIMIT $1 FOR UPDATE SKIP LOCKED)');

/** The WhatsApp call jobs on PostgreSQL, shared by every instance: one statement per call. */
export class PostgresWhatsAppCalls implements WhatsAppCalls {
  constructor(private readonly pool: pg.Pool) {}

  private async rows(sql: string, params: unknown[]): Promise<CallJob[]> {
    return (await queryOn(this.pool, sql, params)).rows.map(rowToCallJob);
  }

  async insert(job: NewCallJob) {
    await queryOn(this.pool, SQL.insert, insertParams(job));
  }

  async get(id: string) {
    return (await this.rows(SQL.get, [id]))[0] ?? null;
  }

  async move(
    id: string,
    from: readonly CallJobState[],
    change: CallJobChange,
    now: number,
    expect?: { dueAt: number | null },
  ) {
    const { sql, params } = moveStatement(id, from, change, now, expect);
    return ((await queryOn(this.pool, numbered(sql), params)).rowCount ?? 0) > 0;
  }

  async byCallId(callId: string) {
    return (await this.rows(SQL.byCallId, [callId]))[0] ?? null;
  }

  awaitingPermission(waUser: string) {
    return this.rows(SQL.awaiting, [waUser]);
  }

  due(now: number, limit: number) {
    return this.rows(SQL.due, [now, limit]);
  }

  heldBy(holder: string) {
    return this.rows(SQL.heldBy, [holder]);
  }

  endSettled(now: number, limit: number) {
    return this.rows(SQL.endSettled, [now, limit]);
  }

  async sweep(before: number, limit: number) {
    return (await queryOn(this.pool, SQL.sweep, [before, limit])).rowCount ?? 0;
  }

  async permission(accountId: string, waUser: string) {
    const row = (await queryOn(this.pool, SQL.permission, [accountId, waUser])).rows[0];
    return row ? rowToPermission(row) : null;
  }

  async putPermission(p: CallPermissionRecord) {
    await queryOn(this.pool, SQL.putPermission, permissionParams(p));
  }

  async dropPermission(accountId: string, waUser: string) {
    await queryOn(this.pool, SQL.dropPermission, [accountId, waUser]);
  }
}
