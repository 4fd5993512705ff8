import { codeGuess } from '../codes.js';
import { DomainError } from '../errors.js';
import type { CodeGuess } from '../ports/verifications.js';
import type { EffectiveSettings } from '../settings.js';
import type { SilentOutcome } from '../silent.js';
import type { AuthenticatedKey, Verification } from '../types.js';
import type { VerificationDeps } from './deps.js';
import type { FallbackEntry } from './send-entry.js';
import type { SilentFallbackSender } from './silent-fallback.js';
import type { SilentCheckOutcome, VerifyResult } from './verify-result.js';

/** What verify-code's counting attempt is (./verify.ts VerifyCode.attempt). */
interface Attempts {
  attempt(
    key: AuthenticatedKey,
    requestId: string,
    guess: CodeGuess,
    s: EffectiveSettings,
  ): Promise<VerifyResult>;
}

/** A guess that matches no row: a failed check counted as a wrong guess. */
const NO_MATCH: CodeGuess = { pick: () => null };

/** A guess that matches the SILENT row itself: the provider proved the SIM. */
const theRow = (id: string): CodeGuess => ({ pick: (rows) => (rows.some((r) => r.id === id) ? id : null) });

/**
 * verify-code on a pending SILENT request: the provider that started it is asked what the device
 * proved, and its conclusion is written as an attempt on the group (verified: the SILENT row wins
 * and its sibling is canceled; a failed check: a counted wrong guess). A check that failed fires
 * the fallback at once; a code the provider does not accept is checked as any code, since it may
 * be the fallback's. Every answer says what the check concluded (`silent.outcome`).
 */
export class SilentVerify {
  constructor(
    private readonly deps: VerificationDeps,
    private readonly attempts: Attempts,
    private readonly fallbacks: SilentFallbackSender,
    private readonly secrets: () => Buffer[],
  ) {}

  async verify(
    key: AuthenticatedKey,
    request: Verification,
    code: string | null,
    s: EffectiveSettings,
  ): Promise<VerifyResult> {
    const { delivery, events, clock } = this.deps;
    const withCode = (guess: CodeGuess) => this.attempts.attempt(key, request.id, guess, s);
    const asCode = () => (code === null ? NO_MATCH : codeGuess(this.secrets(), code));
    // Settled or expired: nothing to ask; the attempt answers its state and counts nothing.
    if (request.status !== 'pending' || request.expiresAt <= clock.now()) return withCode(asCode());
    const outcome = await delivery.checkSilent(
      { provider: request.provider, reference: request.providerMessageId, to: request.destination, code },
      key.mode,
    );
    events?.silentChecked?.(outcome.kind);
    switch (outcome.kind) {
      case 'verified': {
        const result = await withCode(theRow(request.id));
        if (result.verified) await this.dropFallback(request.id);
        return { ...result, silent: { outcome: 'verified' } };
      }
      case 'code': {
        // No provider decides (the outbox stands in for one, its code the device's; or a provider
        // that takes no code was given one: a fallback's): the code is checked as any code.
        const result = await withCode(asCode());
        if (!result.verified || result.channel !== request.channel) return result;
        await this.dropFallback(request.id);
        return { ...result, silent: { outcome: 'verified' } };
      }
      case 'needs_code':
        throw new DomainError(
          'VALIDATION_ERROR',
          "This SILENT request's provider checks the code it handed the device at silent.url: send it as code.",
          [{ field: 'code', message: 'code is required: the code the device received from silent.url' }],
        );
      case 'pending': {
        if (code !== null) return this.described(await withCode(asCode()), outcome);
        return {
          verified: false,
          channel: request.channel,
          requestId: request.id,
          status: 'pending',
          attemptsRemaining: Math.max(0, request.maxAttempts - request.attempts),
          silent: { outcome: 'pending', reason: outcome.reason },
        };
      }
      case 'rejected': {
        const fallback = await this.fallbacks.fireNow(request.id, 'rejected', s);
        return this.described(await withCode(asCode()), outcome, fallback);
      }
      case 'invalid_number':
        // A code would not reach an invalid number either (the carrier said so): no fallback.
        await this.dropFallback(request.id);
        return this.described(await withCode(asCode()), outcome);
      case 'unavailable': {
        const fallback = await this.fallbacks.fireNow(request.id, 'provider_failed', s);
        if (code !== null) return this.described(await withCode(asCode()), outcome, fallback);
        const scheduled = fallback ?? (await this.deps.store.silentFallbacks.get(request.id));
        if (!scheduled)
          throw new DomainError(
            'DELIVERY_FAILED',
            'The silent provider could not be asked; retry shortly, or send a code by another channel.',
            [{ field: 'requestId', channel: request.channel, message: outcome.reason }],
          );
        return {
          verified: false,
          channel: request.channel,
          requestId: request.id,
          status: 'pending',
          attemptsRemaining: Math.max(0, request.maxAttempts - request.attempts),
          silent: { outcome: 'unavailable', reason: outcome.reason },
          ...(fallback ? { fallback } : {}),
        };
      }
    }
  }

  /** The attempt's answer with what the silent check concluded (and the fallback it fired). */
  private described(
    result: VerifyResult,
    outcome: Extract<SilentOutcome, { reason: string }>,
    fallback?: FallbackEntry | null,
  ): VerifyResult {
    // A fallback code that matched verified the request: the check's failure is history.
    const silent: { outcome: SilentCheckOutcome; reason?: string } = {
      outcome: outcome.kind,
      reason: outcome.reason,
    };
    return { ...result, silent, ...(fallback ? { fallback } : {}) };
  }

  /** The silent request settled: its fallback, if any is still scheduled, will not fire. */
  private async dropFallback(requestId: string) {
    await this.deps.store.silentFallbacks.finish(requestId, { state: 'dropped' }, this.deps.clock.now());
  }
}
