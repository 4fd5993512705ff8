import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../src/domain/accounts.js';
import { ManualClock } from '../../src/domain/clock.js';
import { hashCode } from '../../src/domain/codes.js';
import { startTestService, type TestService } from '../support/app.js';

const CODE_SECRET = 'secure-delete-code-secret';
const DAY = 86_400_000;

/**
 * Settled codes leave no trace in the SQLite files of a running service: once a request leaves
 * pending, its code (kept in clear beside the outbox's stored message while pending) is found neither
 * in the database file nor in the WAL after a checkpoint, not in a page's free space, not in an
 * old WAL frame; once the retention deletes a request, its code hash is gone from both files too.
 * Each check has a positive control: a pending request's code and a live request's hash are found.
 */
describe('SQLite files after codes settle (secure_delete, WAL truncation)', () => {
  let dir: string;
  let file: string;
  let svc: TestService;
  let key: string;
  let n = 0;
  const clock = new ManualClock(Date.parse('2026-11-27T12:00:00Z'));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cv-secure-delete-'));
    file = join(dir, 'verify.db');
    svc = await startTestService(
      // Ten digits: a code found in the files is the code, never digits of an id or a time.
      { DATABASE_URL: `sqlite:${file}`, CODE_SECRET, RESEND_COOLDOWN_SECONDS: '0', CODE_LENGTH: '10' },
      { clock },
    );
    key = await svc.createKey();
  });
  afterAll(async () => {
    await svc?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const send = async () => {
    const to = `secure-delete-${n++}@example.com`;
    const res = await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: to }, key);
    expect(res.status).toBe(200);
    const requestId = res.body.data.requestId as string;
    const code = await svc.lastCode(to);
    return { requestId, code, hash: hashCode(Buffer.from(CODE_SECRET), requestId, code) };
  };
  /**
   * Both files' bytes once a checkpoint copied the whole log and a write started it over, as in a
   * running service (its checkpointer ticks every 200 ms). A checkpoint finds the log busy while
   * the service's own runs, and a write starts the log over only when no checkpoint or reader is
   * in its way: both are tried again until the log was seen to start over.
   */
  const files = async () => {
    const other = new Database(file);
    const checkpointed = async (): Promise<number> => {
      for (let i = 0; i < 200; i++) {
        const [r] = other.pragma('wal_checkpoint(PASSIVE)') as Array<{
          busy: number;
          log: number;
          checkpointed: number;
        }>;
        if (r && r.busy === 0 && r.log === r.checkpointed) return r.log;
        await sleep(10);
      }
      throw new Error('the log was never checkpointed completely');
    };
    try {
      for (let i = 0; ; i++) {
        const before = await checkpointed();
        await send();
        if ((await checkpointed()) < before || i === 50) break;
      }
    } finally {
      other.close();
    }
    return [readFileSync(file), existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`) : Buffer.alloc(0)];
  };
  const found = (bytes: Buffer[], needle: string | Buffer) => bytes.some((b) => b.includes(needle));
  // The code as the store keeps it beside a pending outbox message (in clear, as text).
  const inOutbox = (code: string) => code;

  it('a settled code is in neither file once checkpointed; a pending one is', async () => {
    const verified = [];
    for (let i = 0; i < 20; i++) verified.push(await send());
    const expired = [];
    for (let i = 0; i < 20; i++) expired.push(await send());
    const pending = await send();
    for (const s of verified) {
      const res = await svc.post('/v1/contact/verify-code', { requestId: s.requestId, otpCode: s.code }, key);
      expect(res.body.data.verified).toBe(true);
    }
    clock.advance(11 * 60_000);
    expect((await svc.store.verifications.sweep(clock.now(), 30 * DAY, 1000)).expired).toBeGreaterThanOrEqual(
      20,
    );
    const bytes = await files();
    expect(found(bytes, inOutbox(pending.code))).toBe(false); // expired by the sweep too
    const live = await send();
    const after = await files();
    expect(found(after, inOutbox(live.code))).toBe(true);
    const lingering = [...verified, ...expired].filter((s) => found(after, inOutbox(s.code)));
    expect(lingering.map((s) => s.requestId)).toEqual([]);
  });

  it('on an idle service a settled code (failed, verified, canceled, expired) leaves the WAL within seconds, with no later write', async () => {
    // Settled right after the send, as an attacker's five wrong guesses are: the log still holds
    // the pending row's page (its code in clear), and before the checkpointer truncated an idle
    // log it stayed there until the next write came after a full checkpoint: 42-54 s later on an
    // idle instance (the next key-use flush or sweep).
    const failed = await send();
    for (let i = 0; i < 5; i++) {
      const res = await svc.post(
        '/v1/contact/verify-code',
        { requestId: failed.requestId, otpCode: '0'.repeat(10) },
        key,
      );
      expect(res.body.data.verified).toBe(false);
    }
    const verified = await send();
    expect(
      (
        await svc.post(
          '/v1/contact/verify-code',
          { requestId: verified.requestId, otpCode: verified.code },
          key,
        )
      ).body.data.verified,
    ).toBe(true);
    // Canceled by a newer send to the same address, which the sweeper then expires.
    const to = `secure-delete-${n++}@example.com`;
    const first = await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: to }, key);
    const canceled = { requestId: first.body.data.requestId as string, code: await svc.lastCode(to) };
    const second = await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: to }, key);
    const expired = { requestId: second.body.data.requestId as string, code: await svc.lastCode(to) };
    clock.advance(11 * 60_000);
    expect((await svc.store.verifications.sweep(clock.now(), 30 * DAY, 1000)).expired).toBeGreaterThanOrEqual(
      1,
    );
    const settled = [failed, verified, canceled, expired];
    const bytes = () => [
      readFileSync(file),
      existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`) : Buffer.alloc(0),
    ];
    // Written to the log first: the test sees the clear code there before it goes.
    expect(settled.some((s) => found(bytes(), inOutbox(s.code)))).toBe(true);
    const started = Date.now();
    while (settled.some((s) => found(bytes(), inOutbox(s.code))) && Date.now() - started < 10_000)
      await sleep(50);
    expect(settled.filter((s) => found(bytes(), inOutbox(s.code))).map((s) => s.requestId)).toEqual([]);
    // A pending code is still in the files (the outbox shows it until the request settles).
    const live = await send();
    const before = Date.now();
    while (Date.now() - before < 1_000) await sleep(50);
    expect(found(bytes(), inOutbox(live.code))).toBe(true);
  });

  it("a request deleted by the retention leaves its code hash in neither file; a live request's is there", async () => {
    const old = [];
    for (let i = 0; i < 40; i++) old.push(await send());
    clock.advance(31 * DAY);
    const live = await send();
    let deleted = 0;
    for (;;) {
      const swept = await svc.store.verifications.sweep(clock.now(), 30 * DAY, 1000);
      deleted += swept.deleted;
      if (swept.deleted === 0) break;
    }
    expect(deleted).toBeGreaterThanOrEqual(40);
    expect(await svc.store.verifications.getVerification(DEFAULT_ACCOUNT_ID, old[0]!.requestId)).toBeNull();
    const bytes = await files();
    expect(found(bytes, live.hash)).toBe(true);
    const lingering = old.filter((s) => found(bytes, s.hash));
    expect(lingering.map((s) => s.requestId)).toEqual([]);
  });
});
