import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrlProblem, misspeltSettings } from '../../src/config/hints.js';
import { loadConfig, SETTING_NAMES } from '../../src/config/schema.js';
import { runToExit, startServer } from '../support/process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ADMIN = 'config-hints-admin-token-0123456789ab';
const dir = mkdtempSync(join(tmpdir(), 'cv-hints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hints for misconfigured settings', () => {
  it('names the setting a misspelt variable probably meant, and leaves other variables alone', () => {
    const hints = misspeltSettings(
      { DATABSE_URL: 'x', REDIS_ULR: 'y', PATH: '/bin', HOME: '/root', DATABASE_URL: 'sqlite:x' },
      SETTING_NAMES,
    );
    expect(hints).toEqual([
      'DATABSE_URL is not a setting; did you mean DATABASE_URL?',
      'REDIS_ULR is not a setting; did you mean REDIS_URL?',
    ]);
  });

  it('lists the allowed values of LOG_LEVEL instead of a schema message', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
    );
  });

  it('says how to write a DATABASE_URL that lacks its scheme', () => {
    expect(databaseUrlProblem('sqlite:./data/x.db')).toBeNull();
    expect(databaseUrlProblem('postgres://u@h/db')).toBeNull();
    expect(() => loadConfig({ DATABASE_URL: './data/x.db' })).toThrow(
      'DATABASE_URL must start with sqlite: (a file, e.g. sqlite:./data/verify.db) or postgres://',
    );
    expect(databaseUrlProblem('./data/x.db')).toContain('for this file write sqlite:./data/x.db');
  });
});

describe('hints at start', () => {
  it('names PORT when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const { code, output } = await runToExit(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: `sqlite:${join(dir, 'port.db')}`,
          ADMIN_TOKEN: ADMIN,
        },
      });
      expect(code).toBe(2);
      expect(output).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(output).toContain('set PORT to a free port');
    } finally {
      taken.close();
    }
  }, 60_000);

  it('logs an unreachable REDIS_URL and a misspelt variable at start, and still starts', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const server = await startServer({
      DATABASE_URL: `sqlite:${join(dir, 'redis.db')}`,
      ADMIN_TOKEN: ADMIN,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      DATABSE_URL: 'sqlite:./nowhere.db',
    });
    try {
      expect(server.output()).toContain('REDIS_URL is unreachable');
      expect(server.output()).toContain('DATABSE_URL is not a setting; did you mean DATABASE_URL?');
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 60_000);
});
