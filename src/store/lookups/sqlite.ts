import type { Database } from 'better-sqlite3';
import {
  type CachedLookup,
  cachedLineOf,
  cachedSimOf,
  type LookupCacheStore,
  type LookupCacheWrite,
} from '../../domain/ports/number-lookup.js';
import type { GroupCommit } from '../sqlite/group-commit.js';

interface LookupRow {
  line: string | null;
  line_expires_at: number;
  sim: string | null;
  sim_expires_at: number;
}

const parsed = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The lookups' cache on the SQLite store's connection: each write is one unit of its group commit. */
export class SqliteLookupCache implements LookupCacheStore {
  private readonly stmts;

  constructor(
    db: Database,
    private readonly tx: GroupCommit,
  ) {
    this.stmts = {
      get: db.prepare(
        'SELECT line, line_expires_at, sim, sim_expires_at FROM number_lookups WHERE key = ? AND expires_at > ?',
      ),
      // A part not given keeps what the row holds.
      put: db.prepare(
        `INSERT INTO number_lookups (key, line, line_expires_at, sim, sim_expires_at, expires_at)
         VALUES (@key, @line, @lineExpiresAt, @sim, @simExpiresAt, max(@lineExpiresAt, @simExpiresAt))
         ON CONFLICT (key) DO UPDATE SET
           line = CASE WHEN @line IS NULL THEN line ELSE excluded.line END,
           line_expires_at = CASE WHEN @line IS NULL THEN line_expires_at ELSE excluded.line_expires_at END,
           sim = CASE WHEN @sim IS NULL THEN sim ELSE excluded.sim END,
           sim_expires_at = CASE WHEN @sim IS NULL THEN sim_expires_at ELSE excluded.sim_expires_at END,
           expires_at = max(expires_at, excluded.expires_at)`,
      ),
      sweep: db.prepare(
        `DELETE FROM number_lookups WHERE key IN (
           SELECT key FROM number_lookups WHERE expires_at <= ? LIMIT ?)`,
      ),
      claim: db.prepare(
        `INSERT INTO number_lookup_claims (key, until) VALUES (@claim, @until)
         ON CONFLICT (key) DO UPDATE SET until = excluded.until WHERE number_lookup_claims.until <= @now
         RETURNING key`,
      ),
      release: db.prepare('DELETE FROM number_lookup_claims WHERE key = ?'),
      sweepClaims: db.prepare('DELETE FROM number_lookup_claims WHERE until <= ?'),
    };
  }

  get(key: string, now: number): Promise<CachedLookup> {
    return this.tx.read(() => {
      const row = this.stmts.get.get(key, now) as LookupRow | undefined;
      return {
        line: row && row.line_expires_at > now ? cachedLineOf(parsed(row.line)) : null,
        sim: row && row.sim_expires_at > now ? cachedSimOf(parsed(row.sim)) : null,
      };
    });
  }

  async put(key: string, write: LookupCacheWrite) {
    if (!write.line && !write.sim) return;
    await this.tx.write(
      () =>
        this.stmts.put.run({
          key,
          line: write.line ? JSON.stringify(write.line.facts) : null,
          lineExpiresAt: write.line?.expiresAt ?? 0,
          sim: write.sim ? JSON.stringify(write.sim.facts) : null,
          simExpiresAt: write.sim?.expiresAt ?? 0,
        }),
      false,
    );
  }

  sweep(now: number, batchSize: number) {
    return this.tx.write(() => {
      // Claims live for a lookup's budget: the lapsed ones are few, and go whole.
      this.stmts.sweepClaims.run(now);
      return this.stmts.sweep.run(now, batchSize).changes;
    });
  }

  claim(claim: string, now: number, until: number): Promise<boolean> {
    return this.tx.write(() => this.stmts.claim.get({ claim, now, until }) !== undefined, false);
  }

  async release(claim: string): Promise<void> {
    await this.tx.write(() => this.stmts.release.run(claim), false);
  }
}
