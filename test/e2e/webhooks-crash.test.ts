import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeStatements } from '../support/changes.js';
import { postJson, type RunningServer, startServer } from '../support/process.js';
import { waitFor } from '../support/wait.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const ADMIN = 'webhooks-crash-admin-token-of-32-chars';

/** kill -9 of the service process loses no webhook: the queue is in the database. */
describe('webhooks across a kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-webhooks-crash-'));
  const path = join(dir, 'verify.db');
  const env = {
    DATABASE_URL: `sqlite:${path}`,
    ADMIN_TOKEN: ADMIN,
    CODE_SECRET: 'webhooks-crash-code-secret',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.1,0.1,0.1',
  };
  const servers: RunningServer[] = [];
  const receiver = new WebhookReceiver();
  let receiverUrl = '';
  beforeAll(async () => {
    receiverUrl = await receiver.listen();
  });
  // Each test starts from no running process and an empty receiver, whatever the last one left.
  afterEach(async () => {
    for (const s of servers.splice(0)) await kill(s);
    receiver.received.length = 0;
  });
  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });
  async function start(extra: Record<string, string>) {
    const server = await startServer({ ...env, ...extra });
    servers.push(server);
    return server;
  }
  async function kill(server: RunningServer) {
    server.child.kill('SIGKILL');
    await server.exited;
  }

  it('delivers the event of a send whose process was killed before any delivery', async () => {
    // The first process never folds nor runs its worker: the send's change waits in the log.
    const a = await start({ WEBHOOK_POLL_INTERVAL_MS: '3600000', FOLD_INTERVAL_MS: '3600000' });
    const created = await postJson(
      `${a.url}/v1/admin/webhooks`,
      { url: receiverUrl, events: ['verification.created'] },
      ADMIN,
    );
    receiver.secret = created.body.data.secret;
    const key = await postJson(`${a.url}/v1/admin/api-keys`, { name: 'crash', channels: ['EMAIL'] }, ADMIN);
    const sent = await postJson(
      `${a.url}/v1/contact/send-code`,
      { channel: 'EMAIL', email: 'crash-journal@example.com' },
      key.body.data.key,
    );
    expect(sent.status).toBe(200);
    await kill(a);
    expect(receiver.received).toHaveLength(0);

    // A generous attempt timeout: on a loaded machine the receiver may answer after the default
    // of this file (1 s), and a timed-out attempt is rightly sent again (at least once).
    const b = await start({ WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '20000' });
    const [hit] = await receiver.waitFor(1);
    expect(hit?.verifyError).toBeNull();
    expect(hit?.verified?.type).toBe('verification.created');
    expect(hit?.verified?.data.requestId).toBe(sent.body.data.requestId);
    // Once b has recorded the success nothing will send it again: then exactly one arrived.
    const listed = `${b.url}/v1/admin/webhooks/${created.body.data.id}/deliveries`;
    await waitFor(
      async () => {
        const res = await fetch(listed, { headers: { authorization: `Bearer ${ADMIN}` } });
        const { data } = (await res.json()) as { data: Array<{ status: string }> };
        return data.length > 0 && data.every((d) => d.status === 'succeeded');
      },
      { what: 'the delivery recorded as succeeded' },
    );
    expect(receiver.received).toHaveLength(1);
    await kill(b);
    receiver.received.length = 0;
  });

  it('sends again, with the same webhook-id, a delivery whose process died mid-attempt', async () => {
    const a = await start({ WEBHOOK_POLL_INTERVAL_MS: '50' });
    const created = await postJson(
      `${a.url}/v1/admin/webhooks`,
      { url: receiverUrl, events: ['verification.verified'] },
      ADMIN,
    );
    expect(created.status).toBe(201);
    receiver.secret = created.body.data.secret;
    // The first request hangs: the process is killed while it holds the delivery's lease.
    receiver.answers = [0];
    const db = new BetterSqlite3(path);
    const { statements, subjectId } = changeStatements(
      { type: 'verification.verified', status: 'verified' },
      'sqlite',
    );
    for (const { sql, params } of statements) db.prepare(sql).run(...params);
    db.close();
    await receiver.waitFor(1);
    await kill(a);

    await start({ WEBHOOK_POLL_INTERVAL_MS: '50' });
    const [first, second] = await receiver.waitFor(2, 20_000);
    expect(second?.answered).toBe(200);
    expect(second?.verifyError).toBeNull();
    expect(first?.verified?.data.requestId).toBe(subjectId);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
  });
});
