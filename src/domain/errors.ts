/**
 * The outcomes with which the domain refuses a request, as values of its own: the HTTP layer
 * alone decides their statuses and bodies (src/http/errors.ts maps each code).
 */
export const DOMAIN_ERROR_CODES = [
  'VALIDATION_ERROR',
  'INVALID_DESTINATION',
  'UNSUPPORTED_NUMBER',
  'CHANNEL_NOT_ENABLED',
  'CONTACT_BLOCKED',
  'RISK_TOO_HIGH',
  'NOT_FOUND',
  'RATE_LIMITED',
  'TOO_MANY_ATTEMPTS',
  'DELIVERY_FAILED',
  'CHANNEL_UNAVAILABLE',
] as const;

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

/** One problem with one field of a request: `field` is a dotted path into the body. */
export interface ErrorDetail {
  field: string;
  message: string;
  /** A channel the detail concerns (rate limits of a dual send name the limited channel). */
  channel?: string;
}

/** A request the domain refuses, with a sentence a developer can act on. */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Seconds after which a retry can succeed (a rate limit's window). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
