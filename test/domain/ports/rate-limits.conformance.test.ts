import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CounterSpec, RateLimitStore } from '../../../src/domain/ports/rate-limits.js';
import { DurableMemoryRateLimitStore } from '../../../src/limits/durable-memory-store.js';
import { MemoryRateLimitStore } from '../../../src/limits/memory-store.js';
import { RedisRateLimitStore } from '../../../src/limits/redis-store.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { hasRedis, REDIS_URL } from '../../support/services.js';

/**
 * One contract, every backend: the memory store (one process) and the Redis store (many) must
 * answer every operation alike. Each Redis run has its own key prefix and deletes it afterwards.
 */
function conformance(name: string, open: () => Promise<RateLimitStore>) {
  describe(`rate-limit store conformance: ${name}`, () => {
    let store: RateLimitStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      if (store instanceof RedisRateLimitStore) await store.clear();
      await store.close();
    });

    // A fresh key per test keeps the tests independent inside one store.
    const key = () => randomUUID();
    const spec = (limit: number, windowSeconds = 60): CounterSpec => ({ name: 'test', limit, windowSeconds });

    it('reports itself up', async () => {
      expect(await store.check()).toBe(true);
    });

    it('allows up to the limit, then refuses with a wait inside the window', async () => {
      const s = spec(3, 60);
      const k = key();
      const remaining = [];
      for (let i = 0; i < 3; i++) remaining.push((await store.consume(s, k)).remaining);
      expect(remaining).toEqual([2, 1, 0]);
      const refused = await store.consume(s, k);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    });

    it('counts multi-point consumes and refuses one that would pass the limit', async () => {
      const s = spec(5);
      const k = key();
      expect((await store.consume(s, k, 3)).remaining).toBe(2);
      expect((await store.consume(s, k, 3)).allowed).toBe(false);
      expect((await store.consume(s, k, 2)).allowed).toBe(true);
    });

    it('a refusal consumes nothing', async () => {
      const s = spec(2);
      const k = key();
      await store.consume(s, k);
      await store.consume(s, k);
      for (let i = 0; i < 5; i++) expect((await store.consume(s, k)).allowed).toBe(false);
      await store.refund(s, k);
      expect((await store.consume(s, k)).allowed).toBe(true);
      expect((await store.consume(s, k)).allowed).toBe(false);
    });

    it('refund gives points back, but never below zero', async () => {
      const s = spec(2);
      const k = key();
      await store.refund(s, k, 5);
      await store.consume(s, k, 2);
      await store.refund(s, k, 10);
      expect((await store.peek(s, k)).remaining).toBe(2);
      expect((await store.consume(s, k, 2)).allowed).toBe(true);
      expect((await store.consume(s, k)).allowed).toBe(false);
    });

    it('penalize adds past the limit; peek reads without changing', async () => {
      const s = spec(5);
      const k = key();
      expect(await store.peek(s, k)).toEqual({ allowed: true, remaining: 5, retryAfterSeconds: 0 });
      await store.penalize(s, k, 4);
      expect(await store.peek(s, k)).toMatchObject({ allowed: true, remaining: 1 });
      await store.penalize(s, k, 3);
      const peeked = await store.peek(s, k);
      expect(peeked).toMatchObject({ allowed: false, remaining: 0 });
      expect(peeked.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(await store.peek(s, k)).toMatchObject({ allowed: false, remaining: 0 });
      expect((await store.consume(s, k)).allowed).toBe(false);
    });

    it('keeps counters of different names, limits and keys apart', async () => {
      const k = key();
      await store.consume({ name: 'a', limit: 1, windowSeconds: 60 }, k);
      expect((await store.consume({ name: 'b', limit: 1, windowSeconds: 60 }, k)).allowed).toBe(true);
      expect((await store.consume({ name: 'a', limit: 1, windowSeconds: 60 }, key())).allowed).toBe(true);
      expect((await store.consume({ name: 'a', limit: 1, windowSeconds: 60 }, k)).allowed).toBe(false);
    });

    it('50 parallel consumes with limit 5 allow exactly 5', async () => {
      const s = spec(5);
      const k = key();
      const decisions = await Promise.all(Array.from({ length: 50 }, () => store.consume(s, k)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
      expect((await store.peek(s, k)).remaining).toBe(0);
      // Every refusal was given back: one refund frees exactly one point.
      await store.refund(s, k);
      expect((await store.consume(s, k)).allowed).toBe(true);
    });

    it('a plan counts its addsFirst before anything else, whatever it decides, and charges them to no one', async () => {
      const first = { spec: spec(1), key: key() };
      const rate = { spec: spec(0), key: key() };
      const outcome = await store.run({ addsFirst: [first, first], reads: [first], rate });
      expect(outcome.reads).toEqual([2]);
      expect(outcome.rate?.allowed).toBe(false);
      expect(outcome.charged).toEqual([]);
      expect(await store.count(first.spec, first.key)).toBe(2);
    });

    it('opens a new window when the old one ends, and a late refund gives nothing', async () => {
      const s = spec(1, 1);
      const k = key();
      expect((await store.consume(s, k)).allowed).toBe(true);
      expect((await store.consume(s, k)).allowed).toBe(false);
      await sleep(1100);
      await store.refund(s, k);
      expect((await store.consume(s, k)).allowed).toBe(true);
      expect((await store.consume(s, k)).allowed).toBe(false);
    });
  });
}

conformance('memory', async () => new MemoryRateLimitStore());

// The embedded default: decided in memory, kept in the SQLite file so that a restart forgives nothing.
const dir = mkdtempSync(join(tmpdir(), 'cv-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
conformance(
  'sqlite (durable memory)',
  async () =>
    new DurableMemoryRateLimitStore(new SqliteStore(join(dir, 'conformance.db')).counterPersistence()),
);

describe('sqlite (durable memory) across a restart', () => {
  it('answers after reopening the file as before closing it', async () => {
    const file = join(dir, 'restart.db');
    const s = { name: 'restart', limit: 2, windowSeconds: 60 };
    const first = new SqliteStore(file);
    const before = new DurableMemoryRateLimitStore(first.counterPersistence());
    await before.consume(s, 'k');
    await before.consume(s, 'k');
    await before.penalize({ ...s, name: 'failures' }, 'f', 5);
    await before.close();
    await first.close();
    const second = new SqliteStore(file);
    const after = new DurableMemoryRateLimitStore(second.counterPersistence());
    try {
      const refused = await after.consume(s, 'k');
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThan(50);
      expect((await after.peek({ ...s, name: 'failures' }, 'f')).allowed).toBe(false);
      expect((await after.consume(s, 'other')).allowed).toBe(true);
    } finally {
      await after.close();
      await second.close();
    }
  });
});

describe.skipIf(!hasRedis)('redis', () => {
  const prefix = `test-${randomUUID()}`;
  conformance('redis', () => RedisRateLimitStore.connect(REDIS_URL, { prefix }));

  it('counts exactly across two connections, as two instances would', async () => {
    const shared = `test-${randomUUID()}`;
    const [a, b] = await Promise.all([
      RedisRateLimitStore.connect(REDIS_URL, { prefix: shared }),
      RedisRateLimitStore.connect(REDIS_URL, { prefix: shared }),
    ]);
    try {
      const s = { name: 'shared', limit: 5, windowSeconds: 60 };
      const decisions = await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).consume(s, 'one-key')),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    } finally {
      await a.clear();
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('sqlite (durable memory) health', () => {
  it('reports down while counters cannot be written, and up again once they can (a full disk freed)', async () => {
    let full = false;
    const saved: string[] = [];
    const store = new DurableMemoryRateLimitStore({
      load: () => [],
      save: async (counter) => {
        if (full) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
        saved.push(counter.key);
      },
      purge: async () => {},
    });
    const s = { name: 'health', limit: 100, windowSeconds: 60 };
    try {
      await store.penalize(s, 'a');
      expect(await store.check()).toBe(true);
      full = true;
      await store.penalize(s, 'b');
      expect(await store.check()).toBe(false);
      full = false;
      await store.penalize(s, 'b');
      expect(await store.check()).toBe(true);
      expect(saved).toEqual(['a', 'b']);
    } finally {
      await store.close();
    }
  });
});
