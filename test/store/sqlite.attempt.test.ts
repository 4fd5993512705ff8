import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { dualPair, MINUTE, T0, verification } from './fixtures.js';

// Store.attempt runs read, count, compare and consume as one unit; it must behave exactly as the
// stepwise calls do (see verification-service.ts).
const dir = mkdtempSync(join(tmpdir(), 'cv-attempt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

describe('SqliteStore.attempt', () => {
  let store: SqliteStore;
  beforeEach(async () => {
    store = new SqliteStore(join(dir, `a-${files++}.db`));
    return () => store.close();
  });
  const none = () => null;

  it('counts the attempt before the comparison and consumes the picked row once', async () => {
    const v = verification();
    await store.createVerifications([v]);
    let seen = -1;
    const first = await store.attempt('acc_1', v.id, T0, (rows) => {
      seen = rows.length;
      return v.id;
    });
    expect(seen).toBe(1);
    expect(first).toMatchObject({ winnerId: v.id, consumed: true, counted: { attempts: 1, maxAttempts: 5 } });
    expect(first.request?.status).toBe('pending');
    const again = await store.attempt('acc_1', v.id, T0, () => v.id);
    expect(again).toMatchObject({ counted: null, consumed: false });
    expect((await store.getVerification('acc_1', v.id))?.status).toBe('verified');
  });

  it('stops counting once the attempts are used up', async () => {
    const v = verification({ maxAttempts: 2 });
    await store.createVerifications([v]);
    expect((await store.attempt('acc_1', v.id, T0, none)).counted?.attempts).toBe(1);
    expect((await store.attempt('acc_1', v.id, T0, none)).counted?.attempts).toBe(2);
    const third = await store.attempt('acc_1', v.id, T0, () => v.id);
    expect(third).toMatchObject({ counted: null, winnerId: null, consumed: false });
    expect((await store.getVerification('acc_1', v.id))?.attempts).toBe(2);
  });

  it('answers no request for an unknown id or another account', async () => {
    const v = verification();
    await store.createVerifications([v]);
    expect((await store.attempt('acc_2', v.id, T0, none)).request).toBeNull();
    expect((await store.attempt('acc_1', 'nope', T0, none)).request).toBeNull();
  });

  it('counts nothing for an expired request', async () => {
    const v = verification();
    await store.createVerifications([v]);
    expect(await store.attempt('acc_1', v.id, T0 + 11 * MINUTE, () => v.id)).toMatchObject({
      counted: null,
      consumed: false,
    });
  });

  it("spends no attempt of a pair's sibling through a canceled request", async () => {
    const [email, sms] = dualPair();
    await store.createVerifications([email, sms]);
    // A new send to the email address supersedes (cancels) the pair's email request.
    await store.createVerifications([verification({ destination: email.destination })]);
    expect(await store.attempt('acc_1', email.id, T0, () => sms.id)).toMatchObject({
      counted: null,
      consumed: false,
    });
    const both = await store.attempt('acc_1', sms.id, T0, (rows) => {
      expect(rows.map((r) => r.id)).toEqual([sms.id]);
      return null;
    });
    expect(both.counted?.attempts).toBe(1);
  });
});
