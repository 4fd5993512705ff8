import type { DeliveryResult } from './ports/delivery.js';
import type { Channel, VerificationStatus } from './types.js';

/** Observes outcomes for metrics; the HTTP layer and tests may pass nothing. */
export interface VerificationEvents {
  sent?(channel: Channel, result: DeliveryResult, durationMs: number): void;
  verified?(
    channel: Channel,
    outcome: 'verified' | 'wrong_code' | 'already_verified' | VerificationStatus | 'too_many_attempts',
  ): void;
  /** A request refused by a rate limit, by the limit's name (never the counter's key). */
  limited?(limit: string): void;
  /** A SILENT request's check concluded (verify-code asked its provider). */
  silentChecked?(outcome: string): void;
  /** A SILENT request fell back to a code on `channel`. */
  silentFallback?(channel: Channel, reason: string): void;
  /** The SMS-pumping breaker of an account tripped for `country`. */
  breakerTripped?(country: string): void;
  /**
   * A send's carrier lookup: answered by the provider (billed), the cache, the test numbers (a test
   * key), or failed (`lookup_unavailable`).
   */
  lookedUp?(outcome: 'provider' | 'cache' | 'test' | 'failed'): void;
}
