import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { startTestService, type TestService } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';

const dir = mkdtempSync(join(tmpdir(), 'cv-at-rest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store on a file (SQLite) or a database of its own (PostgreSQL), and a way to read it raw. */
interface Backend {
  env(): Promise<Record<string, string>>;
  /** What the database holds of each outbox message: its content and the code kept beside it. */
  outboxColumns(): Promise<string[]>;
  codeHash(id: string): Promise<Buffer>;
  done(): Promise<void>;
}

function sqliteBackend(): Backend {
  const file = join(dir, `data-${Math.random().toString(36).slice(2)}`, 'verify.db');
  const read = <T>(sql: string, ...params: unknown[]) => {
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };
  return {
    env: async () => ({ DATABASE_URL: `sqlite:${file}` }),
    outboxColumns: async () =>
      read<{ outbox: string; outbox_code: string | null }>(
        'SELECT outbox, outbox_code FROM verifications WHERE outbox IS NOT NULL',
      ).map((r) => `${r.outbox} ${r.outbox_code ?? ''}`),
    codeHash: async (id) =>
      read<{ code_hash: Buffer }>('SELECT code_hash FROM verifications WHERE id = ?', id)[0]!.code_hash,
    done: async () => {},
  };
}

function postgresBackend(): Backend {
  let db: TestDatabase | undefined;
  const read = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: db!.url });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    env: async () => {
      db ??= await createTestDatabase();
      return { DATABASE_URL: db.url };
    },
    outboxColumns: async () =>
      (
        await read<{ outbox: string; outbox_code: string | null }>(
          'SELECT outbox, outbox_code FROM verifications WHERE outbox IS NOT NULL',
        )
      ).map((r) => `${r.outbox} ${r.outbox_code ?? ''}`),
    codeHash: async (id) =>
      (await read<{ code_hash: Buffer }>('SELECT code_hash FROM verifications WHERE id = $1', [id]))[0]!
        .code_hash,
    done: async () => db?.drop(),
  };
}

const backends: Array<[string, () => Backend, boolean]> = [
  ['SQLite', sqliteBackend, true],
  ['PostgreSQL', postgresBackend, hasPostgres],
];

// The outbox content must not keep the code once the request has left pending.
for (const [name, make, available] of backends) {
  describe.runIf(available)(`codes at rest (${name})`, () => {
    const backend = make();
    let svc: TestService | undefined;
    afterAll(async () => {
      await svc?.close();
      await backend.done();
    });

    it('erases the code from the stored outbox content once the request leaves pending', async () => {
      const clock = new ManualClock(Date.parse('2026-11-24T12:00:00Z'));
      // No CODE_SECRET: a secret is generated and stored, for the precedence test below.
      svc = await startTestService(
        { ...(await backend.env()), CODE_SECRET: '', RESEND_COOLDOWN_SECONDS: '0', MAX_ATTEMPTS: '2' },
        { clock },
      );
      const key = await svc.createKey();
      const send = async (email: string) => {
        const res = await svc!.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);
        expect(res.status).toBe(200);
        return { id: res.body.data.requestId as string, code: await svc!.lastCode(email) };
      };
      const codes: string[] = [];
      // verified
      const verified = await send('verified@example.com');
      codes.push(verified.code);
      expect(
        (await svc.post('/v1/contact/verify-code', { requestId: verified.id, otpCode: verified.code }, key))
          .body.data.verified,
      ).toBe(true);
      // canceled by a newer send (the newer one stays pending: its code is still needed)
      const superseded = await send('twice@example.com');
      codes.push(superseded.code);
      await send('twice@example.com');
      // failed: attempts used up
      const failed = await send('failed@example.com');
      codes.push(failed.code);
      const wrong = failed.code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 2; i++)
        await svc.post('/v1/contact/verify-code', { requestId: failed.id, otpCode: wrong }, key);
      // expired by the sweeper
      const expired = await send('expired@example.com');
      codes.push(expired.code);
      clock.advance(11 * 60_000);
      await svc.store.verifications.sweep(clock.now(), 30 * 86_400_000, 500);

      const pending = await send('pending@example.com');
      const stored = (await backend.outboxColumns()).join('\n');
      for (const code of codes) expect(stored).not.toContain(code);
      // The pending request still has its code (the outbox is how a developer reads it).
      expect(stored).toContain(pending.code);
      // The outbox shows the message with the code masked.
      const message = await svc.lastMessage('verified@example.com');
      expect(message.text).not.toContain(verified.code);
      expect(message.text).toContain('******');
    });

    it('lets CODE_SECRET from the environment take precedence over the stored secret', async () => {
      await svc?.close();
      svc = await startTestService({
        ...(await backend.env()),
        CODE_SECRET: 'an-operator-secret-from-the-environment',
      });
      const key = await svc.createKey();
      const res = await svc.post(
        '/v1/contact/send-code',
        { channel: 'EMAIL', email: 'secret@example.com' },
        key,
      );
      const code = await svc.lastCode('secret@example.com');
      const expected = createHmac('sha256', 'an-operator-secret-from-the-environment')
        .update(res.body.data.requestId)
        .update('\0')
        .update(code)
        .digest();
      expect((await backend.codeHash(res.body.data.requestId)).equals(expected)).toBe(true);
    });
  });
}

describe('SQLite file permissions', () => {
  it('creates the data directory 0700 and the database files 0600', async () => {
    const dataDir = join(dir, 'fresh', 'data');
    const file = join(dataDir, 'verify.db');
    const svc = await startTestService({ DATABASE_URL: `sqlite:${file}` });
    try {
      const key = await svc.createKey();
      await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'modes@example.com' }, key);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(statSync(f).mode & 0o777, f).toBe(0o600);
    } finally {
      await svc.close();
    }
  });
});
