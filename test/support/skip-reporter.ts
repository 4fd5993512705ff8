import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from 'vitest/node';
import { SKIP_LOG } from './skip-log.js';

/**
 * Ends the run with one loud line per skipped suite and why (PostgreSQL or Redis unreachable, a
 * client toolchain or Chromium missing), after vitest's own summary, whose "skipped" count alone
 * does not say that a whole store went untested. Reasons come from recordSkip (per test file,
 * written to a file whose name this reporter gives the workers) and from context.skip(reason).
 */
export default class SkipReporter implements Reporter {
  private readonly dir = mkdtempSync(join(tmpdir(), 'cv-test-skips-'));
  private readonly log = join(this.dir, 'skips.jsonl');
  private lines: string[] = [];
  /** With -t, every test whose name does not match is skipped too: those need no line. */
  private filtered = false;

  onInit(vitest: Vitest): void {
    // The workers are forked after this and inherit the environment.
    process.env[SKIP_LOG] = this.log;
    writeFileSync(this.log, '');
    this.filtered = Boolean(vitest.config.testNamePattern);
    process.once('exit', () => rmSync(this.dir, { recursive: true, force: true }));
  }

  onTestRunStart(): void {
    writeFileSync(this.log, '');
    this.lines = [];
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const records = new Map<string, Array<{ reason: string; flag?: string }>>();
    for (const line of readFileSync(this.log, 'utf8').split('\n')) {
      if (!line) continue;
      const { file, ...record } = JSON.parse(line) as { file: string; reason: string; flag?: string };
      records.set(file, [...(records.get(file) ?? []), record]);
    }
    for (const module of modules) {
      const name = relative(process.cwd(), module.moduleId);
      const fileReasons = reasonsOf(module.moduleId, records.get(module.moduleId) ?? []);
      for (const unit of skippedUnits(module)) {
        const result = unit.type === 'test' ? unit.result() : undefined;
        const reason = (result?.state === 'skipped' ? result.note : undefined) ?? fileReasons;
        if (reason || !this.filtered)
          this.lines.push(`SKIPPED ${name} > ${unit.fullName}: ${reason || 'no reason recorded'}`);
      }
    }
  }

  // vitest prints its summary in onFinished; this reporter comes after it in the list.
  onFinished(): void {
    if (this.lines.length > 0) {
      const loud = process.stdout.isTTY ? (s: string) => `\x1b[1;33m${s}\x1b[0m` : (s: string) => s;
      process.stdout.write(`${this.lines.map(loud).join('\n')}\n`);
    }
  }
}

/**
 * The reasons a file recorded, each once: those whose flag the file's own source names when there
 * are any (a file that imports hasPostgres alone skips for PostgreSQL), else all of them.
 */
function reasonsOf(file: string, records: Array<{ reason: string; flag?: string }>): string {
  let source = '';
  try {
    source = readFileSync(file, 'utf8');
  } catch {}
  const named = records.filter((r) => !r.flag || new RegExp(`\\b${r.flag}\\b`).test(source));
  return [...new Set((named.length > 0 ? named : records).map((r) => r.reason))].join('; ');
}

/** The outermost skipped suites and tests: a skipped suite is one line, not one per test. */
function* skippedUnits(parent: TestModule | TestSuite): Generator<TestSuite | TestCase> {
  for (const child of parent.children) {
    if (child.type === 'suite') {
      if (child.state() === 'skipped') yield child;
      else yield* skippedUnits(child);
    } else if (child.result().state === 'skipped' && child.options.mode !== 'todo') yield child;
  }
}
