import type { StoredSession } from '../../domain/ports/sessions.js';

export interface SessionRow {
  id_hash: string;
  created_at: number | string;
  expires_at: number | string;
}

// PostgreSQL returns BIGINT as a string.
export const rowToSession = (r: SessionRow): StoredSession => ({
  idHash: r.id_hash,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
});
