import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/app.js';

const dir = mkdtempSync(join(tmpdir(), 'cv-limits-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// With the embedded default (SQLite, no Redis) the cooldowns, the hourly cap and the daily budget
// of wrong codes live in the database file: a restart forgives nothing.
describe('limits across a restart (SQLite, no REDIS_URL)', () => {
  it('still refuses after a restart on the same file: cooldown, hourly cap, wrong-code budget', async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'verify.db')}`,
      RESEND_COOLDOWN_SECONDS: '60',
      SENDS_PER_DESTINATION_PER_HOUR: '5',
      FAILURES_PER_DESTINATION_PER_DAY: '1',
    };
    const first = await startTestService(env);
    const key = await first.createKey();
    const send = (svc: typeof first, email: string) =>
      svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);
    expect((await send(first, 'cooldown@example.com')).status).toBe(200);
    const budget = await send(first, 'budget@example.com');
    const code = await first.lastCode('budget@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    await first.post(
      '/v1/contact/verify-code',
      { requestId: budget.body.data.requestId, otpCode: wrong },
      key,
    );
    await first.close();

    const second = await startTestService(env);
    try {
      const cooldown = await send(second, 'cooldown@example.com');
      expect(cooldown.status).toBe(429);
      expect(cooldown.body.error.details[0].message).toMatch(/less than 60 s ago/);
      expect(Number(cooldown.headers['retry-after'])).toBeGreaterThan(30);
      const spent = await send(second, 'budget@example.com');
      expect(spent.status).toBe(429);
      expect(spent.body.error.details[0].message).toMatch(/wrong codes/);
    } finally {
      await second.close();
    }
  });

  it('keeps the hourly cap across a restart', async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'hourly.db')}`,
      RESEND_COOLDOWN_SECONDS: '0',
      SENDS_PER_DESTINATION_PER_HOUR: '2',
    };
    const first = await startTestService(env);
    const key = await first.createKey();
    for (let i = 0; i < 2; i++) {
      const res = await first.post(
        '/v1/contact/send-code',
        { channel: 'EMAIL', email: 'hourly@example.com' },
        key,
      );
      expect(res.status).toBe(200);
    }
    await first.close();
    const second = await startTestService(env);
    try {
      const res = await second.post(
        '/v1/contact/send-code',
        { channel: 'EMAIL', email: 'hourly@example.com' },
        key,
      );
      expect(res.status).toBe(429);
      expect(res.body.error.details[0].message).toMatch(/per hour/);
    } finally {
      await second.close();
    }
  });
});
