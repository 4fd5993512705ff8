import { randomBytes } from 'node:crypto';

/** Below this many slots a table never shrinks. */
const MIN_CAPACITY = 1024;
/** Past this share of slots taken (live or ended), the table is rebuilt before the next insert. */
const MAX_LOAD = 0.7;
/** A rebuilt table is at most half full (at least a quarter, slots being a power of two). */
const REBUILT_LOAD = 0.5;

/**
 * The fixed-window counters of one family (a limit and a window), in flat typed arrays: an
 * open-addressing hash table with linear probing, keyed by a 64-bit digest of the counter's key.
 *
 * Why not a Map of strings: the in-process limits hold a counter per destination for up to a day,
 * hundreds of thousands of them under load. A Map entry with its key string and a boxed end time
 * costs about 120 bytes of V8 heap, all of it traced by every major GC; a slot here costs 20 bytes
 * off the heap (29 to 80 per counter, the table being a quarter to 0.7 full), and the GC never
 * looks at it.
 *
 * Two keys that share a digest share a counter, which can only make a limit stricter, never looser.
 * With 64 bits that takes about 4 billion counters to become likely, and the digest's seed is drawn
 * at random per process so that nobody can search for colliding keys offline.
 *
 * A counter whose window has ended stays in its slot, so that probe chains through it still hold;
 * its key gets it back with a new window, another key may take the slot over, and rebuild()
 * drops it for good.
 */
export class CounterTable {
  private capacity = 0;
  private mask = 0;
  /** Two 32-bit halves of each slot's digest; a slot is empty when both are 0 (hashOf never gives that). */
  private digests = new Uint32Array(0);
  private used = new Uint32Array(0);
  private ends = new Float64Array(0);
  /** Slots holding a digest, live or ended. */
  private taken = 0;
  // Written by hashOf(), read at once by its caller: no object per lookup.
  private h1 = 0;
  private h2 = 0;

  constructor(private readonly seeds: [number, number] = randomSeeds()) {
    this.allocate(MIN_CAPACITY);
  }

  /** The slot of `key`'s live counter at `now`, or -1 when it has none (never set, or its window ended). */
  find(key: string, now: number): number {
    this.hashOf(key);
    const slot = this.probe();
    return slot >= 0 && (this.ends[slot] as number) > now ? slot : -1;
  }

  usedAt(slot: number): number {
    return this.used[slot] as number;
  }

  endsAt(slot: number): number {
    return this.ends[slot] as number;
  }

  setUsed(slot: number, used: number): void {
    this.used[slot] = used;
  }

  /** Starts a new window for `key`: in its own slot, in an ended counter's slot, or in a free one. */
  start(key: string, used: number, endsAt: number, now: number): void {
    this.hashOf(key);
    let slot = this.probe();
    if (slot < 0) {
      if (this.taken + 1 > this.capacity * MAX_LOAD) {
        // rebuild() rehashes through h1 and h2: keep this key's digest across it.
        const { h1, h2 } = this;
        this.rebuild(now);
        this.h1 = h1;
        this.h2 = h2;
        slot = this.probe();
      }
      if (slot < 0) slot = this.claim(now);
    }
    this.used[slot] = used;
    this.ends[slot] = endsAt;
  }

  /** Live counters, for tests and the sweep. */
  size(now: number): number {
    let live = 0;
    for (let slot = 0; slot < this.capacity; slot++)
      if (!isEmpty(this.digests, slot) && (this.ends[slot] as number) > now) live++;
    return live;
  }

  /** Bytes held by the arrays. */
  bytes(): number {
    return this.digests.byteLength + this.used.byteLength + this.ends.byteLength;
  }

  /**
   * Drops every ended counter and resizes the table so that the `live` ones fill at most half of
   * it (at least MIN_CAPACITY): it grows when it fills up, and gives memory back after a burst.
   */
  private rebuild(now: number, live = this.size(now)): void {
    const { capacity, digests, used, ends } = this;
    let next = MIN_CAPACITY;
    while (next * REBUILT_LOAD < live) next *= 2;
    this.allocate(next);
    for (let slot = 0; slot < capacity; slot++) {
      const end = ends[slot] as number;
      if (isEmpty(digests, slot) || end <= now) continue;
      this.h1 = digests[2 * slot] as number;
      this.h2 = digests[2 * slot + 1] as number;
      const into = this.claim(now);
      this.used[into] = used[slot] as number;
      this.ends[into] = end;
    }
  }

  /** Rebuilds when at least half of the taken slots hold ended counters (the periodic sweep). */
  sweep(now: number): void {
    if (this.taken === 0) return;
    const live = this.size(now);
    if (live * 2 <= this.taken) this.rebuild(now, live);
  }

  private allocate(capacity: number): void {
    this.capacity = capacity;
    this.mask = capacity - 1;
    this.digests = new Uint32Array(2 * capacity);
    this.used = new Uint32Array(capacity);
    this.ends = new Float64Array(capacity);
    this.taken = 0;
  }

  /** The slot holding the current digest (h1, h2), live or ended, or -1. */
  private probe(): number {
    const { digests, mask, h1, h2 } = this;
    for (let slot = h1 & mask; ; slot = (slot + 1) & mask) {
      const a = digests[2 * slot] as number;
      const b = digests[2 * slot + 1] as number;
      if (a === h1 && b === h2) return slot;
      if (a === 0 && b === 0) return -1;
    }
  }

  /**
   * A slot for the current digest, which the table does not hold: the first slot of its chain
   * whose counter has ended, else the free slot that ends the chain. The load bound keeps one free.
   */
  private claim(now: number): number {
    const { digests, mask, ends } = this;
    for (let slot = this.h1 & mask; ; slot = (slot + 1) & mask) {
      const free = isEmpty(digests, slot);
      if (free || (ends[slot] as number) <= now) {
        if (free) this.taken++;
        digests[2 * slot] = this.h1;
        digests[2 * slot + 1] = this.h2;
        return slot;
      }
    }
  }

  /** Two seeded 32-bit hashes of the key's UTF-16 units (MurmurHash3-style mixing) into h1, h2. */
  private hashOf(key: string): void {
    let a = this.seeds[0];
    let b = this.seeds[1];
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0xcc9e2d51);
      a = (a << 15) | (a >>> 17);
      b = Math.imul(b ^ c, 0x1b873593);
      b = (b << 13) | (b >>> 19);
    }
    a = fmix32(a ^ key.length);
    b = fmix32(b ^ key.length);
    this.h1 = a >>> 0;
    // Never 0, so that no digest looks like an empty slot.
    this.h2 = (b | 1) >>> 0;
  }
}

/** A slot without a digest (hashOf never gives 0, 0). */
function isEmpty(digests: Uint32Array, slot: number): boolean {
  return digests[2 * slot] === 0 && digests[2 * slot + 1] === 0;
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function randomSeeds(): [number, number] {
  const bytes = randomBytes(8);
  return [bytes.readUInt32LE(0), bytes.readUInt32LE(4)];
}
