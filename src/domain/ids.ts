import { randomUUID } from 'node:crypto';

/**
 * Identifiers that sort by creation time. A new row then lands at the right-hand end of every
 * index keyed by its id instead of on a random page, so a commit writes a few pages rather than
 * one per index per row, and an insert costs the same on a table of a million rows as on an
 * empty one. The random part comes from randomUUID, which draws entropy in bulk rather than
 * with one system call per id.
 */
const timeHex = (ms: number): string => Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');

/**
 * A UUIDv7 (RFC 9562): 48 bits of `ms`, the version 7, then 74 random bits with the RFC variant.
 * Unique and unguessable like a random UUID, and ordered by creation time.
 */
export function timeOrderedUuid(ms: number): string {
  const t = timeHex(ms);
  // randomUUID is xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: its first 48 bits give way to the time
  // and its version nibble to 7; the variant bits (y) stay as they are.
  return `${t.slice(0, 8)}-${t.slice(8)}-7${randomUUID().slice(15)}`;
}

/** 24 hex digits: 48 bits of time in ms, then 48 random bits. */
export function timeOrderedHex(ms: number): string {
  return timeHex(ms) + randomUUID().slice(24);
}
