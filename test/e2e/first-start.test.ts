import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postJson, startServer } from '../support/process.js';

describe('first start without ADMIN_TOKEN', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-first-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'verify.db')}` };

  it('generates an admin token, prints it once, and accepts it after a restart', async () => {
    const first = await startServer(env);
    const token = /(cva_[A-Za-z0-9_-]{43})/.exec(first.output())?.[1];
    expect(token).toBeDefined();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await startServer(env);
    try {
      expect(second.output()).not.toMatch(/cva_/);
      const key = await postJson(
        `${second.url}/v1/admin/api-keys`,
        { name: 'first', channels: ['EMAIL'] },
        token,
      );
      expect(key.status).toBe(201);
      const wrong = await postJson(
        `${second.url}/v1/admin/api-keys`,
        { name: 'x', channels: ['EMAIL'] },
        'cva_wrong',
      );
      expect(wrong.status).toBe(401);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('refuses to start with an invalid setting, naming the variable', async () => {
    await expect(startServer({ ...env, CODE_LENGTH: '12' }, 15_000)).rejects.toThrow(/CODE_LENGTH/);
  });
});
