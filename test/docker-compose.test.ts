import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseEnv, readDockerfile } from './support/dockerfile.js';

/**
 * docker-compose.yml, .env.example and docs/deployment.md describe one deployment: the secrets
 * compose requires are the ones the guide and the example file name, and the service runs with
 * NODE_ENV=production.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const compose = read('docker-compose.yml');
const guide = read('docs/deployment.md');
const composeSection = guide.slice(guide.indexOf('## docker-compose'));

/** `${VAR:?message}` (required) and `${VAR:-default}` / `${VAR}` (optional) references. */
const references = (text: string, required: boolean) =>
  new Set(
    [...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)(:?[?-][^}]*)?\}/g)]
      .filter((m) => (m[2]?.replace(/^:/, '').startsWith('?') ?? false) === required)
      .map((m) => m[1]!),
  );

/** The service `verify`'s block of docker-compose.yml (up to the next service). */
const verifyService = /\n {2}verify:\n([\s\S]*?)\n {2}\S/.exec(compose)?.[1] ?? '';

describe('docker-compose, .env.example and docs/deployment.md', () => {
  const required = references(compose, true);
  const optional = references(compose, false);

  it('reads a .env whose example names every variable compose references', () => {
    expect([...required].sort()).toEqual(['ADMIN_TOKEN', 'CODE_SECRET', 'POSTGRES_PASSWORD']);
    expect(compose).toContain('.env.example');
    expect(existsSync(join(ROOT, '.env.example'))).toBe(true);
    const example = new Set([...read('.env.example').matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
    for (const name of [...required, ...optional]) expect(example, name).toContain(name);
    // .env is the one file of secrets: never in git, never in the image's build context.
    expect(read('.gitignore').split('\n')).toContain('.env');
    expect(read('.dockerignore').split('\n')).toContain('.env');
  });

  it('documents each required secret as required in the guide’s docker-compose section', () => {
    for (const name of required) {
      expect(composeSection, name).toMatch(new RegExp(`\\| \`${name}\` \\| yes \\|`));
    }
    for (const name of optional)
      expect(composeSection, name).toMatch(new RegExp(`\\| \`${name}\` \\| no \\|`));
  });

  it('tells the one way compose gets its admin token: the ADMIN_TOKEN of .env, never a printed one', () => {
    expect(required).toContain('ADMIN_TOKEN');
    // A generated token is printed once in the logs; compose never lets the service generate one.
    expect(composeSection).not.toMatch(/Generated ADMIN_TOKEN|logs verify/);
    expect(composeSection).toMatch(/`ADMIN_TOKEN` \| yes \| [^|]*you choose it/);
  });

  it('runs the service with NODE_ENV=production: from the image, not overridden', () => {
    expect(verifyService).toMatch(/^ {4}build: \.$/m);
    const override = /^\s+NODE_ENV:\s*(\S+)/m.exec(verifyService);
    if (override) expect(override[1]!.replace(/["']/g, '')).toBe('production');
    const final = readDockerfile(ROOT).at(-1)!;
    const env = Object.assign(
      {},
      ...final.instructions.filter((i) => i.keyword === 'ENV').map((i) => parseEnv(i.args)),
    );
    expect(env.NODE_ENV).toBe('production');
  });
});
