import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from '../../src/domain/ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('makes RFC 9562 version 7 ids that carry the millisecond', () => {
    const ms = Date.UTC(2030, 0, 1);
    const id = timeOrderedUuid(ms);
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBeGreaterThanOrEqual(ms);
  });

  it('is strictly increasing, also for thousands of ids in one millisecond and a clock that steps back', () => {
    const ms = Date.UTC(2031, 0, 1);
    const ids = [
      ...Array.from({ length: 5000 }, () => timeOrderedUuid(ms)),
      ...Array.from({ length: 10 }, () => timeOrderedUuid(ms - 60_000)),
      timeOrderedUuid(ms + 10),
    ];
    for (const id of ids) expect(id).toMatch(UUID_V7);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!, `id ${i}`).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
