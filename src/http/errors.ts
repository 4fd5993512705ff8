import { DomainError, type DomainErrorCode, type ErrorDetail } from '../domain/errors.js';

/**
 * The closed list of error codes, their HTTP statuses, and the one renderer that turns them into
 * `{error: {code, message, details?}}`. Every error the API emits goes through here.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  INVALID_DESTINATION: 400,
  UNSUPPORTED_NUMBER: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  CHANNEL_NOT_ENABLED: 403,
  CONTACT_BLOCKED: 403,
  RISK_TOO_HIGH: 403,
  NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  TOO_MANY_ATTEMPTS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  DELIVERY_FAILED: 502,
  UNAVAILABLE: 503,
  CHANNEL_UNAVAILABLE: 503,
} as const satisfies Record<DomainErrorCode, number> & Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export type { ErrorDetail };

/** An error the API answers on purpose; anything else is rendered as INTERNAL. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Seconds after which a retry can succeed; sent as `Retry-After`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/** The answer to an outcome the domain refused a request with. */
export const fromDomainError = (err: DomainError): ApiError =>
  new ApiError(err.code, err.message, err.details, err.retryAfterSeconds);

export { DomainError };

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] };
}

export function renderError(err: ApiError): ErrorBody {
  return err.details && err.details.length > 0
    ? { error: { code: err.code, message: err.message, details: err.details } }
    : { error: { code: err.code, message: err.message } };
}

export const validationError = (details: ErrorDetail[]): ApiError =>
  new ApiError(
    'VALIDATION_ERROR',
    details.length === 1
      ? `Invalid request: ${details[0]!.message}`
      : `Invalid request: ${details.length} problems, see details.`,
    details,
  );
