import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import type { SessionStore } from '../../domain/ports/sessions.js';

/** The cookie that carries a dashboard session id. */
export const SESSION_COOKIE = 'cv_session';

/** A live session as the HTTP layer sees it; `id` is the secret the cookie carries. */
export interface DashboardSession {
  id: string;
  csrfToken: string;
  expiresAt: number;
}

// 32 random bytes in base64url: anything else in the cookie is refused without a lookup.
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Sessions of the operator dashboard: a random id in an HttpOnly cookie stands in for the admin
 * token. The database keeps only the id's SHA-256 (a copy of it signs no one in), and the CSRF
 * token is an HMAC of the id under a server key, so it needs no storage and every instance
 * derives the same one.
 */
export class DashboardSessions {
  private readonly csrfKeys: readonly Buffer[];

  /**
   * `csrfKey`: the server key of CSRF tokens; during a rotation of CODE_SECRET, the current key
   * first, then the previous one, whose tokens (held by dashboards already open) are still accepted.
   */
  constructor(
    private readonly store: SessionStore,
    private readonly clock: Clock,
    csrfKey: Buffer | readonly Buffer[],
    readonly lifetimeSeconds: number,
  ) {
    this.csrfKeys = Buffer.isBuffer(csrfKey) ? [csrfKey] : (csrfKey as readonly Buffer[]);
  }

  async open(): Promise<DashboardSession> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = now + this.lifetimeSeconds * 1000;
    await this.store.create({ idHash: sha256Hex(id), createdAt: now, expiresAt });
    return { id, csrfToken: this.csrfToken(id), expiresAt };
  }

  /** The live session a cookie names; null for a malformed, unknown, expired or closed one. */
  async find(id: string | undefined): Promise<DashboardSession | null> {
    if (!id || !SESSION_ID.test(id)) return null;
    const stored = await this.store.find(sha256Hex(id), this.clock.now());
    return stored ? { id, csrfToken: this.csrfToken(id), expiresAt: stored.expiresAt } : null;
  }

  async close(session: DashboardSession): Promise<void> {
    await this.store.delete(sha256Hex(session.id));
  }

  /** Whether `given` (the X-CSRF-Token header) is the session's token, compared in constant time. */
  csrfMatches(session: DashboardSession, given: string | string[] | undefined): boolean {
    if (typeof given !== 'string') return false;
    const digest = (value: string) => createHash('sha256').update(value).digest();
    const presented = digest(given);
    let matched = false;
    for (const key of this.csrfKeys) {
      if (timingSafeEqual(presented, digest(this.csrfToken(session.id, key)))) matched = true;
    }
    return matched;
  }

  private csrfToken(id: string, key: Buffer = this.csrfKeys[0] as Buffer): string {
    return createHmac('sha256', key).update(id).digest('base64url');
  }
}

/** The server key of CSRF tokens, derived from the code secret (shared by every instance). */
export const csrfKeyFrom = (codeSecret: Buffer): Buffer =>
  createHmac('sha256', codeSecret).update('dashboard-csrf-v1').digest();
