import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, posix, relative } from 'node:path';

/**
 * A reader of the repository's Dockerfile and .dockerignore, enough for a test to replay the
 * image's steps in scratch directories where no container engine exists. It knows the
 * instructions the Dockerfile uses and refuses any other, so a new instruction is taught to the
 * replay rather than silently skipped.
 */

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  image: string;
  name: string | null;
  instructions: Instruction[];
}

const KNOWN = new Set([
  'FROM',
  'WORKDIR',
  'RUN',
  'COPY',
  'ENV',
  'USER',
  'VOLUME',
  'EXPOSE',
  'HEALTHCHECK',
  'CMD',
]);

/** The stages of a Dockerfile, each with its instructions; continuation lines joined, comments dropped. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  let pending = '';
  let startLine = 0;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    // Comment lines are dropped, also inside a continued instruction (as Docker does).
    if (trimmed.startsWith('#') || (trimmed === '' && pending === '')) return;
    if (pending === '') startLine = index + 1;
    if (trimmed.endsWith('\\')) {
      pending += `${trimmed.slice(0, -1)} `;
      return;
    }
    const whole = (pending + trimmed).trim();
    pending = '';
    if (whole === '') return;
    const [keyword = '', ...rest] = whole.split(/\s+/);
    const upper = keyword.toUpperCase();
    if (!KNOWN.has(upper))
      throw new Error(`Dockerfile line ${startLine}: the replay does not know ${keyword}`);
    const args = whole.slice(keyword.length).trim();
    if (upper === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest.join(' '));
      if (!match?.[1]) throw new Error(`Dockerfile line ${startLine}: FROM ${args}`);
      stages.push({ image: match[1], name: match[2] ?? null, instructions: [] });
      return;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile line ${startLine}: ${upper} before FROM`);
    stage.instructions.push({ keyword: upper, args, line: startLine });
  });
  return stages;
}

/** `ENV a=1 b="two words"` (or the legacy `ENV a 1`) as pairs; a `$` reference is refused. */
export function parseEnv(args: string): Record<string, string> {
  if (args.includes('$')) throw new Error(`ENV with a variable reference: ${args}`);
  if (!args.includes('=')) {
    const [key = '', ...value] = args.split(/\s+/);
    return { [key]: value.join(' ') };
  }
  const pairs: Record<string, string> = {};
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|(\S*))/g)) {
    pairs[match[1]!] = match[3] ?? match[4] ?? '';
  }
  return pairs;
}

/** The exec form of CMD and HEALTHCHECK's CMD: a JSON array of strings. */
export function execForm(args: string): string[] {
  const form = JSON.parse(args) as unknown;
  if (!Array.isArray(form) || !form.every((a) => typeof a === 'string')) {
    throw new Error(`not the exec form: ${args}`);
  }
  return form;
}

/** COPY's flags, sources and destination. */
export function parseCopy(args: string): { from: string | null; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  let from: string | null = null;
  while (words[0]?.startsWith('--')) {
    const flag = words.shift()!;
    const match = /^--from=(.+)$/.exec(flag);
    if (!match) throw new Error(`COPY flag the replay does not know: ${flag}`);
    from = match[1]!;
  }
  const dest = words.pop();
  if (!dest || words.length === 0) throw new Error(`COPY ${args}`);
  for (const source of words) {
    if (/[*?[]/.test(source)) throw new Error(`COPY with a wildcard the replay does not know: ${source}`);
  }
  return { from, sources: words, dest };
}

/** The commands of a shell-form RUN, split at `&&` (the Dockerfile chains nothing else). */
export function runCommands(args: string): string[] {
  if (/[;|`]|\|\||\$\(/.test(args))
    throw new Error(`RUN with shell syntax the replay does not know: ${args}`);
  return args
    .split('&&')
    .map((c) => c.trim())
    .filter(Boolean);
}

/** A `.dockerignore` as a predicate over paths relative to the build context. */
export function dockerignore(text: string): (path: string) => boolean {
  const patterns = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((pattern) => {
      if (pattern.startsWith('!'))
        throw new Error(`.dockerignore exception the replay does not know: ${pattern}`);
      const source = posix
        .normalize(pattern.replace(/^\/+/, ''))
        .split('/')
        .map((part) =>
          part === '**'
            ? '.*'
            : part
                .replace(/[.+^${}()|\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/');
      return new RegExp(`^${source}$`);
    });
  return (path) => {
    const parts = posix.normalize(path).split('/');
    // A pattern that names a directory excludes everything below it.
    return parts.some((_, i) => {
      const prefix = parts.slice(0, i + 1).join('/');
      return patterns.some((p) => p.test(prefix));
    });
  };
}

/**
 * Docker's COPY on plain directories: a directory source copies its contents, a file goes into a
 * destination that ends with `/` (or names several sources), or becomes the destination itself.
 * `ignored` filters paths relative to `contextRoot` (the build context's .dockerignore).
 */
export function copyInto(
  contextRoot: string,
  sources: string[],
  dest: string,
  ignored: (relativePath: string) => boolean = () => false,
): void {
  const intoDirectory = dest.endsWith('/') || sources.length > 1;
  for (const source of sources) {
    const from = join(contextRoot, source);
    const rel = normalize(relative(contextRoot, from));
    if (rel.startsWith('..')) throw new Error(`COPY source outside its context: ${source}`);
    if (ignored(rel) || !existsSync(from)) throw new Error(`COPY ${source}: not found in the build context`);
    const isDirectory = statSync(from).isDirectory();
    const target = intoDirectory && !isDirectory ? join(dest, posix.basename(source)) : dest;
    mkdirSync(isDirectory ? target : dirname(target), { recursive: true });
    cpSync(from, target, {
      recursive: true,
      // Relative links (node_modules/.bin) stay relative, as in an image layer.
      verbatimSymlinks: true,
      filter: (path) => !ignored(normalize(relative(contextRoot, path))),
    });
  }
}

/** The repository's Dockerfile, parsed. */
export function readDockerfile(root: string): Stage[] {
  return parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'));
}
