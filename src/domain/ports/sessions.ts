/**
 * Sessions of the operator dashboard, kept in the database so that every instance (and a restart)
 * sees the same ones. The store knows a session only by the SHA-256 of its id.
 */
export interface SessionStore {
  create(session: StoredSession): Promise<void>;
  /** The session with this id hash, unless it has expired at `now`. */
  find(idHash: string, now: number): Promise<StoredSession | null>;
  /** Deletes the session; false when there was none. */
  delete(idHash: string): Promise<boolean>;
  /** Deletes up to `batchSize` sessions expired at `now`; returns how many. */
  sweep(now: number, batchSize: number): Promise<number>;
}

export interface StoredSession {
  /** Hex SHA-256 of the session id. */
  idHash: string;
  createdAt: number;
  expiresAt: number;
}
