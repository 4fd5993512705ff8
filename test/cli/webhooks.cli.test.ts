import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';

describe('CLI webhooks commands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-cli-webhooks-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'cli.db')}`, WEBHOOKS_ALLOW_PRIVATE: 'true' };
  const json = async (...args: string[]) => {
    const res = await runCli([...args, '--json'], env);
    expect(res.code, res.output).toBe(0);
    return JSON.parse(res.output);
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates, lists, shows deliveries of and deletes an endpoint', async () => {
    const created = await json(
      'webhooks',
      'create',
      '--url',
      'http://127.0.0.1:9/hook',
      '--events',
      'verification.verified,verification.expired',
    );
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.events).toEqual(['verification.verified', 'verification.expired']);
    const list = await json('webhooks', 'list');
    expect(list.map((e: { id: string }) => e.id)).toEqual([created.id]);
    expect(JSON.stringify(list)).not.toContain('whsec_');
    expect(await json('webhooks', 'deliveries', created.id)).toEqual([]);
    expect(await json('webhooks', 'delete', created.id)).toEqual({ id: created.id, deleted: true });
    expect(await json('webhooks', 'list')).toEqual([]);
  });

  it('refuses a loopback URL without WEBHOOKS_ALLOW_PRIVATE, and unknown event types', async () => {
    const strict = { DATABASE_URL: env.DATABASE_URL };
    const loopback = await runCli(
      ['webhooks', 'create', '--url', 'http://127.0.0.1/hook', '--events', 'verification.created'],
      strict,
    );
    expect(loopback.code).toBe(2);
    expect(loopback.output).toMatch(/loopback, private or link-local/);
    const unknown = await runCli(
      ['webhooks', 'create', '--url', 'http://127.0.0.1/', '--events', 'nope'],
      env,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.output).toMatch(/--events/);
  });
});
