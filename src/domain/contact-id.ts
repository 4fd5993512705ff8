import { createHmac } from 'node:crypto';

/**
 * A contact's id as a function of what it is (one destination of one account in one mode), so a
 * send knows the id of the contact it goes to without writing anything: the contact row itself is
 * made later, from the journal (the batch fold), and every send to the destination meanwhile
 * names the same id. Keyed, because a contact id is shown to operators and sent in webhooks: an
 * unkeyed hash of a phone number is reversed by trying every number.
 */
export function contactIdKey(codeSecret: Buffer): Buffer {
  return createHmac('sha256', codeSecret).update('contact-id').digest();
}

/** The contact id of `destination` (normalised) in `accountId` and its mode: a UUIDv8. */
export function contactIdOf(key: Buffer, accountId: string, test: boolean, destination: string): string {
  const h = createHmac('sha256', key)
    .update(`${accountId}\u0000${test ? 'test' : 'live'}\u0000${destination}`)
    .digest('hex');
  const variant = ((Number.parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
