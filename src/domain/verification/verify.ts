import { CHANNELS, countsInCountryWindow, isSilentChannel } from '../channels/registry.js';
import { codeGuess } from '../codes.js';
import { DomainError } from '../errors.js';
import type { AttemptTarget, CodeGuess } from '../ports/verifications.js';
import type { EffectiveSettings } from '../settings.js';
import type { AuthenticatedKey, Channel, VerificationStatus } from '../types.js';
import { limitScope, type VerificationDeps } from './deps.js';
import { notFound } from './resource.js';
import type { RequestSettings } from './settings.js';
import { SilentFallbackSender } from './silent-fallback.js';
import type { VerifyResult } from './verify-result.js';
import { SilentVerify } from './verify-silent.js';

export type { SilentCheckOutcome, VerifyResult } from './verify-result.js';

/**
 * Checking a code. The attempt is counted atomically before the comparison, so parallel guesses
 * can never evaluate more codes than the attempts allow; success consumes the whole group.
 */
export class VerifyCode {
  private readonly silent: SilentVerify;

  constructor(
    private readonly deps: VerificationDeps,
    private readonly settings: RequestSettings,
  ) {
    this.silent = new SilentVerify(deps, this, new SilentFallbackSender(deps), () => this.secrets());
  }

  /**
   * `code` null: no code was given, which only a SILENT request takes (its provider is asked). A
   * SILENT request's provider is asked first in any case; a code it does not accept is then checked
   * as any code, since the group may hold its fallback code.
   */
  async verify(key: AuthenticatedKey, requestId: string, code: string | null): Promise<VerifyResult> {
    const { limits } = this.deps;
    const s = this.settings.forKey(key);
    await limits.checkKeyRate('verify', key.id, s);
    // Only keys that may see SILENT requests, or a call without a code, pay this read.
    const request =
      code === null || key.channels.some(isSilentChannel) ? await this.visible(key, requestId) : null;
    if (request && isSilentChannel(request.channel)) return this.silent.verify(key, request, code, s);
    if (code === null) {
      if (!request) throw notFound();
      throw new DomainError('VALIDATION_ERROR', 'otpCode (or code) is required.', [
        {
          field: 'otpCode',
          message: 'otpCode (or code) is required: only a SILENT request is verified without one',
        },
      ]);
    }
    // Letters are a device's code of a SILENT request (a provider that hands one out); a code this service sent is digits.
    if (!/^[0-9]{4,10}$/.test(code))
      throw new DomainError('VALIDATION_ERROR', 'code must be a string of 4 to 10 digits.', [
        {
          field: 'code',
          message: 'code must be a string of 4 to 10 digits (letters only for a SILENT request)',
        },
      ]);
    return this.attempt(key, requestId, codeGuess(this.secrets(), code), s);
  }

  private secrets(): Buffer[] {
    return [this.deps.codeSecret, ...(this.deps.previousCodeSecrets ?? [])];
  }

  /** The request when the key may see it (its account, mode and channels); else null. */
  private async visible(key: AuthenticatedKey, requestId: string) {
    const request = await this.deps.store.verifications.getVerification(key.accountId, requestId, key.mode);
    return request && key.channels.includes(request.channel) ? request : null;
  }

  /**
   * One counted attempt of `guess` on the request's group (src/domain/ports/verifications.ts). A
   * silent check's conclusion reaches the store this way too: as a guess that picks the SILENT row
   * (verified), or none (a failed check, counted as a wrong guess).
   */
  async attempt(
    key: AuthenticatedKey,
    requestId: string,
    guess: CodeGuess,
    s: EffectiveSettings,
  ): Promise<VerifyResult> {
    const { store, clock, limits } = this.deps;
    const now = clock.now();
    // Compare against every code of the group (a dual pair accepts either), under the code secret
    // and the previous ones of a rotation. A request of a channel the key is not enabled for is not
    // found (the store checks it on the request it reads).
    const scope = CHANNELS.every((c) => key.channels.includes(c)) ? undefined : key.channels;
    const outcome = await store.verifications.attempt(key.accountId, requestId, now, guess, key.mode, scope);
    const { request, counted } = outcome;
    if (!request) throw notFound();

    if (!counted) return this.uncounted(key, request, now);
    const match = counted.rows.find((r) => r.id === outcome.winnerId);
    if (match) {
      if (!outcome.consumed) return this.uncounted(key, request, now);
      if (match.country && countsInCountryWindow(match.channel))
        await limits.countCountryVerified(limitScope(key), match.country, request.createdAt);
      this.deps.logger.info(
        { requestId, channel: match.channel, attempts: counted.attempts },
        'code verified',
      );
      // The answer names the request that was verified: in a dual pair, the one whose code matched
      // (it may be the sibling of the id given), as the store, the outbox and the resource say;
      // the other one settled as `canceled`.
      return this.answer({ ...request, id: match.id }, true, 'verified', match.channel, counted.attempts);
    }

    await limits.recordFailure(limitScope(key), request.destination, s);
    // The last wrong guess failed the group in the statement that counted it.
    const status = counted.attempts >= counted.maxAttempts ? 'failed' : 'pending';
    return this.answer(request, false, status, request.channel, counted.attempts);
  }

  /**
   * Nothing was counted: the request was settled, expired or used up when read, or (a parallel
   * attempt having counted or consumed in between) it moved on since, and is read again.
   */
  private async uncounted(key: AuthenticatedKey, request: AttemptTarget, now: number): Promise<VerifyResult> {
    const { store } = this.deps;
    const live =
      request.status === 'pending' && request.expiresAt > now && request.attempts < request.maxAttempts;
    const current = live
      ? ((await store.verifications.getVerification(key.accountId, request.id, key.mode)) ?? request)
      : request;
    if (
      current.status === 'failed' ||
      (current.status === 'pending' && current.attempts >= current.maxAttempts)
    ) {
      if (current.status === 'pending') await store.verifications.settleGroup(current.groupId, 'failed', now);
      this.deps.events?.verified?.(current.channel, 'too_many_attempts');
      throw new DomainError(
        'TOO_MANY_ATTEMPTS',
        'Every attempt for this verification is used up; send a new code.',
      );
    }
    if (current.status === 'pending' && current.expiresAt <= now) {
      await store.verifications.settleGroup(current.groupId, 'expired', now);
      return this.answer(request, false, 'expired', current.channel, current.attempts);
    }
    return this.answer(request, false, current.status, current.channel, current.attempts);
  }

  private answer(
    request: AttemptTarget,
    verified: boolean,
    status: VerificationStatus,
    channel: Channel,
    attempts: number,
  ): VerifyResult {
    this.deps.events?.verified?.(
      channel,
      verified
        ? 'verified'
        : status === 'pending' || status === 'failed'
          ? 'wrong_code'
          : status === 'verified'
            ? 'already_verified'
            : status,
    );
    return {
      verified,
      channel,
      requestId: request.id,
      status,
      attemptsRemaining: Math.max(0, request.maxAttempts - attempts),
    };
  }
}
