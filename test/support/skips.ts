import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';
import { SKIP_LOG } from './skip-log.js';

/**
 * Says why this test file skips suites (a service unreachable, a tool missing): `npm test` ends
 * with one line per skipped suite of the file and this reason, after its summary, so a run that
 * skipped half the integration tests does not look like a clean one. A test that skips itself at
 * run time gives its reason to `context.skip(reason)` instead.
 *
 * `flag` names the export a suite tests to skip (hasPostgres): of the reasons of a file, its
 * lines keep those whose flag the file names, so a PostgreSQL suite is not said to need Redis.
 */
export function recordSkip(reason: string, flag?: string): void {
  const log = process.env[SKIP_LOG];
  const file = expect.getState().testPath;
  // Without the reporter (another --reporter on the command line) the reason is logged here.
  if (!log || !file) {
    console.log(`skipping: ${reason}`);
    return;
  }
  appendFileSync(log, `${JSON.stringify({ file, reason, flag })}\n`);
}
