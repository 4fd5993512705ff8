import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/schema.js';
import { ADMIN_TOKEN, testConfig } from '../support/app.js';

// SQLite folds on the request thread, so its batches are kept small; PostgreSQL folds on the
// server, where every batch is planned anew, so an idle instance asks less often.
describe('FOLD_INTERVAL_MS default', () => {
  it('is 50 ms on SQLite', () => {
    expect(testConfig({ DATABASE_URL: 'sqlite:./data/verify.db' }).foldIntervalMs).toBe(50);
  });

  it('is 250 ms on PostgreSQL, whichever scheme the URL names', () => {
    expect(testConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/verify' }).foldIntervalMs).toBe(250);
    expect(testConfig({ DATABASE_URL: 'postgresql://u@127.0.0.1:5432/verify' }).foldIntervalMs).toBe(250);
  });

  it('follows a DATABASE_URL given in CONFIG_FILE', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cv-config-')), 'config.json');
    writeFileSync(file, JSON.stringify({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/verify' }));
    const config = loadConfig({ ADMIN_TOKEN, CODE_SECRET: 'test-code-secret', CONFIG_FILE: file });
    expect(config.foldIntervalMs).toBe(250);
  });

  it('gives way to a value the operator set, which counts as given', () => {
    const config = testConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/verify', FOLD_INTERVAL_MS: '40' });
    expect(config.foldIntervalMs).toBe(40);
    expect(config.given.has('foldIntervalMs')).toBe(true);
    expect(testConfig().given.has('foldIntervalMs')).toBe(false);
  });
});
