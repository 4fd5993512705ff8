import { createHash, timingSafeEqual } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { KEY_PATTERN } from '../domain/api-keys.js';
import type { AuthenticatedKey } from '../domain/types.js';
import type { AdminThrottle } from './admin-throttle.js';
import { type DashboardSession, type DashboardSessions, SESSION_COOKIE } from './dashboard/sessions.js';
import { ApiError } from './errors.js';
import { type KeyLookup, keyCacheOf } from './key-cache.js';
import type { KeyUseRecorder } from './key-uses.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: AuthenticatedKey;
  }
}

const BEARER = /^Bearer +(\S+)\s*$/i;

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message);

/**
 * An onRequest hook that resolves `Authorization: Bearer <API_KEY>` before the body is read. A
 * callback hook rather than an async one: a key the cache holds (nearly every request) is settled
 * in the same turn, without a promise.
 */
export function apiKeyAuth(lookup: KeyLookup, uses?: KeyUseRecorder): onRequestHookHandler {
  const keys = keyCacheOf(lookup);
  const refuse = (reply: FastifyReply, token: string | null) => {
    reply.header('www-authenticate', 'Bearer realm="contact-verify"');
    return unauthorized(
      token
        ? 'The API key is invalid or has been revoked.'
        : 'Send the API key as "Authorization: Bearer <API_KEY>".',
    );
  };
  return (request, reply, done) => {
    const token = bearerToken(request);
    // The shape check spares the database a lookup for obvious garbage.
    if (!token || !KEY_PATTERN.test(token)) return done(refuse(reply, token));
    const found = keys.find(token);
    if (!(found instanceof Promise)) {
      request.apiKey = found;
      uses?.record(found.id);
      return done();
    }
    found.then((key) => {
      if (!key) return done(refuse(reply, token));
      request.apiKey = key;
      uses?.record(key.id);
      done();
    }, done);
  };
}

/** How the admin API admits a caller; built once by the composition root. */
export interface AdminGate {
  /** SHA-256 of the admin token. */
  tokenHash: Buffer;
  /** SHA-256 of the token a rotation replaces (ADMIN_TOKEN_PREVIOUS), accepted until it is removed. */
  previousTokenHash?: Buffer;
  /** Counts wrong tokens per address; a throttled address is answered 429 before its token is read. */
  throttle?: AdminThrottle;
  /** Dashboard sessions, admitted in place of the token (writes need the CSRF token). */
  sessions: DashboardSessions;
}

/** Whether `token` is the admin token (or the one being rotated out), compared as digests in constant time. */
export function isAdminToken(gate: AdminGate, token: string | null): boolean {
  if (token === null) return false;
  const digest = createHash('sha256').update(token).digest();
  const current = timingSafeEqual(digest, gate.tokenHash);
  // Compared even when the current one matched: the time taken does not tell which it was.
  const previous = gate.previousTokenHash ? timingSafeEqual(digest, gate.previousTokenHash) : false;
  return current || previous;
}

/** Logs and counts a wrong admin credential that was presented, never with the token itself. */
export async function adminAuthFailed(
  gate: AdminGate,
  request: FastifyRequest,
  tokenGiven: boolean,
): Promise<void> {
  // A near-miss in the logs would tell a reader most of the secret.
  request.log.warn(
    { ip: request.ip, method: request.method, url: request.url.split('?')[0], tokenGiven },
    'admin authentication failed',
  );
  await gate.throttle?.failed(request.ip);
}

const adminUnauthorized = (reply: FastifyReply) => {
  reply.header('www-authenticate', 'Bearer realm="contact-verify-admin"');
  return unauthorized('Send the admin token as "Authorization: Bearer <ADMIN_TOKEN>".');
};

/**
 * An onRequest hook that admits `Authorization: Bearer <ADMIN_TOKEN>` or, without that header, a
 * dashboard session cookie (see admitSession). Only a presented Authorization header meets the
 * throttle: a request with no credential at all is what any web page can make a browser send
 * cross-site, so counting it would let any page lock operators out; it is refused and forgotten.
 */
export function adminAuth(gate: AdminGate) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request);
    if (token === null) {
      const id = sessionCookie(request);
      if (id !== undefined) {
        await admitSession(request, gate.sessions, id);
        return;
      }
      if (request.headers.authorization === undefined) throw adminUnauthorized(reply);
    }
    await gate.throttle?.check(request.ip);
    if (!isAdminToken(gate, token)) {
      await adminAuthFailed(gate, request, token !== null);
      throw adminUnauthorized(reply);
    }
  };
}

/** The dashboard session id of the request's cookie, if it carries one. */
export function sessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? fastifyCookie.parse(header)[SESSION_COOKIE] : undefined;
}

/**
 * Admits a request by its session cookie. A browser sends the cookie with requests other sites
 * make too, so a write must also prove it comes from the dashboard: the X-CSRF-Token header
 * (which another site cannot read or set) and, when the browser names one, this service's Origin.
 * Sessions never meet the throttle: an id has 256 random bits (nothing to guess), so a live one is
 * admitted even from an address that sent wrong tokens, and an unknown or expired one is not
 * counted (a dashboard left open past its session would otherwise lock its operator out).
 */
async function admitSession(request: FastifyRequest, sessions: DashboardSessions, id: string) {
  const session = await sessions.find(id);
  if (!session) throw unauthorized('The dashboard session has expired or was closed; sign in again.');
  if (request.method !== 'GET' && request.method !== 'HEAD') refuseCrossSite(request, sessions, session);
}

/** Throws FORBIDDEN unless a cookie-authenticated write carries the CSRF token and no foreign Origin. */
export function refuseCrossSite(
  request: FastifyRequest,
  sessions: DashboardSessions,
  session: DashboardSession,
): void {
  if (!sessions.csrfMatches(session, request.headers['x-csrf-token'])) {
    throw new ApiError(
      'FORBIDDEN',
      'A change made with the dashboard session needs its "X-CSRF-Token" header.',
    );
  }
  if (!sameOrigin(request)) {
    throw new ApiError('FORBIDDEN', 'A change made with the dashboard session must come from this service.');
  }
}

/**
 * True without an Origin header (not every browser sends one), else when it names this service's
 * host. Hosts, not schemes, are compared: behind a TLS proxy without TRUST_PROXY the request looks
 * like plain HTTP while the browser's Origin says https, and another site never has this host.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    const given = new URL(origin);
    if (given.protocol !== 'https:' && given.protocol !== 'http:') return false;
    // Read with the Origin's scheme, so that a default port (":443", ":80") compares equal.
    return new URL(`${given.protocol}//${request.host}`).host === given.host;
  } catch {
    return false;
  }
}
