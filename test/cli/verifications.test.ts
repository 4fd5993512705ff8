import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';

/**
 * `verifications get|cancel` on the store the service wrote, on each backend. The service runs
 * only between CLI calls: in one process, the CLI's synchronous SQLite open would wait on the
 * service's group commit, which waits for the event loop (another process waits its turn).
 */
function cliSuite(name: string, databaseUrl: () => Promise<string>, cleanup: () => Promise<void>) {
  describe(`CLI verifications (${name})`, () => {
    let env: Record<string, string>;
    let key: string;
    let testKey: string;
    const withService = async <T>(work: (svc: TestService) => Promise<T>): Promise<T> => {
      const svc = await startTestService(env);
      try {
        return await work(svc);
      } finally {
        await svc.close();
      }
    };
    beforeAll(async () => {
      env = { DATABASE_URL: await databaseUrl() };
      [key, testKey] = await withService(async (svc) => [
        await svc.createKey(),
        await svc.createKey({ test: true }),
      ]);
    });
    afterAll(cleanup);
    const cli = (...args: string[]) => runCli(args, env);
    const json = async (...args: string[]) => {
      const res = await cli(...args, '--json');
      expect(res.code, res.output).toBe(0);
      return JSON.parse(res.output);
    };
    const readApi = (id: string, k = key) =>
      withService(async (svc) => (await svc.get(`/v1/contact/verifications/${id}`, k)).body.data);

    it('reads a request as the API shows it, and cancels it with its dual sibling', async () => {
      const [email, sms] = await withService(
        async (svc) =>
          (
            await svc.post(
              '/v1/contact/send-code',
              { channels: ['EMAIL', 'SMS'], email: `cli-${name}@example.com`, phone: '+14155550142' },
              key,
            )
          ).body.data,
      );
      const read = await json('verifications', 'get', email.requestId);
      expect(read).toEqual(await readApi(email.requestId));
      expect(read).toMatchObject({ status: 'pending', siblingRequestId: sms.requestId });
      expect((await cli('verifications', 'get', email.requestId)).output).toMatch(
        new RegExp(`^${email.requestId}\\tEMAIL\\tpending\\t`),
      );

      const canceled = await json('verifications', 'cancel', sms.requestId.toUpperCase());
      expect(canceled).toMatchObject({ requestId: sms.requestId, status: 'canceled' });
      expect((await json('verifications', 'get', email.requestId)).status).toBe('canceled');
      // The API sees what the CLI did; a second cancel answers the same.
      expect((await readApi(email.requestId)).status).toBe('canceled');
      expect(await json('verifications', 'cancel', sms.requestId)).toEqual(canceled);
    });

    it('reads a verified request with its method, and finds a test request only with --test', async () => {
      const to = `cli-test-${name}@example.com`;
      const requestId = await withService(async (svc) => {
        const sent = (await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: to }, testKey)).body
          .data;
        const code = await svc.lastCode(to);
        await svc.post('/v1/contact/verify-code', { requestId: sent.requestId, code }, testKey);
        return sent.requestId as string;
      });
      const missing = await cli('verifications', 'get', requestId);
      expect(missing.code).toBe(1);
      expect(missing.output).toMatch(/--test/);
      expect(await json('verifications', 'get', requestId, '--test')).toMatchObject({
        status: 'verified',
        method: 'code',
      });
      expect((await cli('verifications', 'get', requestId, '--test')).output).toMatch(/verified .* by code/);
    });

    it('names the account it looks in, and refuses what is not a request id', async () => {
      const { accountId, requestId } = await withService(async (svc) => {
        const account = await svc.post('/v1/admin/accounts', { name: `CLI ${name}` }, ADMIN_TOKEN);
        const own = await svc.createKey({ accountId: account.body.data.id });
        const sent = await svc.post('/v1/contact/send-code', { channel: 'SMS', phone: '+14155550143' }, own);
        return { accountId: account.body.data.id as string, requestId: sent.body.data.requestId as string };
      });
      expect((await cli('verifications', 'get', requestId)).code).toBe(1);
      expect(await json('verifications', 'get', requestId, '--account', accountId)).toMatchObject({
        channel: 'SMS',
      });
      for (const bad of [[], ['nope'], ['a'.repeat(500)]]) {
        const res = await cli('verifications', 'get', ...bad);
        expect(res.code).toBe(2);
        expect(res.output).toMatch(/request id/);
      }
      expect((await cli('verifications', 'cancel', '0190a7c2-5b1e-7c3d-9f00-2b4b4c119497')).code).toBe(1);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cv-cli-verifications-'));
cliSuite(
  'SQLite',
  async () => `sqlite:${join(dir, 'cli.db')}`,
  async () => rmSync(dir, { recursive: true, force: true }),
);

let db: TestDatabase | undefined;
describe.runIf(hasPostgres)('on PostgreSQL', () => {
  cliSuite(
    'PostgreSQL',
    async () => {
      db = await createTestDatabase();
      return db.url;
    },
    async () => db?.drop(),
  );
});
