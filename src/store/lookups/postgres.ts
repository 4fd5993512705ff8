import type pg from 'pg';
import {
  type CachedLookup,
  cachedLineOf,
  cachedSimOf,
  type LookupCacheStore,
  type LookupCacheWrite,
} from '../../domain/ports/number-lookup.js';
import { queryOn } from '../postgres/transaction.js';

const SQL = {
  get: `SELECT CASE WHEN line_expires_at > $2 THEN line END AS line,
               CASE WHEN sim_expires_at > $2 THEN sim END AS sim
          FROM number_lookups WHERE key = $1 AND expires_at > $2`,
  // A part not given ($2 or $4 null) keeps what the row holds.
  put: `INSERT INTO number_lookups (key, line, line_expires_at, sim, sim_expires_at, expires_at)
        VALUES ($1, $2::jsonb, $3::bigint, $4::jsonb, $5::bigint, GREATEST($3::bigint, $5::bigint))
        ON CONFLICT (key) DO UPDATE SET
          line = COALESCE(EXCLUDED.line, number_lookups.line),
          line_expires_at = CASE WHEN EXCLUDED.line IS NULL THEN number_lookups.line_expires_at
                                 ELSE EXCLUDED.line_expires_at END,
          sim = COALESCE(EXCLUDED.sim, number_lookups.sim),
          sim_expires_at = CASE WHEN EXCLUDED.sim IS NULL THEN number_lookups.sim_expires_at
                                ELSE EXCLUDED.sim_expires_at END,
          expires_at = GREATEST(number_lookups.expires_at, EXCLUDED.expires_at)`,
  sweep: `DELETE FROM number_lookups WHERE key IN (
            SELECT key FROM number_lookups WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
  // Claims live for a lookup's budget: the lapsed ones are few, and go whole.
  sweepClaims: 'DELETE FROM number_lookup_claims WHERE until <= $1',
  claim: `INSERT INTO number_lookup_claims (key, until) VALUES ($1, $3)
          ON CONFLICT (key) DO UPDATE SET until = EXCLUDED.until WHERE number_lookup_claims.until <= $2
          RETURNING key`,
  release: 'DELETE FROM number_lookup_claims WHERE key = $1',
};

/** The lookups' cache on PostgreSQL, shared by every instance on the database: one statement per call. */
export class PostgresLookupCache implements LookupCacheStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(key: string, now: number): Promise<CachedLookup> {
    const row = (await queryOn(this.pool, SQL.get, [key, now])).rows[0] as
      | { line: unknown; sim: unknown }
      | undefined;
    return { line: cachedLineOf(row?.line ?? null), sim: cachedSimOf(row?.sim ?? null) };
  }

  async put(key: string, write: LookupCacheWrite) {
    if (!write.line && !write.sim) return;
    await queryOn(this.pool, SQL.put, [
      key,
      write.line ? JSON.stringify(write.line.facts) : null,
      write.line?.expiresAt ?? 0,
      write.sim ? JSON.stringify(write.sim.facts) : null,
      write.sim?.expiresAt ?? 0,
    ]);
  }

  async sweep(now: number, batchSize: number) {
    await queryOn(this.pool, SQL.sweepClaims, [now]);
    return (await queryOn(this.pool, SQL.sweep, [now, batchSize])).rowCount ?? 0;
  }

  async claim(claim: string, now: number, until: number): Promise<boolean> {
    return ((await queryOn(this.pool, SQL.claim, [claim, now, until])).rowCount ?? 0) > 0;
  }

  async release(claim: string): Promise<void> {
    await queryOn(this.pool, SQL.release, [claim]);
  }
}
