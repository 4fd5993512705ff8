import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runToExit } from './support/process.js';

/**
 * Each client library's own test run, in its own language: `clients/<language>/test.sh` runs the
 * library's unit tests, its drift test against clients/openapi.json (CV_OPENAPI: field names,
 * enum values and error codes the document gives, so a field added to the service fails the
 * library that lacks it) and builds its package with the ecosystem's own tools, offline. Exit
 * 77: the toolchain is missing, skipped with one line except under CI=true.
 */
const CLIENTS = fileURLToPath(new URL('../clients/', import.meta.url));
const MISSING_TOOLCHAIN = 77;
const languages = readdirSync(CLIENTS).filter((name) => existsSync(join(CLIENTS, name, 'test.sh')));

describe("client libraries' own test runs", () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-library-tests-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('all eight languages of the API document have their own test run', () => {
    const eight = ['csharp', 'go', 'java', 'php', 'python', 'ruby', 'rust', 'typescript'];
    expect([...languages].sort()).toEqual(eight);
  });

  languages.forEach((language) => {
    it(`${language}: its tests, its drift test and its package build pass`, {
      timeout: 900_000,
    }, async (context) => {
      const work = join(dir, language);
      const result = await runToExit('bash', [join(CLIENTS, language, 'test.sh')], {
        cwd: join(CLIENTS, language),
        env: { ...process.env, CV_OPENAPI: join(CLIENTS, 'openapi.json'), CV_TEST_WORK: work },
      });
      if (result.code === MISSING_TOOLCHAIN && process.env.CI !== 'true') {
        context.skip(`the ${language} toolchain is missing: ${result.output.trim().split('\n').pop()}`);
      }
      expect(result.code, result.output).toBe(0);
    });
  });
});
