import { canonicalMailbox } from '../mailbox.js';
import { checkPhone } from '../phone.js';
import type { OutboxEntry, OutboxFilter, Verifications } from '../ports/verifications.js';

/** Reading the built-in outbox: the messages it kept, as their recipients would see them. */
export class OutboxSearch {
  constructor(private readonly verifications: Pick<Verifications, 'listOutbox'>) {}

  /**
   * A page of the messages the built-in outbox kept, newest first. `to` is what a person would
   * type: any way of writing an address finds the messages of its mailbox.
   */
  outbox(filter: OutboxFilter): Promise<OutboxEntry[]> {
    return this.verifications.listOutbox({
      ...filter,
      to: filter.to ? outboxDestination(filter.to) : undefined,
    });
  }
}

/**
 * The outbox is searched by canonical mailbox (email) or subscriber number; accept what a person
 * would type: any way of writing an address finds the messages of its mailbox.
 */
export function outboxDestination(to: string): string {
  const value = to.trim();
  if (value.includes('@')) return canonicalMailbox(value) ?? value.toLowerCase();
  const phone = checkPhone(value.startsWith('+') ? value : `+${value.replace(/^00/, '')}`);
  return phone.ok ? phone.subscriber : value;
}
