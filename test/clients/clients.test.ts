import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, type RunningServer, runToExit, startServer } from '../support/process.js';

/**
 * Every client library runs clients/scenario.json against the real service, in its own language:
 * each `clients/<language>/scenario.sh` builds its library and runs the scenario. A script exits
 * 77 when its toolchain is missing: skipped with one line, except under CI=true.
 */
const CLIENTS = fileURLToPath(new URL('../../clients/', import.meta.url));
const ADMIN = 'clients-harness-admin-token-0123456789';
const languages = readdirSync(CLIENTS).filter((name) => existsSync(join(CLIENTS, name, 'scenario.sh')));
const MISSING_TOOLCHAIN = 77;

/**
 * Answers the first request under each `/<language>` prefix with 503 and later ones as the
 * service's /health does: every library must retry the 503 once, and only once.
 */
function startStub(target: string): Promise<{ server: Server; url: string; seen: Map<string, number> }> {
  const seen = new Map<string, number>();
  const server = createServer(async (req, res) => {
    const prefix = (req.url ?? '/').split('/')[1] ?? '';
    const count = (seen.get(prefix) ?? 0) + 1;
    seen.set(prefix, count);
    if (count === 1) {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'The stub answers 503 once.' } }));
      return;
    }
    const health = await fetch(`${target}/health`);
    res.writeHead(health.status, { 'content-type': 'application/json' });
    res.end(await health.text());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

describe('client libraries against the running service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-clients-'));
  let server: RunningServer;
  let stub: Awaited<ReturnType<typeof startStub>>;
  let apiKey: string;

  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'verify.db')}`, ADMIN_TOKEN: ADMIN });
    const key = await postJson(
      `${server.url}/v1/admin/api-keys`,
      { name: 'clients', channels: ['EMAIL', 'SMS'] },
      ADMIN,
    );
    expect(key.status).toBe(201);
    apiKey = key.body.data.key;
    stub = await startStub(server.url);
  }, 60_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    stub?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds a scenario script for each of the eight languages of the API document', () => {
    expect([...languages].sort()).toEqual([
      'csharp',
      'go',
      'java',
      'php',
      'python',
      'ruby',
      'rust',
      'typescript',
    ]);
  });

  languages.forEach((language, i) => {
    // A first compile (Rust, Java, C#) takes minutes on a loaded two-core machine.
    it(`${language}: the scenario passes`, { timeout: 900_000 }, async (context) => {
      const result = await runToExit('bash', [join(CLIENTS, language, 'scenario.sh')], {
        env: {
          ...process.env,
          CV_BASE_URL: server.url,
          CV_API_KEY: apiKey,
          CV_ADMIN_TOKEN: ADMIN,
          CV_STUB_URL: `${stub.url}/${language}`,
          CV_SCENARIO: join(CLIENTS, 'scenario.json'),
          CV_RUN_ID: String(1000 + i * 111),
        },
      });
      if (result.code === MISSING_TOOLCHAIN && process.env.CI !== 'true') {
        console.log(`skipped ${language}: ${result.output.trim().split('\n').pop()}`);
        context.skip();
      }
      expect(result.code, result.output).toBe(0);
      expect(stub.seen.get(language), 'the stub saw the 503 and exactly one retry').toBe(2);
    });
  });
});
