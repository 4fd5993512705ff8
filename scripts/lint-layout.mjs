/**
 * Layout rules Biome cannot express, run by `npm run lint`:
 *
 * - A provider's name appears only in its folder (src/delivery/providers/<name>/) and in the
 *   registry: everything else derives from the registry. The names are the folders' own; a
 *   provider named as its channel (whatsapp: WHATSAPP) is not searched for, since the channel is
 *   named everywhere.
 * - Schema failures are read in one place (src/http/validation.ts): no route reads
 *   `request.validationError` itself or keeps a `rejectInvalid`-style copy.
 * - A test file's folder mirrors a folder of src/ (test/http/routes/ for src/http/routes/), or
 *   a root folder it tests (test/clients/ for clients/, test/docs/ for docs/), outside folders
 *   that test the whole service (e2e/, browser/) or help other tests (support/): an error. Its
 *   name should also be a module's (test/http/routes/send-code.test.ts for
 *   src/http/routes/send-code.ts), or the module's name and an aspect (send-code.validation):
 *   reported as one warning (`--list-tests` lists the files; `--strict-tests` makes it an error),
 *   since a test of a behaviour across modules (test/http/key-scope) has no one module to name.
 *
 * Exits 1 when an error rule is broken, naming each file and line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const rootArg = process.argv.find((a) => a.startsWith('--root='));
/** The repository (`--root=<dir>` checks another tree: the lint's own test). */
const root = rootArg ? rootArg.slice('--root='.length) : fileURLToPath(new URL('..', import.meta.url));
const strictTests = process.argv.includes('--strict-tests');
const listTests = process.argv.includes('--list-tests');
const PROVIDERS_DIR = 'src/delivery/providers';
const REGISTRY = `${PROVIDERS_DIR}/registry.ts`;
const CHANNELS = ['email', 'sms', 'whatsapp'];
/** Folders of tests that exercise the service as a whole, or help other tests. */
const TEST_FOLDERS_WITHOUT_MIRROR = ['e2e', 'browser', 'support', 'fixtures'];

const posix = (path) => path.split(sep).join('/');

function filesUnder(dir, keep) {
  const out = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (keep(entry.name)) out.push(posix(relative(root, path)));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

const errors = [];
const warnings = [];

// Provider names outside their folder and the registry.
const providerNames = readdirSync(join(root, PROVIDERS_DIR), { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(root, PROVIDERS_DIR, e.name, 'index.ts')))
  .map((e) => e.name)
  .filter((name) => !CHANNELS.includes(name));
const sources = filesUnder('src', (name) => name.endsWith('.ts'));
for (const file of sources) {
  if (file === REGISTRY) continue;
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  for (const name of providerNames) {
    if (file.startsWith(`${PROVIDERS_DIR}/${name}/`)) continue;
    // Any spelling: twilio, Twilio, TWILIO_FROM, twilioVoice.
    const pattern = new RegExp(`(?<![a-z])${name}`, 'i');
    lines.forEach((line, i) => {
      if (pattern.test(line)) {
        errors.push(
          `${file}:${i + 1}: names the provider "${name}" outside ${PROVIDERS_DIR}/${name}/ and the registry; derive it from the registry`,
        );
      }
    });
  }
}

// One reader of schema failures.
for (const file of sources) {
  if (file === 'src/http/validation.ts') continue;
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (/\.validationError\b/.test(line) || /function\s+reject\w*Invalid/.test(line)) {
      errors.push(
        `${file}:${i + 1}: reads schema failures itself; the schemaErrorFormatter answers them, and routes with cross-field rules use validatedBody (src/http/validation.ts)`,
      );
    }
  });
}

// Tests mirror src/.
const tests = filesUnder('test', (name) => /\.test\.ts$/.test(name));
for (const file of tests) {
  const parts = file.split('/').slice(1);
  if (parts.some((p) => TEST_FOLDERS_WITHOUT_MIRROR.includes(p))) continue;
  const name = parts.pop().replace(/\.test\.ts$/, '');
  // send-code.validation → send-code.validation, then send-code (aspects after the module's name).
  const dotted = name.split('.');
  const bases = dotted.map((_, i) => dotted.slice(0, dotted.length - i).join('.'));
  const mirrored = ['src', '.'].some((top) =>
    bases.some((base) => {
      const path = join(root, top, ...parts, base);
      return (
        ['.ts', '.tsx', '.mjs', '.md', '.json'].some((ext) => existsSync(`${path}${ext}`)) ||
        isDirectory(path)
      );
    }),
  );
  const dir = ['src', ...parts].join('/');
  const base = dotted[0];
  const folderMirrored =
    parts.length === 0 || ['src', '.'].some((top) => isDirectory(join(root, top, ...parts)));
  if (!folderMirrored)
    errors.push(`${file}: no src/${parts.join('/')}/ (nor ${parts.join('/')}/) for its folder to mirror`);
  else if (!mirrored) warnings.push(`${file}: no ${dir}/${base}.ts (or ${dir}/${base}/) for it to mirror`);
}

function isDirectory(path) {
  return existsSync(path) && statSync(path).isDirectory();
}

if (warnings.length > 0) {
  const report = [
    `${warnings.length} of ${tests.length} test files do not mirror a module of src/`,
    ...warnings.map((w) => `  ${w}`),
  ];
  if (strictTests) errors.push(...report);
  else if (listTests) console.warn(report.join('\n'));
  else console.warn(`lint-layout: warning (report only): ${report[0]}; --list-tests lists them`);
}
if (errors.length > 0) {
  console.error(errors.join('\n'));
  process.exit(1);
}
console.log('lint-layout: provider names, schema failures and test layout checked');
