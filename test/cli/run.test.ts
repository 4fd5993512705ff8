import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { startTestService } from '../support/app.js';

describe('CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-cli-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'cli.db')}` };
  const cli = async (...args: string[]) => runCli(args, env);
  const json = async (...args: string[]) => {
    const res = await cli(...args, '--json');
    expect(res.code, res.output).toBe(0);
    return JSON.parse(res.output);
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates, creates accounts and keys, lists, rotates and revokes', async () => {
    expect((await cli('migrate')).code).toBe(0);
    const account = await json('accounts', 'create', '--name', 'Shop');
    expect(account.id).toMatch(/^acc_/);
    expect((await json('accounts', 'list')).map((a: { name: string }) => a.name)).toEqual([
      'Default',
      'Shop',
    ]);

    const key = await json(
      'keys',
      'create',
      '--name',
      'web',
      '--channels',
      'email,SMS',
      '--account',
      account.id,
    );
    expect(key).toMatchObject({ channels: ['EMAIL', 'SMS'], accountId: account.id, test: false });
    // Times in ISO 8601, as the API gives them.
    expect(key.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(key.key).toMatch(/^cvk_live_/);
    const test = await json('keys', 'create', '--name', 'ci', '--channels', 'EMAIL', '--test');
    expect(test.key).toMatch(/^cvk_test_/);

    const listed = await json('keys', 'list', '--account', account.id);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key.key);

    const rotated = await json('keys', 'rotate', key.id);
    expect(rotated.replaces).toBe(key.id);
    expect((await cli('keys', 'revoke', key.id)).code).toBe(2);
    expect((await cli('keys', 'revoke', rotated.id)).code).toBe(0);
    const after = await json('keys', 'list', '--account', account.id);
    expect(after.every((k: { revokedAt: string | null }) => typeof k.revokedAt === 'string')).toBe(true);
  });

  it('creates keys that the service accepts, and lists when they were last used', async () => {
    const { key, id } = await json('keys', 'create', '--name', 'svc', '--channels', 'EMAIL');
    expect((await cli('keys', 'list')).output).toMatch(new RegExp(`${id}\\t.*\\tnever used\\tsvc`));
    const svc = await startTestService(env);
    try {
      const res = await svc.post(
        '/v1/contact/send-code',
        { channel: 'EMAIL', email: 'cli@example.com' },
        key,
      );
      expect(res.status).toBe(200);
    } finally {
      // Stopping writes the uses recorded in memory.
      await svc.close();
    }
    expect((await cli('keys', 'list')).output).toMatch(
      new RegExp(`${id}\\t.*\\tused \\d{4}-\\d\\d-\\d\\dT[^\\t]+\\tsvc`),
    );
    const listed = (await json('keys', 'list')).find((k: { id: string }) => k.id === id);
    expect(listed.lastUsedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('renames a key and changes its channels', async () => {
    const { id } = await json('keys', 'create', '--name', 'old', '--channels', 'EMAIL');
    const updated = await json('keys', 'update', id, '--name', 'new', '--channels', 'sms,WHATSAPP');
    expect(updated).toMatchObject({ id, name: 'new', channels: ['SMS', 'WHATSAPP'], revokedAt: null });
    expect(Object.keys(updated)).not.toContain('key');
    expect(JSON.stringify(updated)).not.toMatch(/keyHash|[0-9a-f]{64}/);
    const renamed = await json('keys', 'update', id, '--name', 'newer');
    expect(renamed).toMatchObject({ name: 'newer', channels: ['SMS', 'WHATSAPP'] });
    expect((await cli('keys', 'update', id)).code).toBe(2);
    expect((await cli('keys', 'update', id, '--channels', 'FAX')).output).toMatch(/--channels/);
    expect((await cli('keys', 'update', 'key_nope', '--name', 'x')).code).toBe(2);
    expect((await cli('keys', 'revoke', id)).code).toBe(0);
    expect((await cli('keys', 'update', id, '--name', 'x')).output).toMatch(/no live key/);
  });

  it('explains bad usage', async () => {
    expect((await cli('keys', 'create', '--name', 'x', '--channels', 'FAX')).output).toMatch(/--channels/);
    expect((await cli('keys', 'create', '--channels', 'EMAIL')).code).toBe(2);
    expect((await cli('nope')).code).toBe(2);
    expect((await cli('--help')).output).toMatch(/Usage/);
  });
});

describe('CLI output', () => {
  it('never prints a key hash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cv-cli-hash-'));
    try {
      const res = await runCli(['keys', 'create', '--name', 'x', '--channels', 'EMAIL', '--json'], {
        DATABASE_URL: `sqlite:${join(dir, 'c.db')}`,
      });
      expect(res.output).not.toMatch(/keyHash|[0-9a-f]{64}/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
