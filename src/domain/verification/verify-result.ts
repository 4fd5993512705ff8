import type { Channel, VerificationStatus } from '../types.js';
import type { FallbackEntry } from './send-entry.js';

/** The answer of verify-code. */
export interface VerifyResult {
  verified: boolean;
  channel: Channel;
  requestId: string;
  status: VerificationStatus;
  attemptsRemaining: number;
  /** SILENT: what the provider's check concluded, and why, when it did not verify. */
  silent?: { outcome: SilentCheckOutcome; reason?: string };
  /** SILENT: the fallback code this call's failed check sent. */
  fallback?: FallbackEntry;
}

/** What verify-code reports of a silent check (SilentOutcome's kinds as the API names them). */
export type SilentCheckOutcome = 'verified' | 'pending' | 'rejected' | 'invalid_number' | 'unavailable';
