import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runToExit, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot, serviceApi, signIn } from './browser.js';

// A request's detail in the dashboard (the outbox's message of a request, and a contact's
// history) says how and when it was verified, in a real browser against a started service. Of
// a dual pair verified by one code, the request whose code matched is the verified one; the
// other says canceled, with no verification, as the API's resource does.

const ADMIN_TOKEN = randomBytes(24).toString('base64url');

describe.skipIf(!chromiumAvailable())('dashboard: how and when a request was verified', () => {
  let dataDir: string;
  let server: RunningServer;
  let base: string;
  let browser: Browser;
  let accountId: string;
  let key: string;

  const call = (method: string, path: string, token: string, body?: unknown) =>
    serviceApi(() => base, token)(method, path, body);
  const codeOf = async (to: string) => {
    const { body } = await call(
      'GET',
      `/v1/admin/outbox?accountId=${accountId}&to=${encodeURIComponent(to)}&limit=1`,
      ADMIN_TOKEN,
    );
    return /\b(\d{4,10})\b/.exec(body.data[0].text)?.[1] as string;
  };
  const page = () => browser.page;
  let loads = 0;
  const go = async (route: string) => {
    await page().goto(`${base}/dashboard/?load=${++loads}#/${route}`);
    await page().getByRole('heading', { level: 1 }).first().waitFor();
  };

  beforeAll(async () => {
    const built = await runToExit(process.execPath, ['scripts/ensure-built.mjs'], { env: process.env });
    expect(built.code, built.output).toBe(0);
    dataDir = mkdtempSync(join(tmpdir(), 'cv-dashboard-verified-'));
    server = await startServer({ ADMIN_TOKEN, DATABASE_URL: `sqlite:${join(dataDir, 'verify.db')}` });
    base = server.url;
    accountId = (await call('POST', '/v1/admin/accounts', ADMIN_TOKEN, { name: 'Verified Co' })).body.data.id;
    key = (
      await call('POST', '/v1/admin/api-keys', ADMIN_TOKEN, {
        name: 'backend',
        channels: ['EMAIL', 'SMS'],
        accountId,
      })
    ).body.data.key;
    browser = await launch(base, { locale: 'en-GB', timezoneId: 'UTC' });
    await signIn(page(), base, ADMIN_TOKEN);
    await page().getByLabel('Account', { exact: true }).selectOption(accountId);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('the message of a verified request says by what and when; its dual sibling says canceled', async () => {
    const sent = await call('POST', '/v1/contact/send-code', key, {
      channels: ['EMAIL', 'SMS'],
      email: 'shown@example.com',
      phone: '+14155550177',
    });
    expect(sent.status).toBe(200);
    const [email, sms] = (sent.body.data as Array<{ requestId: string }>).map((d) => d.requestId);
    // The email's code, presented on the SMS request's id.
    const verified = await call('POST', '/v1/contact/verify-code', key, {
      requestId: sms,
      code: await codeOf('shown@example.com'),
    });
    expect(verified.body.data).toMatchObject({ verified: true, requestId: email });
    const resource = (await call('GET', `/v1/contact/verifications/${email}`, key)).body.data;

    await go(`outbox/${email}`);
    const message = page().getByTestId('outbox-message');
    await expect.poll(() => message.getAttribute('data-request-id')).toBe(email);
    expect(await message.getByTestId('message-status').textContent()).toBe('verified');
    const line = message.getByTestId('message-verified');
    expect(await line.textContent()).toContain('Verified by code');
    expect(await line.locator('time').getAttribute('title')).toBe(resource.verifiedAt);
    await screenshot(page(), 'outbox-verified-request');

    await go(`outbox/${sms}`);
    await expect.poll(() => message.getAttribute('data-request-id')).toBe(sms);
    expect(await message.getByTestId('message-status').textContent()).toBe('canceled');
    expect(await message.getByTestId('message-verified').count()).toBe(0);
  });

  it("a contact's history says how each request was verified", async () => {
    const to = 'history@example.com';
    const sent = await call('POST', '/v1/contact/send-code', key, { channel: 'EMAIL', email: to });
    await call('POST', '/v1/contact/verify-code', key, {
      requestId: sent.body.data.requestId,
      code: await codeOf(to),
    });
    const contact = (await call('GET', `/v1/admin/contacts?accountId=${accountId}&q=${to}`, ADMIN_TOKEN)).body
      .data[0];
    await go(`contacts/${contact.id}`);
    await page().getByRole('heading', { name: to }).waitFor();
    await expect
      .poll(() => page().getByTestId('history-verified').first().textContent())
      .toContain('by code');
  });
});
