import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { documentText, openApiDocument } from '../../scripts/openapi-document.js';

/**
 * Redocly's recommended rules (redocly.yaml: `recommended-strict`, so a warning fails too) over
 * the document the service serves now. `npm run lint:openapi` (in `npm run lint`, so in CI) runs
 * them over clients/openapi.json; this runs them over the live document, so a new route that
 * declares no `security`, or a new event without an operationId, fails here where it is added,
 * before clients/openapi.json is regenerated. The repository's one exception
 * (.redocly.lint-ignore.yaml) applies: the document is linted at the same relative path.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REDOCLY = join(
  dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')),
  'bin/cli.js',
);
const scratch = mkdtempSync(join(tmpdir(), 'cv-redocly-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer?: string }>;
}

describe("the OpenAPI document under Redocly's recommended rules", () => {
  it('has no problem', { timeout: 60_000 }, async () => {
    mkdirSync(join(scratch, 'clients'));
    writeFileSync(join(scratch, 'clients/openapi.json'), documentText(await openApiDocument()));
    for (const file of ['redocly.yaml', '.redocly.lint-ignore.yaml'])
      copyFileSync(join(ROOT, file), join(scratch, file));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', 'clients/openapi.json', '--format=json', '--max-problems=1000'],
      { cwd: scratch, env: { ...process.env, REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' } },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse(stdout) as { totals: Record<string, number>; problems: Problem[] };
    const problems = report.problems.map(
      (p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`,
    );
    expect(problems).toEqual([]);
    // The exception of .redocly.lint-ignore.yaml is still needed, and the only one.
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0, ignored: 1 });
  });
});
