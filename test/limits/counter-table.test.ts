import { describe, expect, it } from 'vitest';
import { CounterTable } from '../../src/limits/counter-table.js';

/** The table's answer for `key`: [used, endsAt] of its live counter, or null. */
function read(table: CounterTable, key: string, now: number): [number, number] | null {
  const slot = table.find(key, now);
  return slot < 0 ? null : [table.usedAt(slot), table.endsAt(slot)];
}

describe('CounterTable', () => {
  it('agrees with a Map through growth, ended windows, reuse and sweeps', () => {
    const table = new CounterTable();
    const reference = new Map<string, { used: number; endsAt: number }>();
    let now = 1_000_000;
    // A small deterministic generator, so that a failure replays.
    let seed = 42;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let i = 0; i < 100_000; i++) {
      now += Math.floor(random() * 3);
      // Keys come back often enough to hit live and ended counters alike.
      const key = `acc_${Math.floor(random() * 20)}:dest-${Math.floor(random() * 30_000)}`;
      const live = reference.get(key);
      const expected = live && live.endsAt > now ? [live.used, live.endsAt] : null;
      expect(read(table, key, now)).toEqual(expected);
      const slot = table.find(key, now);
      if (slot >= 0) {
        table.setUsed(slot, table.usedAt(slot) + 1);
        (live as { used: number }).used++;
      } else {
        const endsAt = now + 1 + Math.floor(random() * 5_000);
        table.start(key, 1, endsAt, now);
        reference.set(key, { used: 1, endsAt });
      }
      expect(read(table, key, now)).toEqual([reference.get(key)?.used, reference.get(key)?.endsAt]);
      if (i % 25_000 === 0) table.sweep(now);
    }
    const liveInReference = [...reference.values()].filter((c) => c.endsAt > now).length;
    expect(table.size(now)).toBe(liveInReference);
    for (const [key, c] of reference) {
      expect(read(table, key, now)).toEqual(c.endsAt > now ? [c.used, c.endsAt] : null);
    }
  });

  it('grows for many counters and gives the memory back once their windows end', () => {
    const table = new CounterTable();
    const empty = table.bytes();
    for (let i = 0; i < 100_000; i++) table.start(`key-${i}`, 1, 2_000, 1_000);
    expect(table.size(1_500)).toBe(100_000);
    const grown = table.bytes();
    // At most 80 bytes per counter (20 per slot, load at least a quarter).
    expect(grown).toBeLessThanOrEqual(100_000 * 80);
    table.sweep(1_500);
    expect(table.bytes()).toBe(grown);
    table.sweep(2_000);
    expect(table.size(2_000)).toBe(0);
    expect(table.bytes()).toBe(empty);
  });

  it('after a sweep, holds the counters still live in at most 80 bytes each', () => {
    const table = new CounterTable();
    for (let i = 0; i < 100_000; i++) table.start(`key-${i}`, 1, i % 4 === 0 ? 5_000 : 2_000, 1_000);
    table.sweep(3_000);
    expect(table.size(3_000)).toBe(25_000);
    expect(table.bytes()).toBeLessThanOrEqual(25_000 * 80);
    for (let i = 0; i < 100_000; i += 999) expect(table.find(`key-${i}`, 3_000) >= 0).toBe(i % 4 === 0);
  });

  it('takes an ended counter back with a new window', () => {
    const table = new CounterTable();
    table.start('a', 3, 2_000, 1_000);
    expect(read(table, 'a', 1_999)).toEqual([3, 2_000]);
    expect(read(table, 'a', 2_000)).toBeNull();
    table.start('a', 1, 5_000, 2_000);
    expect(read(table, 'a', 2_000)).toEqual([1, 5_000]);
    expect(table.size(2_000)).toBe(1);
  });

  it('keeps keys apart that differ only slightly', () => {
    const table = new CounterTable([0, 0]);
    const keys = ['a', 'b', 'ab', 'ba', 'a\0', '\0a', 'é', 'e\u0301', ''];
    for (const [i, k] of keys.entries()) table.start(k, i + 1, 10_000, 0);
    for (const [i, k] of keys.entries()) expect(read(table, k, 1)).toEqual([i + 1, 10_000]);
  });
});
