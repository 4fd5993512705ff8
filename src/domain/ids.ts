import { randomInt, randomUUID } from 'node:crypto';

/**
 * Identifiers that sort by creation time. A new row then lands at the right-hand end of every
 * index keyed by its id instead of on a random page, so a commit writes a few pages rather than
 * one per index per row, and an insert costs the same on a table of a million rows as on an
 * empty one. The random part comes from randomUUID, which draws entropy in bulk rather than
 * with one system call per id.
 */
const timeHex = (ms: number): string => Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');

let lastMs = -1;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): 48 bits of `ms`, the version 7, a 12-bit sequence, then 62 random bits with
 * the RFC variant. Unique and unguessable like a random UUID, and ordered by creation time; within
 * one process strictly increasing (RFC 9562 "method 1": a counter seeded at random each
 * millisecond), so that "newest first" by id holds for ids made in the same millisecond.
 */
export function timeOrderedUuid(ms: number): string {
  let time = Math.max(0, Math.floor(ms));
  if (time > lastMs) {
    lastMs = time;
    // Seeded in the lower half, leaving room for 2048 more ids in this millisecond.
    sequence = randomInt(0x800);
  } else {
    // A clock that stepped back, or a burst in one millisecond: continue from the last id.
    time = lastMs;
    sequence++;
    if (sequence > 0xfff) {
      lastMs = time = lastMs + 1;
      sequence = 0;
    }
  }
  return uuidV7(time, sequence);
}

/**
 * The UUIDv7 of `ms` with the 12-bit `sequence`, as is: no ordering across calls. randomUUID is
 * xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: the time, version and sequence replace its first 64 bits;
 * the variant bits (y) and the 62 random bits after them stay as they are.
 */
export function uuidV7(ms: number, sequence: number): string {
  return `${timeOrderedUuidFloor(ms)}-7${sequence.toString(16).padStart(3, '0')}${randomUUID().slice(18)}`;
}

/**
 * The time part of a UUIDv7 of `ms`: a string that sorts before every timeOrderedUuid of `ms` and
 * after every one of an earlier millisecond, so "id < floor" selects the ids made before `ms`.
 */
export function timeOrderedUuidFloor(ms: number): string {
  const t = timeHex(ms);
  return `${t.slice(0, 8)}-${t.slice(8)}`;
}

/** 24 hex digits: 48 bits of time in ms, then 48 random bits. */
export function timeOrderedHex(ms: number): string {
  return timeHex(ms) + randomUUID().slice(24);
}
