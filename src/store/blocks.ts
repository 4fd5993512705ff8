import type { DomainError } from '../domain/errors.js';
import type { Refusal } from '../domain/ports/read-model.js';
import { contactBlocked } from '../domain/ports/verifications.js';
import type { NewVerification } from '../domain/types.js';

/**
 * An operator's block, as a send's write holds it. The risk screen reads a destination's block
 * with its history, unless the store's destination filter spares it that read (an email address
 * the filter says the database never held). The filter may be wrong: an instance that missed
 * another's sends, a deployment it was not meant for. So a store that keeps a filter reads, in
 * the unit that writes a send (SQLite's write unit, PostgreSQL's send statement), whether the
 * contact of one of its destinations is blocked (SQLite: index contacts_destination; PostgreSQL:
 * contacts_blocked, of the blocked contacts only), and refuses the whole send if so: a block
 * never depends on the filter. A store without a filter writes as
 * before (its screen read the block moments earlier), so the check costs nothing there.
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
