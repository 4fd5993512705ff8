import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // vitest's own output, then one line per skipped suite and why (test/support/skips.ts).
    reporters: ['default', './test/support/skip-reporter.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites start servers and databases; two cores run two files at once.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
