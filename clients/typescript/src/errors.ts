import type { components } from './schema.js';

type Schemas = components['schemas'];

/**
 * The closed list of error codes the service answers with (`error.code`), as the API document's
 * `ErrorCode` enum lists them, in its order (the drift test compares the two at run time; the type
 * check below fails on a code missing here).
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'INVALID_DESTINATION',
  'UNSUPPORTED_NUMBER',
  'UNAUTHORIZED',
  /** A dashboard-session request without its CSRF token, or from another site (admin API only). */
  'FORBIDDEN',
  'CHANNEL_NOT_ENABLED',
  'CONTACT_BLOCKED',
  'RISK_TOO_HIGH',
  'NOT_FOUND',
  'REQUEST_TIMEOUT',
  'IDEMPOTENCY_KEY_IN_USE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'TOO_MANY_ATTEMPTS',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
  'DELIVERY_FAILED',
  'UNAVAILABLE',
  /** 503 that a retry does not cure: no provider for the channel (LIVE_OUTBOX=refuse); never retried. */
  'CHANNEL_UNAVAILABLE',
] as const satisfies ReadonlyArray<Schemas['ErrorCode']>;

// Fails to compile when the document's ErrorCode has a code ERROR_CODES lacks.
const everyCode: [Exclude<Schemas['ErrorCode'], (typeof ERROR_CODES)[number]>] extends [never]
  ? true
  : never = true;
void everyCode;

/** A code of the service, or `NETWORK_ERROR`: no answer at all (network failure or timeout, `status` 0). */
export type ErrorCode = (typeof ERROR_CODES)[number] | 'NETWORK_ERROR';

/** One problem of a request (`VALIDATION_ERROR` has one per broken rule). */
export type ErrorDetail = Schemas['ErrorDetail'];

/**
 * Every failure of a call: the service's error body, with the HTTP status and `Retry-After`.
 * The subclasses below let a `catch` pick the cases a caller handles differently; each is a
 * `ContactVerifyError`, so one `instanceof ContactVerifyError` and a `switch (err.code)` also work.
 */
export class ContactVerifyError extends Error {
  override readonly name: string = 'ContactVerifyError';
  constructor(
    /** The HTTP status; 0 when no answer came (`NETWORK_ERROR`). */
    readonly status: number,
    /** The contract's stable code (`err.code === 'RATE_LIMITED'`). */
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Seconds to wait before a retry can succeed (`Retry-After`), when the service said so. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }

  /** The typed error for an answer: the most specific subclass its status and code name. */
  static from(
    status: number,
    code: string,
    message: string,
    details: ErrorDetail[] = [],
    retryAfter: number | null = null,
  ): ContactVerifyError {
    const Kind =
      status === 0
        ? NetworkError
        : status === 401
          ? AuthenticationError
          : status === 404
            ? NotFoundError
            : code === 'RATE_LIMITED'
              ? RateLimitError
              : code === 'TOO_MANY_ATTEMPTS'
                ? TooManyAttemptsError
                : status === 400
                  ? InvalidRequestError
                  : status >= 500
                    ? ServerError
                    : ContactVerifyError;
    return new Kind(status, code, message, details, retryAfter);
  }
}

/** No answer: the service is unreachable or the call timed out (`status` 0, `NETWORK_ERROR`). */
export class NetworkError extends ContactVerifyError {
  override readonly name: string = 'NetworkError';
}
/** 401 `UNAUTHORIZED`: a missing, malformed, unknown or revoked key. */
export class AuthenticationError extends ContactVerifyError {
  override readonly name: string = 'AuthenticationError';
}
/** 404 `NOT_FOUND`: an unknown `requestId`, another account's, or a channel the key lacks. */
export class NotFoundError extends ContactVerifyError {
  override readonly name: string = 'NotFoundError';
}
/** 400: `VALIDATION_ERROR` (one detail per broken rule), `INVALID_DESTINATION`, `UNSUPPORTED_NUMBER`, … */
export class InvalidRequestError extends ContactVerifyError {
  override readonly name: string = 'InvalidRequestError';
}
/** 429 `RATE_LIMITED`: `retryAfter` says when a new send can succeed (show it to the user). */
export class RateLimitError extends ContactVerifyError {
  override readonly name: string = 'RateLimitError';
}
/** 429 `TOO_MANY_ATTEMPTS`: the request's attempts are used up; ask for a new code. */
export class TooManyAttemptsError extends ContactVerifyError {
  override readonly name: string = 'TooManyAttemptsError';
}
/** 5xx: `UNAVAILABLE`, `INTERNAL`, `DELIVERY_FAILED`, `CHANNEL_UNAVAILABLE`. */
export class ServerError extends ContactVerifyError {
  override readonly name: string = 'ServerError';
}

/** The test helper found no code: no message to that address, or its request is not a test-mode one. */
export class NoOutboxCodeError extends Error {
  override readonly name = 'NoOutboxCodeError';
}
