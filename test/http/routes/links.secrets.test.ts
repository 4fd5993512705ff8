import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSmtp, startFakeSmtp } from '../../delivery/support/fake-smtp.js';
import { startTestService } from '../../support/app.js';

const BASE = 'https://verify.example.test';

function tokenOf(smtp: FakeSmtp, to: string): string {
  const text = [...smtp.mails].reverse().find((m) => m.envelopeTo.includes(to))?.mail.text ?? '';
  const token = /\/v1\/links\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  if (!token) throw new Error(`no link to ${to}`);
  return token;
}

/**
 * A link's token is a secret like a code: hashed under CODE_SECRET (a link sent before a rotation
 * works under CODE_SECRET_PREVIOUS, and no longer once the previous secret is dropped), and never
 * written to a log, whatever the level.
 */
describe('magic link tokens and the code secret', () => {
  let smtp: FakeSmtp;
  const dir = mkdtempSync(join(tmpdir(), 'cv-link-secret-'));
  const env = (secret: string, previous?: string) => ({
    DATABASE_URL: `sqlite:${join(dir, 'verify.db')}`,
    CODE_SECRET: secret,
    ...(previous ? { CODE_SECRET_PREVIOUS: previous } : {}),
    SMTP_URL: smtp.url,
    EMAIL_FROM: 'codes@acme.test',
    PUBLIC_BASE_URL: BASE,
    RESEND_COOLDOWN_SECONDS: '0',
  });
  beforeAll(async () => {
    smtp = await startFakeSmtp();
  });
  afterAll(async () => {
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a link sent before a rotation works under CODE_SECRET_PREVIOUS, and not after the previous secret is dropped', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const before = await startTestService(env('old-secret-old-secret'), {
      logger: pino({ level: 'trace' }, sink),
    });
    const key = await before.createKey({ channels: ['EMAIL'] });
    for (const email of ['rot-a@example.com', 'rot-b@example.com'])
      expect(
        (await before.post('/v1/contact/send-code', { channel: 'EMAIL', email, link: {} }, key)).status,
      ).toBe(200);
    const [a, b] = [tokenOf(smtp, 'rot-a@example.com'), tokenOf(smtp, 'rot-b@example.com')];
    expect((await before.app.inject({ method: 'GET', url: `/v1/links/${a}` })).statusCode).toBe(200);
    await before.close();

    const during = await startTestService(env('new-secret-new-secret', 'old-secret-old-secret'), {
      logger: pino({ level: 'trace' }, sink),
    });
    expect((await during.app.inject({ method: 'POST', url: `/v1/links/${a}` })).statusCode).toBe(200);
    await during.close();

    const after = await startTestService(env('new-secret-new-secret'), {
      logger: pino({ level: 'trace' }, sink),
    });
    // Hashed under a secret no longer accepted: no request has it.
    expect((await after.app.inject({ method: 'POST', url: `/v1/links/${b}` })).statusCode).toBe(404);
    await after.close();

    const log = lines.join('');
    expect(log).toContain('link verified');
    for (const token of [a, b]) expect(log).not.toContain(token);
    expect(log).not.toContain('/v1/links/');
  });
});
