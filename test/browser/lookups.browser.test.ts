import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runToExit, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot, serviceApi, signIn } from './browser.js';

// Carrier lookups in a real browser against a started service: an operator turns them on from the
// settings page alone, and a phone contact's page shows its line type, carrier and SIM change
// (a test key's, answered by the test numbers: no provider is needed).

const ADMIN_TOKEN = randomBytes(24).toString('base64url');

describe.skipIf(!chromiumAvailable())('dashboard: carrier lookups', () => {
  let dataDir: string;
  let server: RunningServer;
  let base: string;
  let browser: Browser;
  let accountId: string;

  const admin = serviceApi(() => base, ADMIN_TOKEN);
  const sendSms = (key: string, phone: string) =>
    serviceApi(() => base, key)('POST', '/v1/contact/send-code', { channel: 'SMS', phone });
  const page = () => browser.page;
  let loads = 0;
  const go = async (route: string) => {
    await page().goto(`${base}/dashboard/?load=${++loads}#/${route}`);
    await page().getByRole('heading', { level: 1 }).first().waitFor();
  };

  beforeAll(async () => {
    const built = await runToExit(process.execPath, ['scripts/ensure-built.mjs'], { env: process.env });
    expect(built.code, built.output).toBe(0);
    dataDir = mkdtempSync(join(tmpdir(), 'cv-dashboard-lookups-'));
    server = await startServer({ ADMIN_TOKEN, DATABASE_URL: `sqlite:${join(dataDir, 'verify.db')}` });
    base = server.url;
    accountId = (await admin('POST', '/v1/admin/accounts', { name: 'Lookups' })).body.data.id;
    browser = await launch(base);
    await browser.context.addInitScript(
      `localStorage.setItem('cv.dashboard.account', ${JSON.stringify(accountId)}); localStorage.setItem('cv.dashboard.mode', 'test');`,
    );
    await signIn(page(), base, ADMIN_TOKEN);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const row = (name: string) => page().locator(`tr[data-setting="${name}"]`);

  it('the settings page turns lookups on and sets their rules', async () => {
    await go('settings');
    await expect.poll(() => row('lookup').getByTestId('in-force').textContent()).toBe('off');
    await page().getByLabel('Look numbers up').selectOption('sms_voice');
    await row('refuseLineTypes').getByLabel('voip').check();
    await row('refuseLineTypes').getByLabel('premium').check();
    await page().getByLabel('SIM change window (h)').fill('24');
    await page().getByLabel('On a recent SIM change').selectOption('refuse');
    await page().getByLabel('Refuse when a lookup fails').check();
    await page().getByRole('button', { name: 'Save settings' }).click();
    await page().getByText('Settings saved.').waitFor();
    await expect.poll(() => row('lookup').getByTestId('in-force').textContent()).toBe('SMS and VOICE');
    expect(await row('lookup').getByTestId('source').textContent()).toBe('account');
    expect(await row('refuseLineTypes').getByTestId('in-force').textContent()).toBe('voip, premium');
    const settings = (await admin('GET', `/v1/admin/accounts/${accountId}`)).body.data.settings;
    expect(settings).toMatchObject({
      lookup: 'sms_voice',
      refuseLineTypes: ['voip', 'premium'],
      simSwapHours: 24,
      simSwapAction: 'refuse',
      lookupFailClosed: true,
    });
    await screenshot(page(), 'lookup-settings');

    // Emptied, the window goes back to off.
    await page().getByLabel('SIM change window (h)').fill('');
    await page().getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => row('simSwapHours').getByTestId('in-force').textContent()).toBe('off');
  });

  it("the contact page shows a phone contact's line type, carrier and SIM change", async () => {
    const key = (
      await admin('POST', '/v1/admin/api-keys', { name: 'test', channels: ['SMS'], accountId, test: true })
    ).body.data.key as string;
    const res = await sendSms(key, '+447700900011');
    expect(res.status).toBe(200);
    const contact = (await admin('GET', `/v1/admin/contacts?accountId=${accountId}&q=%2B447700900011`)).body
      .data[0];
    await go(`contacts/${contact.id}`);
    const card = page().getByTestId('carrier');
    await card.waitFor();
    expect(await page().getByTestId('line-type').textContent()).toBe('mobile');
    expect(await page().getByTestId('carrier-name').textContent()).toContain('Contact Verify Test Mobile');
    expect(await page().getByTestId('sim-change').textContent()).toContain('3 days ago');
    await screenshot(page(), 'contact-carrier');
  });

  it('the overview counts the carrier lookup refusals by reason', async () => {
    const key = (
      await admin('POST', '/v1/admin/api-keys', { name: 'refused', channels: ['SMS'], accountId, test: true })
    ).body.data.key as string;
    // voip is refused (refuseLineTypes), and the SIM of +447700900010 changed 2 hours ago (simSwapAction refuse).
    await admin('PATCH', `/v1/admin/accounts/${accountId}/settings`, { simSwapHours: 24 });
    for (const [phone, status] of [
      ['+447700900001', 400],
      ['+447700900010', 403],
    ] as const) {
      const res = await sendSms(key, phone);
      expect(res.status).toBe(status);
    }
    await go('overview');
    await expect.poll(() => page().getByTestId('kpi-lookup').textContent()).toContain('2');
    expect(await page().getByTestId('lookup-refusals').textContent()).toBe(
      'Carrier lookup refusals by reason: line_type 1 · sim_swap 1',
    );
  });
});
