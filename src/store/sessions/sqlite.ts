import type { Database } from 'better-sqlite3';
import type { SessionStore, StoredSession } from '../../domain/ports/sessions.js';
import type { GroupCommit } from '../sqlite/group-commit.js';
import { rowToSession, type SessionRow } from './rows.js';

/** Dashboard sessions on the SQLite store's connection: each write is one unit of its group commit. */
export class SqliteSessionStore implements SessionStore {
  private readonly stmts;

  constructor(
    db: Database,
    private readonly tx: GroupCommit,
  ) {
    this.stmts = {
      insert: db.prepare('INSERT INTO dashboard_sessions (id_hash, created_at, expires_at) VALUES (?, ?, ?)'),
      find: db.prepare('SELECT * FROM dashboard_sessions WHERE id_hash = ? AND expires_at > ?'),
      remove: db.prepare('DELETE FROM dashboard_sessions WHERE id_hash = ?'),
      sweep: db.prepare(
        `DELETE FROM dashboard_sessions WHERE id_hash IN (
           SELECT id_hash FROM dashboard_sessions WHERE expires_at <= ? LIMIT ?)`,
      ),
    };
  }

  async create(s: StoredSession) {
    await this.tx.write(() => this.stmts.insert.run(s.idHash, s.createdAt, s.expiresAt), false);
  }

  find(idHash: string, now: number) {
    return this.tx.read(() => {
      const row = this.stmts.find.get(idHash, now) as SessionRow | undefined;
      return row ? rowToSession(row) : null;
    });
  }

  delete(idHash: string) {
    return this.tx.write(() => this.stmts.remove.run(idHash).changes > 0, false);
  }

  sweep(now: number, batchSize: number) {
    return this.tx.write(() => this.stmts.sweep.run(now, batchSize).changes, false);
  }
}
