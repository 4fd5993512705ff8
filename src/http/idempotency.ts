import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { Clock } from '../domain/clock.js';
import type { IdempotencyStore } from '../domain/ports/idempotency.js';
import { ApiError, validationError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key claim this request holds until its answer is stored. */
    idempotencyClaim?: { scope: string; key: string; claim: string; started: boolean };
  }
}

/** How long a key and its answer are kept: a retry within this replays the first answer. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
/** 1 to 255 printable ASCII characters (space included), as in the IETF draft and Stripe. */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The JSON of `value` with object keys sorted, so that key order does not change the hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Whether an answer is kept for replay: only the answer of a send that ran (its codes stored and
 * handed to a provider): a success, or a provider's verdict (502, or 400 for a refused
 * destination). A refusal before that (401, 403, 429, a 400 of the service's own rules) depends
 * on who asks and when, so a retry runs again; so does a server fault.
 */
const isReplayable = (started: boolean, status: number) =>
  started && (status === 200 || status === 400 || status === 502);

/** The key space of an Idempotency-Key: the API key that sent it (which fixes account and mode). */
const scopeOf = (request: FastifyRequest) => `key:${request.apiKey.id}`;

/**
 * The Idempotency-Key handling of one route: `checkHeader` refuses a malformed key before
 * anything runs; `claim` (called by the handler once the body is valid) claims the key or answers
 * in its place; `started` marks the send as running; `onSend` stores the answer, or releases the
 * key when the answer must not be replayed. The answer is stored before it is sent, so a client that saw it gets it again.
 */
export function idempotency(store: IdempotencyStore, clock: Clock, leaseMs: number) {
  const checkHeader: preHandlerHookHandler = (request, _reply, done) => {
    const key = request.headers['idempotency-key'];
    if (key !== undefined && (typeof key !== 'string' || !KEY_PATTERN.test(key))) {
      return done(
        validationError([
          {
            field: 'Idempotency-Key',
            message: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
          },
        ]),
      );
    }
    done();
  };

  /** Resolves true when the reply was answered here (a replay); throws 409 or 422. */
  async function claim(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return false;
    const scope = scopeOf(request);
    const now = clock.now();
    const token = randomUUID();
    const outcome = await store.claim({
      scope,
      key,
      fingerprint: createHash('sha256').update(canonicalJson(request.body)).digest('base64url'),
      claim: token,
      now,
      leaseMs,
      expiredBefore: now - IDEMPOTENCY_WINDOW_MS,
    });
    switch (outcome.kind) {
      case 'claimed':
        request.idempotencyClaim = { scope, key, claim: token, started: false };
        return false;
      case 'replay':
        reply
          .code(outcome.status)
          .header('idempotent-replayed', 'true')
          .type('application/json; charset=utf-8')
          .send(outcome.body);
        return true;
      case 'mismatch':
        throw new ApiError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used with a different body in the last 24 hours; use a new key for a new request.',
        );
      case 'in_use':
        throw new ApiError(
          'IDEMPOTENCY_KEY_IN_USE',
          'A request with this Idempotency-Key is still running; retry after it has answered.',
          undefined,
          1,
        );
    }
  }

  const onSend: onSendHookHandler<unknown> = async (request, reply, payload) => {
    const held = request.idempotencyClaim;
    if (!held) return payload;
    request.idempotencyClaim = undefined;
    try {
      if (isReplayable(held.started, reply.statusCode)) {
        await store.complete(held.scope, held.key, held.claim, reply.statusCode, String(payload));
      } else {
        await store.release(held.scope, held.key, held.claim);
      }
    } catch (err) {
      // The answer still goes out; the claim's lease ends by itself and a retry then runs again.
      request.log.warn({ err: (err as Error).message }, 'idempotency answer not stored');
    }
    return payload;
  };

  /** Marks the send as running: from here on its answer is kept for replay (see isReplayable). */
  const started = (request: FastifyRequest) => {
    if (request.idempotencyClaim) request.idempotencyClaim.started = true;
  };

  return { checkHeader, claim, started, onSend };
}
