import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Statement } from 'better-sqlite3';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { DAY, T0, verification } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'cv-plans-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The query plan of one of the store's prepared statements, on a freshly migrated file. */
async function planOf(name: string, ...params: unknown[]): Promise<string> {
  const path = join(dir, `${name}.db`);
  const store = new SqliteStore(path);
  const probe = new BetterSqlite3(path);
  try {
    const statements = (store as unknown as { stmts: Record<string, Statement> }).stmts;
    const sql = (statements[name] as Statement).source;
    const plan = probe.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
    return plan.map((p) => p.detail).join('\n');
  } finally {
    probe.close();
    await store.close();
  }
}

describe('SQLite statements on the request and sweep paths', () => {
  it('the retention sweep walks the primary key, not the whole table', async () => {
    const details = await planOf('sweepDelete', '0190a0b0-0000', T0, 10);
    expect(details).toMatch(/SEARCH verifications USING PRIMARY KEY \(id<\?\)/);
    expect(details).not.toMatch(/SCAN verifications/);
  });

  it('a verify attempt finds its request by primary key and its group by index, and counts by the group index', async () => {
    const read = await planOf('readGroup', { id: 'id', account: 'acc_1', mode: 0, now: T0 });
    expect(read).toMatch(/SEARCH r USING PRIMARY KEY \(id=\?\)/);
    expect(read).toMatch(/SEARCH g USING INDEX verifications_group \(group_id=\?\)/);
    for (const winner of [null, 'id']) {
      const details = await planOf('decideAttempt', { group: 'group', winner, now: T0, guessedOn: 'id' });
      expect(details).toMatch(/SEARCH verifications USING INDEX verifications_group \(group_id=\?\)/);
      expect(details).not.toMatch(/SCAN/);
    }
  });

  it("the outbox finds a request's message by primary key and its dual sibling by the group index", async () => {
    const params = { requestId: 'id', accountId: null, to: null, before: null, test: null, limit: 20 };
    const details = await planOf('listOutboxRequest', params);
    expect(details).toMatch(/SEARCH verifications USING PRIMARY KEY \(id=\?\)/);
    expect(details).toMatch(/SEARCH s USING (COVERING )?INDEX verifications_group \(group_id=\?\)/);
    expect(details).not.toMatch(/SCAN/);
  });

  it("a send reads its destination's block from the contact, by its index", async () => {
    const details = await planOf('blockedContact', 'acc_1', 'a@example.com', 0);
    expect(details).toMatch(
      /SEARCH contacts USING INDEX contacts_destination \(account_id=\? AND destination=\? AND test=\?\)/,
    );
    expect(details).not.toMatch(/SCAN/);
  });

  it('a send cancels the pending code of the same destination, channel and mode only, found by its index', async () => {
    expect(await planOf('supersede', 'a@example.com', 'acc_1', 'EMAIL', 0)).toMatch(
      /SEARCH verifications USING INDEX verifications_destination \(destination=\?\)/,
    );
    const store = new SqliteStore(join(dir, 'supersede.db'));
    try {
      const first = verification({ destination: 'same@example.com', createdAt: T0 });
      const otherAccount = verification({ destination: 'same@example.com', accountId: 'acc_2' });
      const sms = verification({ destination: 'same@example.com', channel: 'SMS' });
      await store.verifications.createVerifications([first]);
      await store.verifications.createVerifications([otherAccount]);
      await store.verifications.createVerifications([sms]);
      const second = verification({ destination: 'same@example.com', createdAt: T0 + DAY });
      await store.verifications.createVerifications([second]);
      expect((await store.verifications.getVerification('acc_1', first.id))?.status).toBe('canceled');
      expect((await store.verifications.getVerification('acc_2', otherAccount.id))?.status).toBe('pending');
      expect((await store.verifications.getVerification('acc_1', sms.id))?.status).toBe('pending');
      expect((await store.verifications.getVerification('acc_1', second.id))?.status).toBe('pending');
    } finally {
      await store.close();
    }
  });
});
