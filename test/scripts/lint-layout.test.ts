import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/lint-layout.mjs', import.meta.url));

/** A small tree with two providers (one named as its channel) and a route. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cv-lint-layout-'));
  const base: Record<string, string> = {
    'src/delivery/providers/acme/index.ts': "export const acme = { name: 'acme' };\n",
    'src/delivery/providers/whatsapp/index.ts': "export const whatsapp = { name: 'whatsapp' };\n",
    'src/domain/channels/whatsapp.ts': "export const whatsapp = defineChannel({ name: 'WHATSAPP' });\n",
    'src/delivery/providers/registry.ts':
      "import { acme } from './acme/index.js';\nexport const PROVIDERS = [acme];\n",
    'src/http/validation.ts':
      'export const read = (r: { validationError?: unknown }) => r.validationError;\n',
    'src/http/routes/send.ts': "export const channel = 'WHATSAPP';\n",
    'test/http/routes/send.test.ts': '',
    'test/e2e/server.test.ts': '',
    ...files,
  };
  for (const [path, text] of Object.entries(base)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const roots: string[] = [];
const lint = (files: Record<string, string>, ...args: string[]) => {
  const root = tree(files);
  roots.push(root);
  const run = spawnSync(process.execPath, [script, `--root=${root}`, ...args], { encoding: 'utf8' });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
};

describe('scripts/lint-layout.mjs', () => {
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it('passes a tree that keeps the rules', () => {
    expect(lint({})).toMatchObject({ status: 0 });
  });

  it('fails on a provider named outside its folder and the registry, in any spelling', () => {
    const result = lint({ 'src/http/health.ts': 'const env = process.env.ACME_TOKEN;\n' });
    expect(result.status).toBe(1);
    expect(result.out).toContain('src/http/health.ts:1: names the provider "acme"');
  });

  it("allows a provider's name in its lookup folder and the lookup registry, and nowhere else", () => {
    const lookupTree = {
      'src/lookup/providers/acme/index.ts': "export const acme = { name: 'acme', env: 'ACME_TOKEN' };\n",
      'src/lookup/providers/carrierco/index.ts': "export const carrierco = { name: 'carrierco' };\n",
      'src/lookup/registry.ts':
        "import { acme } from './providers/acme/index.js';\nimport { carrierco } from './providers/carrierco/index.js';\n",
    };
    expect(lint(lookupTree)).toMatchObject({ status: 0 });
    const result = lint({ ...lookupTree, 'src/lookup/settings.ts': "const d = 'CARRIERCO_CLIENT_ID';\n" });
    expect(result.status).toBe(1);
    expect(result.out).toContain('src/lookup/settings.ts:1: names the provider "carrierco"');
  });

  it('fails on a route that reads schema failures itself', () => {
    const result = lint({
      'src/http/routes/admin.ts':
        'function rejectInvalid(r: { validationError?: unknown }) {\n  return r.validationError;\n}\n',
    });
    expect(result.status).toBe(1);
    expect(result.out).toContain('src/http/routes/admin.ts:1: reads schema failures itself');
    expect(result.out).toContain('src/http/routes/admin.ts:2: reads schema failures itself');
  });

  it('fails on a test whose name mirrors no module of its folder', () => {
    const result = lint({ 'test/http/misc.test.ts': '' });
    expect(result.status).toBe(1);
    expect(result.out).toContain('test/http/misc.test.ts: no src/http/misc.ts');
  });

  it('takes a module and an aspect, a folder, or a part of the repository outside src/', () => {
    const result = lint({
      'test/http/routes/send.validation.test.ts': '',
      'src/store/sqlite/store.ts': '',
      'test/store/sqlite.plans.test.ts': '',
      'docs/guide.md': '',
      'test/docs/guide.test.ts': '',
      Dockerfile: '',
      'test/Dockerfile.replay.test.ts': '',
      'test/delivery/support/fake.test.ts': '',
    });
    expect(result).toMatchObject({ status: 0 });
  });

  it('does not count test/ or src/ seen from the root as a counterpart', () => {
    const result = lint({ 'test/test.misc.test.ts': '', 'test/src/http/routes/send.test.ts': '' });
    expect(result.status).toBe(1);
    expect(result.out).toContain('test/test.misc.test.ts: no src/test.ts');
    expect(result.out).toContain('test/src/http/routes/send.test.ts: no src/src/http/routes/');
  });

  it('lists each test file with its counterpart under --list-tests', () => {
    const result = lint({ 'test/http/routes/send.retries.test.ts': '' }, '--list-tests');
    expect(result.status).toBe(0);
    expect(result.out).toContain('test/http/routes/send.retries.test.ts -> src/http/routes/send.ts');
    expect(result.out).toContain('test/e2e/server.test.ts (exempt: e2e/)');
  });

  it('fails on a test whose folder mirrors no folder of src/ nor a root folder', () => {
    const result = lint({ 'test/hardening/misc.test.ts': '' });
    expect(result.status).toBe(1);
    expect(result.out).toContain('test/hardening/misc.test.ts: no src/hardening/');
  });
});
