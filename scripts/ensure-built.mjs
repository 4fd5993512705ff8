#!/usr/bin/env node
// Builds dist/ only when it is missing or older than a source file, so `npm start` starts at once
// on a built tree and `npx contact-verify` works right after `npm install` (run as `prepare`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist/main.js');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const sources = Math.max(newest(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs);
if (existsSync(built) && statSync(built).mtimeMs >= sources) process.exit(0);
const tsc = join(root, 'node_modules/typescript/bin/tsc');
if (!existsSync(tsc)) {
  process.stderr.write('dist/ is missing or stale and TypeScript is not installed: run npm install first.\n');
  process.exit(1);
}
process.stderr.write('building dist/ …\n');
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
