import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, type RunningServer, runToExit, startServer } from '../support/process.js';
import { type LossyStub, startLossyStub } from './lossy-stub.js';

/**
 * Every client library runs clients/scenario.json against the real service, in its own language:
 * each `clients/<language>/scenario.sh` builds its library and runs the scenario. A script exits
 * 77 when its toolchain is missing: skipped with one line, except under CI=true.
 */
const CLIENTS = fileURLToPath(new URL('../../clients/', import.meta.url));
const ADMIN = 'clients-harness-admin-token-0123456789';
const languages = readdirSync(CLIENTS).filter((name) => existsSync(join(CLIENTS, name, 'scenario.sh')));
const MISSING_TOOLCHAIN = 77;
const scenario = JSON.parse(readFileSync(join(CLIENTS, 'scenario.json'), 'utf8')) as {
  vars: Record<string, string>;
};

describe('client libraries against the running service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-clients-'));
  let server: RunningServer;
  let stub: LossyStub;
  let apiKey: string;
  let testApiKey: string;

  beforeAll(async () => {
    server = await startServer({
      DATABASE_URL: `sqlite:${join(dir, 'verify.db')}`,
      ADMIN_TOKEN: ADMIN,
      // Magic links need a public URL to point at (send-code refuses `link` without it); the
      // scenario sends one and never opens it.
      PUBLIC_BASE_URL: 'https://verify.example.com',
    });
    const key = await postJson(
      `${server.url}/v1/admin/api-keys`,
      { name: 'clients', channels: ['EMAIL', 'SMS'] },
      ADMIN,
    );
    expect(key.status).toBe(201);
    apiKey = key.body.data.key;
    const testKey = await postJson(
      `${server.url}/v1/admin/api-keys`,
      { name: 'clients-test-mode', channels: ['EMAIL', 'SMS', 'VOICE', 'SILENT'], test: true },
      ADMIN,
    );
    expect(testKey.status).toBe(201);
    testApiKey = testKey.body.data.key;
    stub = await startLossyStub(server.url);
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
      const runId = String(1000 + i * 111);
      const result = await runToExit('bash', [join(CLIENTS, language, 'scenario.sh')], {
        env: {
          ...process.env,
          CV_BASE_URL: server.url,
          CV_API_KEY: apiKey,
          CV_TEST_API_KEY: testApiKey,
          CV_ADMIN_TOKEN: ADMIN,
          CV_STUB_URL: `${stub.url}/${language}`,
          CV_SCENARIO: join(CLIENTS, 'scenario.json'),
          CV_RUN_ID: runId,
        },
      });
      if (result.code === MISSING_TOOLCHAIN && process.env.CI !== 'true') {
        context.skip(`the ${language} toolchain is missing: ${result.output.trim().split('\n').pop()}`);
      }
      expect(result.code, result.output).toBe(0);

      // Each lost answer was retried once, and only once; neither TOO_MANY_ATTEMPTS nor a
      // RATE_LIMITED whose Retry-After is over 10 s was retried.
      const log = stub.log(language);
      expect(Object.fromEntries(log.requests), 'requests the stub saw, per path').toEqual({
        '/health': 2,
        '/v1/contact/send-code': 3,
        '/v1/contact/verify-code': 2,
      });
      // The retried send carried the first attempt's Idempotency-Key, so the service replayed it;
      // the next send (refused by the cooldown, not retried) had a key of its own.
      const [first, second, third] = log.sendKeys;
      expect(first, 'a random UUID as Idempotency-Key').toMatch(
        /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i,
      );
      expect(second, 'the same Idempotency-Key on the retry').toBe(first);
      expect(third, 'a new Idempotency-Key for a new send').not.toBe(first);
      expect(log.sendReplayed).toEqual([false, true, false]);
      const to = (scenario.vars.stubEmail ?? '').replace('{lang}', language).replace('{runId}', runId);
      const outbox = await fetch(`${server.url}/v1/admin/outbox?to=${encodeURIComponent(to)}`, {
        headers: { authorization: `Bearer ${ADMIN}` },
      });
      expect(((await outbox.json()) as { data: unknown[] }).data, `one code sent to ${to}`).toHaveLength(1);
    });
  });
});
