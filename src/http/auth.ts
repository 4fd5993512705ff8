import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KEY_PATTERN } from '../domain/api-keys.js';
import type { AuthenticatedKey } from '../domain/types.js';
import type { Store } from '../store/interface.js';
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

/** An onRequest hook that resolves `Authorization: Bearer <API_KEY>` before the body is read. */
export function apiKeyAuth(store: Store) {
  const keys = keyCacheOf(store);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request);
    // The shape check spares the database a lookup for obvious garbage.
    const key = token && KEY_PATTERN.test(token) ? await keys.find(token) : null;
    if (!key) {
      reply.header('www-authenticate', 'Bearer realm="contact-verify"');
      throw unauthorized(
        token
          ? 'The API key is invalid or has been revoked.'
          : 'Send the API key as "Authorization: Bearer <API_KEY>".',
      );
    }
    request.apiKey = key;
  };
}

/** An onRequest hook that admits `Authorization: Bearer <ADMIN_TOKEN>` (compared as digests). */
export function adminAuth(adminTokenHash: Buffer) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request);
    const candidate = token ? createHash('sha256').update(token).digest() : null;
    if (!candidate || !timingSafeEqual(candidate, adminTokenHash)) {
      reply.header('www-authenticate', 'Bearer realm="contact-verify-admin"');
      throw unauthorized('Send the admin token as "Authorization: Bearer <ADMIN_TOKEN>".');
    }
  };
}
