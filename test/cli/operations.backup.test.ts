import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';

/**
 * `contact-verify backup <file>` writes one self-contained file that only its owner can read (it
 * holds the code secret and the admin token's hash when they were generated), in a folder it
 * creates when missing, while the database stays open for writes.
 */
describe('contact-verify backup', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-backup-cli-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'verify.db')}` };
  const cli = (...args: string[]) => runCli(args, env);
  let live: BetterSqlite3.Database;

  beforeAll(async () => {
    expect((await cli('migrate')).code).toBe(0);
    // The service holds the database open in WAL mode, as it runs.
    live = new BetterSqlite3(join(dir, 'verify.db'));
    live.pragma('journal_mode = WAL');
    live.prepare("INSERT INTO settings (name, value) VALUES ('backup-probe', 'x')").run();
  });
  afterAll(() => {
    live.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the folder, writes one file of mode 0600, with no -wal or -shm beside it', async () => {
    const folder = join(dir, 'backups', 'nightly');
    const file = join(folder, 'verify.db');
    const res = await cli('backup', file);
    expect(res.code, res.output).toBe(0);
    expect(res.output).toMatch(/backed up .* \(schema \d+_\w+, 0 verification requests\)/);
    expect(readdirSync(folder)).toEqual(['verify.db']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    // Self-contained: not in WAL mode, so opening it makes no -wal or -shm either.
    const copy = new BetterSqlite3(file, { readonly: true });
    try {
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(copy.prepare("SELECT value FROM settings WHERE name = 'backup-probe'").get()).toEqual({
        value: 'x',
      });
    } finally {
      copy.close();
    }
    expect(readdirSync(folder)).toEqual(['verify.db']);
  });

  it('replaces an earlier backup of the same name whole, and tightens nothing it did not create', async () => {
    const folder = join(dir, 'shared');
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    const file = join(folder, 'verify.db');
    writeFileSync(file, 'an earlier file of that name', { mode: 0o644 });
    const res = await cli('backup', file);
    expect(res.code, res.output).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o755);
    expect(readdirSync(folder)).toEqual(['verify.db']);
  });

  it('leaves nothing behind when it cannot write there', async () => {
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, '');
    const res = await cli('backup', join(blocked, 'verify.db'));
    expect(res.code).toBe(2);
    expect(res.output).toMatch(/cannot write the backup/);
    expect(readdirSync(dir).sort()).toEqual([
      'a-file',
      'backups',
      'shared',
      'verify.db',
      'verify.db-shm',
      'verify.db-wal',
    ]);
  });
});
