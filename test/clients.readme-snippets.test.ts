import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fencedBlocks, readmeRow } from './support/markdown.js';
import { postJson, type RunningServer, runToExit, startServer } from './support/process.js';

/**
 * Every code block of each library's README runs as written, and so does each library's row of
 * the main README's client section: what a newcomer copies must work.
 *
 * A library opts in with `clients/<language>/run-snippet.sh <file>`, which runs one snippet (a
 * whole program in its language) with the library as its README says to depend on it, and exits
 * 0 when it ran cleanly (77: the toolchain is missing). Every block of its README whose info
 * string starts with the language's tag is written to a file and run, in order, against a
 * started service, with these in the environment, as the README tells a newcomer to set them:
 * CV_BASE_URL, CV_API_KEY (a test-mode key for every channel, so codes stay in the outbox) and
 * CV_ADMIN_TOKEN (the outbox helper reads codes with it); CV_SNIPPET_WORK is a scratch folder the
 * language's runs share (build caches). The first block is the quick start: it sends, reads the
 * code from the outbox and verifies, and prints the final status, `verified`.
 *
 * The main README shows each library in one line of a table, with `cv` already made; the row's
 * code replaces the line holding README_ROW in `clients/<language>/readme-row.<ext>` (a program
 * that makes `cv`, an address and, after the row's send, the code), which must print `verified`.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLIENTS = join(ROOT, 'clients');
const ADMIN = 'snippets-harness-admin-token-0123456789';
const MISSING_TOOLCHAIN = 77;

interface Language {
  /** The info-string tag of its README's code blocks. */
  tag: string;
  /** The file name a snippet is written to (some toolchains want a particular one). */
  file: string;
  /** Its name in the main README's client table. */
  title: string;
}
const LANGUAGES: Record<string, Language> = {
  typescript: { tag: 'ts', file: 'snippet.ts', title: 'TypeScript' },
  python: { tag: 'python', file: 'snippet.py', title: 'Python' },
  go: { tag: 'go', file: 'main.go', title: 'Go' },
  java: { tag: 'java', file: 'Snippet.java', title: 'Java' },
  ruby: { tag: 'ruby', file: 'snippet.rb', title: 'Ruby' },
  php: { tag: 'php', file: 'snippet.php', title: 'PHP' },
  csharp: { tag: 'csharp', file: 'Snippet.cs', title: 'C#' },
  rust: { tag: 'rust', file: 'main.rs', title: 'Rust' },
};
const languages = Object.keys(LANGUAGES).filter((l) => existsSync(join(CLIENTS, l, 'run-snippet.sh')));

describe('README snippets run as written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-snippets-'));
  let server: RunningServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    server = await startServer({
      DATABASE_URL: `sqlite:${join(dir, 'verify.db')}`,
      ADMIN_TOKEN: ADMIN,
      // The READMEs show an EMAIL send with a magic link, which needs a public URL to point at.
      PUBLIC_BASE_URL: 'https://verify.example.com',
    });
    const key = await postJson(
      `${server.url}/v1/admin/api-keys`,
      { name: 'snippets', channels: ['EMAIL', 'SMS', 'WHATSAPP', 'VOICE'], test: true },
      ADMIN,
    );
    expect(key.status).toBe(201);
    env = { ...process.env, CV_BASE_URL: server.url, CV_API_KEY: key.body.data.key, CV_ADMIN_TOKEN: ADMIN };
  }, 60_000);

  afterAll(() => {
    server?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs one snippet; skips the test (outside CI) when the language's toolchain is missing. */
  async function run(
    language: string,
    name: string,
    code: string,
    skip: (reason: string) => void,
  ): Promise<string> {
    const spec = LANGUAGES[language] as Language;
    const work = join(dir, language);
    const folder = join(work, name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, spec.file), code);
    const result = await runToExit(
      'bash',
      [join(CLIENTS, language, 'run-snippet.sh'), join(folder, spec.file)],
      {
        cwd: folder,
        env: { ...env, CV_SNIPPET_WORK: work },
      },
    );
    if (result.code === MISSING_TOOLCHAIN && process.env.CI !== 'true') {
      skip(`the ${language} toolchain is missing: ${result.output.trim().split('\n').pop()}`);
    }
    expect(result.code, `${name} of ${language}:\n${code}\n--- output ---\n${result.output}`).toBe(0);
    return result.output;
  }

  it('all eight languages of the API document run their README snippets', () => {
    expect([...languages].sort()).toEqual(Object.keys(LANGUAGES).sort());
  });

  it('every README installs from the checkout where clients/README.md puts it: ../contact-verify', () => {
    expect(readFileSync(join(CLIENTS, 'README.md'), 'utf8')).toContain(
      'from a checkout of this\nrepository at `../contact-verify`, next to your project',
    );
    const elsewhere: string[] = [];
    for (const language of Object.keys(LANGUAGES)) {
      const readme = readFileSync(join(CLIENTS, language, 'README.md'), 'utf8');
      // Each path into the checkout: what stands before `contact-verify/clients/`.
      const paths = [...readme.matchAll(/([^\s"'`(=:]*)contact-verify\/clients\//g)].map((m) => m[1]);
      expect(paths.length, `clients/${language}/README.md names the checkout`).toBeGreaterThan(0);
      for (const prefix of paths)
        if (prefix !== '../')
          elsewhere.push(`clients/${language}/README.md: ${prefix}contact-verify/clients/`);
    }
    expect(elsewhere).toEqual([]);
  });

  languages.forEach((language) => {
    const spec = LANGUAGES[language] as Language;
    // A first compile (Rust, Java, C#) takes minutes on a loaded two-core machine.
    it(`${language}: every ${spec.tag} block of its README`, { timeout: 900_000 }, async (context) => {
      const blocks = fencedBlocks(readFileSync(join(CLIENTS, language, 'README.md'), 'utf8')).filter(
        (b) => b.info.split(/\s+/)[0] === spec.tag,
      );
      expect(blocks.length, `clients/${language}/README.md has ${spec.tag} blocks`).toBeGreaterThan(0);
      for (const [i, block] of blocks.entries()) {
        const output = await run(language, `block-${i + 1}-line-${block.line}`, block.code, (reason) =>
          context.skip(reason),
        );
        if (i === 0) expect(output, 'the quick start prints the final status').toMatch(/\bverified\b/);
      }
    });

    it(`${language}: its row of the main README's client table`, { timeout: 900_000 }, async (context) => {
      const row = readmeRow(readFileSync(join(ROOT, 'README.md'), 'utf8'), spec.title);
      const template = readdirSync(join(CLIENTS, language)).find((f) => f.startsWith('readme-row.'));
      expect(template, `clients/${language}/readme-row.* exists`).toBeDefined();
      const text = readFileSync(join(CLIENTS, language, template as string), 'utf8');
      expect(text).toMatch(/README_ROW/);
      const program = text.replace(/^.*README_ROW.*$/m, row);
      const output = await run(language, 'readme-row', program, (reason) => context.skip(reason));
      expect(output).toMatch(/\bverified\b/);
    });
  });
});
