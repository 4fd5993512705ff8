import type pg from 'pg';
import type { SessionStore, StoredSession } from '../../domain/ports/sessions.js';
import { queryOn } from '../postgres/transaction.js';
import { rowToSession, type SessionRow } from './rows.js';

const SQL = {
  insert: 'INSERT INTO dashboard_sessions (id_hash, created_at, expires_at) VALUES ($1, $2, $3)',
  find: 'SELECT * FROM dashboard_sessions WHERE id_hash = $1 AND expires_at > $2',
  remove: 'DELETE FROM dashboard_sessions WHERE id_hash = $1',
  sweep: `DELETE FROM dashboard_sessions WHERE id_hash IN (
            SELECT id_hash FROM dashboard_sessions WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
};

/** Dashboard sessions on PostgreSQL: one statement per call. */
export class PostgresSessionStore implements SessionStore {
  constructor(private readonly pool: pg.Pool) {}

  private query(text: string, params: unknown[]) {
    return queryOn(this.pool, text, params);
  }

  async create(s: StoredSession) {
    await this.query(SQL.insert, [s.idHash, s.createdAt, s.expiresAt]);
  }

  async find(idHash: string, now: number) {
    const row = (await this.query(SQL.find, [idHash, now])).rows[0] as SessionRow | undefined;
    return row ? rowToSession(row) : null;
  }

  async delete(idHash: string) {
    return ((await this.query(SQL.remove, [idHash])).rowCount ?? 0) > 0;
  }

  async sweep(now: number, batchSize: number) {
    return (await this.query(SQL.sweep, [now, batchSize])).rowCount ?? 0;
  }
}
