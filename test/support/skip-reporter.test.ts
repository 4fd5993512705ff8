import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runToExit } from '../support/process.js';

/**
 * `npm test` ends with one loud line per skipped suite and why (test/support/skip-reporter.ts):
 * a vitest of its own runs three files with Redis pointed at a closed port and no Chromium.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the summary of what a run skipped', () => {
  it("prints one line per skipped suite with its reason, after vitest's own summary", {
    timeout: 120_000,
  }, async () => {
    const { CI: _ci, CV_TEST_SKIP_LOG: _log, ...env } = process.env;
    const result = await runToExit(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        'test/limits/redis-store.outage.test.ts',
        'test/browser/docs.browser.test.ts',
        'test/domain/ids.test.ts',
      ],
      {
        cwd: ROOT,
        env: {
          ...env,
          TEST_REDIS_URL: 'redis://127.0.0.1:1',
          CHROMIUM_PATH: '/nonexistent/chromium',
          NO_COLOR: '1',
        },
      },
    );
    expect(result.code, result.output).toBe(0);
    const lines = result.output.split('\n');
    const skipped = lines.filter((l) => l.startsWith('SKIPPED '));
    expect([...skipped].sort()).toEqual(
      [
        'SKIPPED test/limits/redis-store.outage.test.ts > Redis outage: Redis is not reachable at 127.0.0.1:1 (set CI=true to require it)',
        'SKIPPED test/limits/redis-store.outage.test.ts > Redis away at start: Redis is not reachable at 127.0.0.1:1 (set CI=true to require it)',
        'SKIPPED test/limits/redis-store.outage.test.ts > Redis restart under traffic: Redis is not reachable at 127.0.0.1:1 (set CI=true to require it)',
        'SKIPPED test/browser/docs.browser.test.ts > the API reference page at /docs: no chromium at /nonexistent/chromium (apt install chromium, or set CI=true to require it)',
      ].sort(),
    );
    // At the end: after the counts, not lost among the files' own output.
    const summary = lines.findIndex((l) => /^\s+Tests\s/.test(l));
    expect(summary).toBeGreaterThan(-1);
    expect(lines.findIndex((l) => l.startsWith('SKIPPED '))).toBeGreaterThan(summary);
  });
});
