import { isPhoneChannel } from './channels/registry.js';
import type { Clock } from './clock.js';
import { canonicalMailbox } from './mailbox.js';
import type { NumberFacts } from './number-facts.js';
import { numberIntelligenceOf } from './number-intelligence-settings.js';
import { checkPhone } from './phone.js';
import type { KeysAndAccounts } from './ports/keys-and-accounts.js';
import type { NumberLookup } from './ports/number-lookup.js';
import type { ContactHistoryEntry, ContactListFilter, ContactRecord, ReadModel } from './ports/read-model.js';
import type { Mode } from './types.js';

/** A contact with its last requests. */
export interface ContactProfile {
  contact: ContactRecord;
  history: ContactHistoryEntry[];
  /**
   * What carrier lookups know of a phone contact's number (line type, carrier, last SIM change),
   * as the lookups' cache holds it now; null for an email contact, an account without lookups, or
   * a number the cache holds nothing fresh of.
   */
  number: ContactNumber | null;
}

/** A phone contact's carrier facts, with when each part was looked up. */
export interface ContactNumber {
  facts: NumberFacts;
  lineCheckedAt: number | null;
  simCheckedAt: number | null;
}

/** What a profile reads carrier facts with: the lookups (never a provider), and the account's settings. */
export interface ContactNumbers {
  lookup: Pick<NumberLookup, 'known'>;
  accounts: Pick<KeysAndAccounts, 'getAccount'>;
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
    private readonly numbers?: ContactNumbers,
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
    const history = await this.readModel.contactHistory(contact, HISTORY_LIMIT);
    return { contact, history, number: await this.numberOf(contact, history) };
  }

  /**
   * The carrier facts of a phone contact, for an account that looks numbers up: the cache is
   * shared by the accounts of a deployment, and an account without lookups is shown nothing
   * another account's sends looked up. The number is the one its last request was sent to (the
   * lookups' key), else its subscriber number.
   */
  private async numberOf(
    contact: ContactRecord,
    history: ContactHistoryEntry[],
  ): Promise<ContactNumber | null> {
    if (!this.numbers || !isPhoneChannel(contact.channel)) return null;
    const account = await this.numbers.accounts.getAccount(contact.accountId);
    if (!account || numberIntelligenceOf(account.settings as Record<string, unknown>).lookup === 'off')
      return null;
    const e164 = history.find((h) => isPhoneChannel(h.channel))?.address ?? contact.destination;
    return this.numbers.lookup.known(e164, contact.mode);
  }

  /** Blocks a contact: its sends are refused (CONTACT_BLOCKED). Null when there is none. */
  block(id: string, reason: string): Promise<ContactRecord | null> {
    return this.readModel.setContactBlocked(id, { reason }, this.clock.now());
  }

  unblock(id: string): Promise<ContactRecord | null> {
    return this.readModel.setContactBlocked(id, null, this.clock.now());
  }
}
