import type { Clock } from '../domain/clock.js';

export interface BreakerPolicy {
  /** Consecutive retryable failures that open the circuit. */
  failures: number;
  /** How long an open circuit skips the provider. */
  cooldownMs: number;
}

/**
 * Skips a provider that failed `failures` times in a row for `cooldownMs`, so that requests stop
 * waiting on its timeouts. After the cool-off one request tries it again (half-open): a success
 * closes the circuit, a failure opens it for another cool-off.
 */
export class CircuitBreaker {
  private consecutiveFailures = 0;
  private openUntil = 0;

  constructor(
    private readonly policy: BreakerPolicy,
    private readonly clock: Clock,
  ) {}

  /** False while the circuit is open. */
  allows(): boolean {
    return this.clock.now() >= this.openUntil;
  }

  isOpen(): boolean {
    return !this.allows();
  }

  success(): void {
    this.consecutiveFailures = 0;
    this.openUntil = 0;
  }

  failure(): void {
    this.consecutiveFailures += 1;
    if (this.consecutiveFailures >= this.policy.failures) {
      this.openUntil = this.clock.now() + this.policy.cooldownMs;
      // Half-open after the cool-off: the next failure alone opens it again.
      this.consecutiveFailures = this.policy.failures - 1;
    }
  }
}
