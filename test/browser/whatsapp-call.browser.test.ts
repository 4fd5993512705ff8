import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeCalling, startFakeCalling } from '../delivery/support/fake-whatsapp-calling.js';
import { type RunningServer, runToExit, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot, serviceApi, signIn } from './browser.js';

const ADMIN_TOKEN = randomBytes(24).toString('base64url');
const APP_SECRET = 'app-secret';

/**
 * The dashboard shows a WhatsApp call's state on the request (a contact's history): one waiting
 * for the user's permission, one the user refused, with its reason.
 */
describe.skipIf(!chromiumAvailable())('a WhatsApp call on the dashboard', () => {
  let dataDir: string;
  let server: RunningServer;
  let fake: FakeCalling;
  let browser: Browser;
  const fakeOptions = { appSecret: APP_SECRET, webhookUrl: 'http://127.0.0.1:9/unset' };

  beforeAll(async () => {
    const built = await runToExit(process.execPath, ['scripts/ensure-built.mjs'], { env: process.env });
    expect(built.code, built.output).toBe(0);
    dataDir = mkdtempSync(join(tmpdir(), 'cv-wacall-dash-'));
    fake = await startFakeCalling(fakeOptions);
    server = await startServer({
      ADMIN_TOKEN,
      DATABASE_URL: `sqlite:${join(dataDir, 'verify.db')}`,
      WHATSAPP_TOKEN: 'EAAGtoken',
      WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
      WHATSAPP_TEMPLATE: 'verify_code',
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_BASE_URL: fake.url,
      WEBRTC_ANNOUNCED_ADDRESSES: '127.0.0.1',
    });
    fakeOptions.webhookUrl = `${server.url}/v1/callbacks/whatsapp`;
    browser = await launch(server.url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    await fake?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("shows each call's delivery state and the reason it was not delivered", async () => {
    const created = await serviceApi(() => server.url, ADMIN_TOKEN)('POST', '/v1/admin/api-keys', {
      name: 'calls',
      channels: ['WHATSAPP'],
    });
    const key = created.body.data.key as string;
    fake.addUser('14155550140', { onPermissionRequest: 'reject' });
    fake.addUser('14155550141', { onPermissionRequest: 'ignore' });
    for (const phone of ['+14155550140', '+14155550141']) {
      const res = await serviceApi(() => server.url, key)('POST', '/v1/contact/send-code', {
        channel: 'WHATSAPP',
        phone,
        deliveryType: 'CALL',
      });
      expect(res.status).toBe(200);
    }
    const page = browser.page;
    await signIn(page, server.url, ADMIN_TOKEN);

    const historyOf = async (phone: string) => {
      // The contact appears once the fold has run; the delivery state is read from the request.
      await expect
        .poll(
          async () => {
            await page.goto(`${server.url}/dashboard/?q=${Date.now()}#/contacts`);
            await page.getByLabel('Destination', { exact: true }).fill(phone);
            await page.getByRole('button', { name: 'Search' }).click();
            return page.getByRole('link', { name: phone }).count();
          },
          { timeout: 30_000 },
        )
        .toBe(1);
      await page.getByRole('link', { name: phone }).click();
      await page.getByRole('heading', { name: phone }).waitFor();
      return page.getByTestId('history-delivery').first().textContent();
    };
    await expect
      .poll(() => historyOf('+14155550140'), { timeout: 60_000 })
      .toMatch(/^undelivered via whatsapp-call \(permission_rejected: /);
    await screenshot(page, 'whatsapp-call-undelivered');
    await expect
      .poll(() => historyOf('+14155550141'), { timeout: 60_000 })
      .toBe('awaiting permission via whatsapp-call');
  }, 180_000);
});
