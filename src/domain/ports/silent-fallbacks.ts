import type { FallbackReason } from '../silent.js';
import type { Channel, Mode } from '../types.js';

/**
 * The fallback of a SILENT request (send-code `fallback`): kept in the database, so that a
 * timeout fires on whichever instance claims it, after a restart too.
 */
export interface SilentFallback {
  /** The SILENT request; its fallback code becomes its dual sibling. */
  requestId: string;
  accountId: string;
  mode: Mode;
  /** The channel the code goes by. */
  channel: Channel;
  /** When the timeout fires (the account's silentTimeoutSeconds after the send). */
  dueAt: number;
  /** The number as given (where the code goes) and the subscriber it reaches (what limits key). */
  address: string;
  destination: string;
  country: string | null;
  purpose: string | null;
  customMessage: string | null;
  locale: string | null;
}

/** What became of a fallback, as the resource shows it. */
export interface FallbackRecord {
  requestId: string;
  channel: Channel;
  /** scheduled: waiting for the timeout; fired: a code was sent; dropped: the silent request settled first. */
  state: 'scheduled' | 'fired' | 'dropped';
  reason: FallbackReason | null;
  /** The fallback code's request (the SILENT request's dual sibling) once fired. */
  siblingId: string | null;
  firedAt: number | null;
}

/** The fallbacks of SILENT requests: scheduled with the send, claimed once, finished once. */
export interface SilentFallbacks {
  schedule(fallback: SilentFallback): Promise<void>;
  /**
   * Claims the scheduled fallbacks due by `now`, at most `limit`, for `leaseMs`: a claim is held by
   * one caller; a claimer that dies lets its claims come back when their lease ends.
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<SilentFallback[]>;
  /** Claims the scheduled fallback of one request at once (a silent failure); null when there is none to claim. */
  claim(requestId: string, now: number, leaseMs: number): Promise<SilentFallback | null>;
  /**
   * Ends a claimed fallback: `fired` with the sibling request it made (appending a `fallback`
   * change of the SILENT request, which the fold turns into the verification.fallback event and
   * counts), or `dropped`. The destination and message fields are erased.
   */
  finish(
    requestId: string,
    outcome: { state: 'fired'; reason: FallbackReason; siblingId: string } | { state: 'dropped' },
    now: number,
  ): Promise<void>;
  get(requestId: string): Promise<FallbackRecord | null>;
  /** Deletes finished fallbacks finished before `before`, in batches. */
  sweep(before: number, batchSize: number): Promise<number>;
}
