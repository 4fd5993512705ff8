/**
 * Layout rules Biome cannot express, run by `npm run lint`:
 *
 * - A provider's name appears only in its folders (src/delivery/providers/<name>/ and
 *   src/lookup/providers/<name>/, a delivery provider and a lookup provider of one company), the
 *   folders of its vendor's other products (<name>-<product>/: twilio-voice/ names twilio) and in
 *   the registries: everything else derives from them. The names are the folders' own; a provider
 *   named as its channel (whatsapp: WHATSAPP; the channels are read from their modules in
 *   src/domain/channels/) is not searched for, since the channel is named everywhere.
 * - Schema failures are read in one place (src/http/validation.ts): no route reads
 *   `request.validationError` itself or keeps a `rejectInvalid`-style copy.
 * - test/ mirrors src/, so a module's tests are found by its path:
 *   `test/<path>/<module>.test.ts` and `test/<path>/<module>.<aspect>.test.ts` test
 *   `src/<path>/<module>.ts` or the folder `src/<path>/<module>/` (test/http/routes/send-code.test.ts
 *   and send-code.validation.test.ts test src/http/routes/send-code.ts; test/store/sqlite.plans.test.ts
 *   tests src/store/sqlite/). A test of a part of the repository outside src/ mirrors it from the
 *   root instead (test/clients/scenario.test.ts: clients/scenario.json; test/docs/architecture.test.ts:
 *   docs/architecture.md; test/Dockerfile.replay.test.ts: Dockerfile). Exempt: test/e2e/ (the whole
 *   service, end to end), test/browser/ (in a browser), and support/ and fixtures/ folders (helpers,
 *   not tests). A test whose folder or name has no counterpart is an error; `--list-tests` prints
 *   each test file with the counterpart it mirrors.
 *
 * Exits 1 when an error rule is broken, naming each file and line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const rootArg = process.argv.find((a) => a.startsWith('--root='));
/** The repository (`--root=<dir>` checks another tree: the lint's own test). */
const root = rootArg ? rootArg.slice('--root='.length) : fileURLToPath(new URL('..', import.meta.url));
const listTests = process.argv.includes('--list-tests');
/** The folders that hold one folder per provider, each beside its registry.ts. */
const PROVIDER_DIRS = ['src/delivery/providers', 'src/lookup/providers'];
const REGISTRIES = ['src/delivery/providers/registry.ts', 'src/lookup/registry.ts'];
const CHANNELS_DIR = 'src/domain/channels';
/** The channels' names in lower case, read from their modules (`defineChannel({ name: 'SMS', … })`). */
const CHANNELS = existsSync(join(root, CHANNELS_DIR))
  ? readdirSync(join(root, CHANNELS_DIR))
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => {
        const text = readFileSync(join(root, CHANNELS_DIR, f), 'utf8');
        const name = /defineChannel\(\{\s*name:\s*'([A-Z_]+)'/.exec(text)?.[1];
        return name ? [name.toLowerCase()] : [];
      })
  : [];
/** Folders of tests that exercise the service as a whole, or help other tests. */
const TEST_FOLDERS_WITHOUT_MIRROR = ['e2e', 'browser', 'support', 'fixtures'];
/** Root entries a test may not mirror from the root: src/ is mirrored as src/, the rest is no part. */
const NOT_ROOT_COUNTERPARTS = ['src', 'test', 'node_modules', 'dist'];
/** What a counterpart may be: a module, or a file a test reads (Dockerfile, docker-compose.yml). */
const COUNTERPART_EXTENSIONS = ['.ts', '.tsx', '.mjs', '.md', '.json', '.yml', ''];

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

// Provider names outside their folder and the registry.
const providerNames = [
  ...new Set(
    PROVIDER_DIRS.filter((dir) => existsSync(join(root, dir))).flatMap((dir) =>
      readdirSync(join(root, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory() && existsSync(join(root, dir, e.name, 'index.ts')))
        .map((e) => e.name),
    ),
  ),
].filter((name) => !CHANNELS.includes(name));
const sources = filesUnder('src', (name) => name.endsWith('.ts'));
for (const file of sources) {
  if (REGISTRIES.includes(file)) continue;
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  for (const name of providerNames) {
    // Its folders, and those of the same vendor's other products (twilio-voice/ may name twilio,
    // whose account and signature it shares).
    if (PROVIDER_DIRS.some((dir) => file.startsWith(`${dir}/${name}/`) || file.startsWith(`${dir}/${name}-`)))
      continue;
    // Any spelling: twilio, Twilio, TWILIO_FROM, twilioVoice.
    const pattern = new RegExp(`(?<![a-z])${name}`, 'i');
    lines.forEach((line, i) => {
      if (pattern.test(line)) {
        errors.push(
          `${file}:${i + 1}: names the provider "${name}" outside ${PROVIDER_DIRS.map((d) => `${d}/${name}/`).join(' and ')} and the registries; derive it from a registry`,
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

// Tests mirror src/ (or a part of the repository outside it).
const tests = filesUnder('test', (name) => /\.test\.ts$/.test(name));
const listing = [];
for (const file of tests) {
  const parts = file.split('/').slice(1);
  if (parts.some((p) => TEST_FOLDERS_WITHOUT_MIRROR.includes(p))) {
    listing.push(`${file} (exempt: ${parts.find((p) => TEST_FOLDERS_WITHOUT_MIRROR.includes(p))}/)`);
    continue;
  }
  const name = parts.pop().replace(/\.test\.ts$/, '');
  const counterpart = counterpartOf(parts, name);
  if (counterpart) {
    listing.push(`${file} -> ${counterpart}`);
    continue;
  }
  const folder = parts.join('/');
  const base = name.split('.')[0];
  const folderMirrored = parts.length === 0 || inSrcOrRoot(parts).some(isDirectory);
  errors.push(
    folderMirrored
      ? `${file}: no src/${folder ? `${folder}/` : ''}${base}.ts (or src/${folder ? `${folder}/` : ''}${base}/, or ${folder ? `${folder}/` : ''}${base} outside src/) for it to mirror; name it after the module it tests (see scripts/lint-layout.mjs)`
      : `${file}: no src/${folder}/ (nor ${folder}/) for its folder to mirror`,
  );
}

/** The paths a test path may mirror: under src/, and from the root unless that is src/ or test/. */
function inSrcOrRoot(segments) {
  const roots = [join(root, 'src', ...segments)];
  if (!NOT_ROOT_COUNTERPARTS.includes(segments[0]) && !segments[0].startsWith('.'))
    roots.push(join(root, ...segments));
  return roots;
}

/**
 * The file or folder a test named `name` in test/<parts>/ mirrors, or undefined: the whole name
 * first, then without its last dotted parts (send-code.validation, then send-code).
 */
function counterpartOf(parts, name) {
  const dotted = name.split('.');
  for (let i = dotted.length; i > 0; i--) {
    for (const path of inSrcOrRoot([...parts, dotted.slice(0, i).join('.')])) {
      if (isDirectory(path)) return `${posix(relative(root, path))}/`;
      const ext = COUNTERPART_EXTENSIONS.find(
        (e) => existsSync(`${path}${e}`) && !isDirectory(`${path}${e}`),
      );
      if (ext !== undefined) return posix(relative(root, `${path}${ext}`));
    }
  }
  return undefined;
}

function isDirectory(path) {
  return existsSync(path) && statSync(path).isDirectory();
}

if (listTests) console.log(listing.join('\n'));
if (errors.length > 0) {
  console.error(errors.join('\n'));
  process.exit(1);
}
console.log('lint-layout: provider names, schema failures and test layout checked');
