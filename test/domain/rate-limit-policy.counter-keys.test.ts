import { createHash, createHmac, hkdfSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres, hasRedis, REDIS_URL } from '../support/services.js';

const CODE_SECRET = 'test-code-secret';
const PHONE = '+14155550199';
const EMAIL = 'counter-keys@example.com';

/** What a reader of the counters' keys could compute for a guessed destination without the secret. */
const unkeyed = (destination: string) => [
  createHash('sha256').update(destination).digest('base64url').slice(0, 16),
  createHash('sha256').update(destination).digest('hex').slice(0, 16),
];
/** The keyed digest the service uses: HMAC-SHA-256 under a key derived from CODE_SECRET. */
const keyed = (destination: string) =>
  createHmac(
    'sha256',
    Buffer.from(hkdfSync('sha256', CODE_SECRET, 'contact-verify', 'rate-limit-counter-keys', 32)),
  )
    .update(destination)
    .digest('base64url')
    .slice(0, 22);

const backends = [
  { name: 'SQLite (embedded counters in its file)', postgres: false },
  { name: 'PostgreSQL (counters in Redis)', postgres: true },
].filter((b) => !b.postgres || (hasPostgres && hasRedis));

/**
 * Counter keys name a destination by a digest keyed with a secret derived from CODE_SECRET: whoever
 * reads the keys (a Redis dump, the SQLite file's counter log) cannot recover a phone number by
 * hashing the few billion numbers there are.
 */
describe.each(backends)('rate-limit counter keys ($name)', ({ postgres }) => {
  let db: TestDatabase | undefined;
  let dir: string;
  const prefix = `cv-counter-keys-${randomUUID()}`;
  let keys: string[] = [];

  beforeAll(async () => {
    db = postgres ? await createTestDatabase() : undefined;
    dir = mkdtempSync(join(tmpdir(), 'cv-counter-keys-'));
    const file = join(dir, 'verify.db');
    const svc = await startTestService({
      CODE_SECRET,
      DATABASE_URL: db ? db.url : `sqlite:${file}`,
      ...(db ? { REDIS_URL, REDIS_KEY_PREFIX: prefix } : {}),
    });
    try {
      const key = await svc.createKey();
      expect((await svc.post('/v1/contact/send-code', { channel: 'SMS', phone: PHONE }, key)).status).toBe(
        200,
      );
      expect((await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: EMAIL }, key)).status).toBe(
        200,
      );
    } finally {
      await svc.close();
    }
    if (db) {
      const redis = new Redis(REDIS_URL);
      try {
        let cursor = '0';
        do {
          const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
          keys.push(...found);
          cursor = next;
        } while (cursor !== '0');
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    } else {
      const sqlite = new Database(file, { readonly: true });
      keys = (sqlite.prepare('SELECT key FROM rate_limit_log').all() as Array<{ key: string }>).map(
        (r) => r.key,
      );
      sqlite.close();
    }
  });
  afterAll(async () => {
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('hold neither the destination nor an unkeyed digest of it', () => {
    expect(keys.length).toBeGreaterThan(0);
    const all = keys.join('\n');
    for (const destination of [PHONE, EMAIL]) {
      expect(all).not.toContain(destination);
      for (const digest of unkeyed(destination)) expect(all).not.toContain(digest);
    }
  });

  it('hold the keyed digest, so the destination limits still find their counters', () => {
    const all = keys.join('\n');
    expect(all).toContain(keyed(PHONE));
    expect(all).toContain(keyed(EMAIL));
  });
});
