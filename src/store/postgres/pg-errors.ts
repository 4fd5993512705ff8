import { StoreUnavailable } from '../../domain/ports/storage-errors.js';

// Network failures seen by node-postgres, and the server's "going away" SQLSTATEs: 57P01 admin
// shutdown (a restart), 57P02 crash shutdown, 57P03 still starting, 53300 too many connections.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

// node-postgres reports a dropped socket or an exhausted wait with plain messages, no code.
const UNAVAILABLE_MESSAGES =
  /connection terminated|connection error|not queryable|timeout exceeded when trying to connect|query read timeout|socket hang up/i;

/** True when `err` means the database cannot be reached, rather than that a statement failed. */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof StoreUnavailable) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  // Class 08 is "connection exception".
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (err instanceof AggregateError) return err.errors.some(isConnectionError);
  return UNAVAILABLE_MESSAGES.test(err.message);
}

/** Turns a connection failure into StoreUnavailable (503); any other error passes unchanged. */
export function toStoreError(err: unknown): unknown {
  if (err instanceof StoreUnavailable || !isConnectionError(err)) return err;
  return new StoreUnavailable(`database unavailable: ${(err as Error).message}`, { cause: err });
}

/** Deadlock (40P01) or serialization failure (40001): the statement rolled back and may be retried. */
export function isRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/** A unique index refused the row (23505): another transaction wrote its key first. */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '23505';
}
