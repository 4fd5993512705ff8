#!/usr/bin/env node
// Builds dist/ only when it is missing or older than a source file, so `npm start` starts at once
// on a built tree and `npx contact-verify` works right after `npm install` (run as `prepare`).
// Two outputs: the service (tsc → dist/) and the dashboard (Vite → dist/dashboard/).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);
const stale = (output, sources) => !existsSync(output) || mtime(output) < Math.max(...sources);
const packageJson = mtime(join(root, 'package.json'));

function run(label, script, args) {
  if (!existsSync(script)) {
    process.stderr.write(
      `${label} is missing or stale and its build tool is not installed: run npm install first.\n`,
    );
    return 1;
  }
  process.stderr.write(`building ${label} …\n`);
  return spawnSync(process.execPath, [script, ...args], { stdio: 'inherit', cwd: root }).status ?? 1;
}

// A part whose sources are absent (a Docker layer that installs before copying them) is skipped.
let status = 0;
if (
  existsSync(join(root, 'src')) &&
  stale(join(root, 'dist/main.js'), [newest(join(root, 'src')), packageJson])
) {
  status = run('dist/', join(root, 'node_modules/typescript/bin/tsc'), [
    '-p',
    join(root, 'tsconfig.build.json'),
  ]);
}
// The package's own bin: npm makes a dependency's bin executable when it links it, but `npx
// contact-verify` in this checkout may run dist/cli.js itself, which tsc writes without the mode.
const cli = join(root, 'dist/cli.js');
if (status === 0 && existsSync(cli)) chmodSync(cli, 0o755);
const dashboard = join(root, 'dashboard');
if (status === 0 && existsSync(dashboard)) {
  if (stale(join(root, 'dist/dashboard/index.html'), [newest(dashboard), packageJson])) {
    status = run('dist/dashboard/', join(root, 'node_modules/vite/bin/vite.js'), [
      'build',
      '--config',
      join(dashboard, 'vite.config.ts'),
      '--logLevel',
      'warn',
    ]);
  }
}
process.exit(status);
