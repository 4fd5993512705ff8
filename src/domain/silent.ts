/**
 * Silent network authentication (the SILENT channel): what a provider's check can conclude, the
 * documented test numbers that stand in for a provider (test keys, and the outbox), and the URL a
 * test request hands the app. The providers are folders of src/delivery/providers (channel
 * SILENT); the send and verify use cases in ./verification.
 */

/**
 * What asking the provider concluded. `pending`: the device has not completed the check (a pending
 * result), try again; `rejected`: the network proved another SIM, or the check failed (a fallback
 * code may follow); `invalid_number`: the carrier says the number is not in service (a code
 * would fail too, so no fallback); `unavailable`: the provider could not be asked (5xx,
 * timeout, an answer it does not document); `code`: no provider decides (the outbox): the code
 * given is checked as any code; `needs_code`: the provider checks only the code it handed the
 * device, and none was given.
 */
export type SilentOutcome =
  | { kind: 'verified' }
  | { kind: 'pending' | 'rejected' | 'invalid_number' | 'unavailable'; reason: string }
  | { kind: 'code' | 'needs_code' };

/** What verify-code asks the provider of a SILENT request. */
export interface SilentCheck {
  /** The provider that started it ('outbox' when none did). */
  provider: string | null;
  /** The provider's id of the silent verification (its verification's sid or request id). */
  reference: string | null;
  /** The number, E.164. */
  to: string;
  /** The code the device received (when its provider hands one out), or null. */
  code: string | null;
}

/** Why a silent request fell back to a code: its provider failed at once, or the device took too long. */
export type FallbackReason = 'provider_failed' | 'rejected' | 'timeout';

/**
 * Test numbers of the SILENT channel, in the Australian regulator's (ACMA) range of mobile
 * numbers for fiction, valid mobiles that reach no one (docs/silent.md):
 * with a test key (or the outbox) no provider is asked and each behaves as listed; every other
 * number verifies with the requestId alone, or with the outbox's code as the device's code.
 */
export const SILENT_TEST_NUMBERS: Readonly<
  Record<string, { says: string; start?: string; check?: SilentOutcome }>
> = {
  '+61491570156': {
    says: 'the provider fails to start the check',
    start: 'test number: the silent provider is down',
  },
  '+61491570157': {
    says: 'the network proves another SIM (a fallback code follows when asked for)',
    check: { kind: 'rejected', reason: 'test number: the SIM does not match the number' },
  },
  '+61491570158': {
    says: 'the device never completes the check (a timeout fallback follows when asked for)',
    check: { kind: 'pending', reason: 'test number: the device has not opened silent.url' },
  },
  '+61491570159': {
    says: 'the carrier says the number is not in service (no fallback)',
    check: { kind: 'invalid_number', reason: 'test number: the carrier says the number is invalid' },
  },
};

/** What the outbox (or a test key) concludes of a check: the test numbers, else a code or success. */
export function testSilentOutcome(to: string, code: string | null): SilentOutcome {
  const check = SILENT_TEST_NUMBERS[to]?.check;
  if (check) return check;
  return code === null ? { kind: 'verified' } : { kind: 'code' };
}

/** Why a test number's silent start fails, or null. */
export const testSilentStartFailure = (to: string): string | null => SILENT_TEST_NUMBERS[to]?.start ?? null;

/**
 * The URL a SILENT request of the outbox hands the app: in the `.invalid` top-level domain (RFC
 * 2606), so that nothing answers it; the app of a test integration skips opening it.
 */
export const testSilentUrl = (requestId: string): string => `https://silent.test.invalid/v1/${requestId}`;
