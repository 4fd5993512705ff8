import type { Clock } from './clock.js';
import { canonicalMailbox } from './mailbox.js';
import { checkPhone } from './phone.js';
import type { ContactHistoryEntry, ContactListFilter, ContactRecord, ReadModel } from './ports/read-model.js';
import type { Mode } from './types.js';

/** A contact with its last requests. */
export interface ContactProfile {
  contact: ContactRecord;
  history: ContactHistoryEntry[];
}

/** How many requests a profile shows. */
const HISTORY_LIMIT = 100;

/**
 * Destinations are stored as canonical mailboxes (email) or subscriber numbers (E.164, phone.ts);
 * accept what an operator types: any way of writing an address finds its mailbox, any way of
 * dialling a number its subscriber, and the start of one stays a prefix.
 */
export function normaliseSearch(q: string): string {
  const value = q.trim();
  if (value.includes('@')) return canonicalMailbox(value) ?? value.toLowerCase();
  if (!/^[+0-9 ()-]+$/.test(value)) return value.toLowerCase();
  const digits = value.replace(/[ ()-]/g, '');
  const phone = checkPhone(digits.startsWith('+') ? digits : `+${digits}`);
  return phone.ok ? phone.subscriber : digits.startsWith('+') ? digits : `+${digits}`;
}

/** The contacts of the read model: search, pages, profiles, and the operator's block. */
export class Contacts {
  constructor(
    private readonly readModel: Pick<
      ReadModel,
      'searchContacts' | 'listContacts' | 'getContact' | 'contactHistory' | 'setContactBlocked'
    >,
    private readonly clock: Clock,
  ) {}

  /** The first `limit` contacts of an account whose destination starts with what the operator typed. */
  search(accountId: string, q: string, limit: number, mode?: Mode): Promise<ContactRecord[]> {
    return this.readModel.searchContacts(accountId, normaliseSearch(q), limit, mode);
  }

  /** Contacts of an account, most recently seen first, a page after `after`. */
  list(filter: ContactListFilter): Promise<ContactRecord[]> {
    return this.readModel.listContacts(filter);
  }

  /** The contact and its last requests; null when there is none with this id. */
  async profile(id: string): Promise<ContactProfile | null> {
    const contact = await this.readModel.getContact(id);
    if (!contact) return null;
    return { contact, history: await this.readModel.contactHistory(contact, HISTORY_LIMIT) };
  }

  /** Blocks a contact: its sends are refused (CONTACT_BLOCKED). Null when there is none. */
  block(id: string, reason: string): Promise<ContactRecord | null> {
    return this.readModel.setContactBlocked(id, { reason }, this.clock.now());
  }

  unblock(id: string): Promise<ContactRecord | null> {
    return this.readModel.setContactBlocked(id, null, this.clock.now());
  }
}
