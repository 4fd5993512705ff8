import type { DomainError } from '../domain/errors.js';
import type { Refusal } from '../domain/ports/read-model.js';
import { contactBlocked } from '../domain/ports/verifications.js';
import type { NewVerification } from '../domain/types.js';

/**
 * An operator's block, as a send's write holds it. Each store reads, in the unit that writes a
 * send (SQLite's write unit, PostgreSQL's send statement), whether the contact of one of its
 * destinations is blocked (index contacts_destination), and refuses the whole send if so. So a
 * block never depends on what the risk screen read: the destination filter skips that read for
 * an address it never saw (an instance that missed another's sends, a tampered filter), and a
 * block that commits between a send's screen and its write still refuses it.
 */

/** The refusal of a send whose row `blocked` goes to a blocked contact, and what analytics counts of it. */
export function refusedSend(blocked: NewVerification): { error: DomainError; refusal: Refusal } {
  return {
    error: contactBlocked(blocked.channel),
    refusal: {
      accountId: blocked.accountId,
      mode: blocked.mode,
      at: blocked.createdAt,
      channel: blocked.channel,
      country: blocked.country,
      purpose: blocked.purpose,
      reason: 'blocked',
    },
  };
}
