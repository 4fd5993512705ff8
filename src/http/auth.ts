import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { KEY_PATTERN } from '../domain/api-keys.js';
import type { AuthenticatedKey } from '../domain/types.js';
import type { Store } from '../store/interface.js';
import type { AdminThrottle } from './admin-throttle.js';
import { ApiError } from './errors.js';
import { keyCacheOf } from './key-cache.js';

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
export function apiKeyAuth(store: Store): onRequestHookHandler {
  const keys = keyCacheOf(store);
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
      return done();
    }
    found.then((key) => {
      if (!key) return done(refuse(reply, token));
      request.apiKey = key;
      done();
    }, done);
  };
}

/**
 * An onRequest hook that admits `Authorization: Bearer <ADMIN_TOKEN>` (compared as digests). With a
 * throttle, failures are counted and a throttled client is answered 429 before its token is read.
 */
export function adminAuth(adminTokenHash: Buffer, throttle?: AdminThrottle) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await throttle?.check(request.ip);
    const token = bearerToken(request);
    const candidate = token ? createHash('sha256').update(token).digest() : null;
    if (!candidate || !timingSafeEqual(candidate, adminTokenHash)) {
      // Never the token itself: a near-miss would tell a reader of the logs most of the secret.
      request.log.warn(
        {
          ip: request.ip,
          method: request.method,
          url: request.url.split('?')[0],
          tokenGiven: token !== null,
        },
        'admin authentication failed',
      );
      await throttle?.failed(request.ip);
      reply.header('www-authenticate', 'Bearer realm="contact-verify-admin"');
      throw unauthorized('Send the admin token as "Authorization: Bearer <ADMIN_TOKEN>".');
    }
  };
}
