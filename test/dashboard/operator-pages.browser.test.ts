import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runToExit, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot } from './browser.js';

// What an operator looks for first, in a real browser against a started service: the limits in
// force and where each comes from, an API key's id and prefix.

const ADMIN_TOKEN = randomBytes(24).toString('base64url');

describe.skipIf(!chromiumAvailable())('dashboard: what an operator looks for first', () => {
  let dataDir: string;
  let server: RunningServer;
  let base: string;
  let browser: Browser;
  let accountId: string;

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
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
    dataDir = mkdtempSync(join(tmpdir(), 'cv-dashboard-operator-'));
    // Two deployment settings given by the environment; the rest keep their built-in defaults.
    server = await startServer({
      ADMIN_TOKEN,
      DATABASE_URL: `sqlite:${join(dataDir, 'verify.db')}`,
      CODE_TTL_SECONDS: '900',
      ALLOWED_COUNTRIES: 'US,GB,DE',
    });
    base = server.url;
    accountId = (await admin('POST', '/v1/admin/accounts', { name: 'Acme' })).body.data.id;
    expect((await admin('PATCH', `/v1/admin/accounts/${accountId}/settings`, { codeLength: 8 })).status).toBe(
      200,
    );
    browser = await launch(base);
    await browser.context.addInitScript(
      `localStorage.setItem('cv.dashboard.account', ${JSON.stringify(accountId)})`,
    );
    await page().goto(`${base}/dashboard/`);
    await page().getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page().getByRole('button', { name: 'Sign in' }).click();
    await page().getByRole('navigation', { name: 'Dashboard' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const limitRow = (name: string) => page().locator(`tr[data-limit="${name}"]`);
  const inForce = (name: string) => limitRow(name).getByTestId('in-force').textContent();
  const source = (name: string) => limitRow(name).getByTestId('source').textContent();

  it('Limits shows each value in force and where it comes from: default, environment, account', async () => {
    await go('settings');
    await expect.poll(() => inForce('codeLength')).toBe('8');
    expect(await source('codeLength')).toBe('accountdeployment: 6');
    expect(await inForce('codeTtlSeconds')).toBe('900');
    expect(await source('codeTtlSeconds')).toBe('environment CODE_TTL_SECONDS');
    expect(await inForce('maxAttempts')).toBe('5');
    expect(await source('maxAttempts')).toBe('default');
    expect(await inForce('riskThreshold')).toBe('off');
    expect(await inForce('pumpingMinConversion')).toBe('0.2');
    expect(await limitRow('maxAttempts').getByRole('spinbutton').getAttribute('placeholder')).toBe(
      '5 (1–20)',
    );
    expect(await page().getByTestId('countries-in-force').textContent()).toBe(
      'In force: DE, GB, US environment ALLOWED_COUNTRIES',
    );

    // An override saved on the page is in force at once, and the account is named as its source.
    await page().getByLabel('Resend cooldown (s)').fill('10');
    await page().getByLabel('Allowed countries for SMS and WhatsApp').fill('gb, fr');
    await page().getByRole('button', { name: 'Save settings' }).click();
    await page().getByText('Settings saved.').waitFor();
    await expect.poll(() => inForce('resendCooldownSeconds')).toBe('10');
    expect(await source('resendCooldownSeconds')).toBe('accountdeployment: 30');
    await expect
      .poll(() => page().getByTestId('countries-in-force').textContent())
      .toBe('In force: GB account (deployment: DE, GB, US)');
    await screenshot(page(), 'limits-in-force');
  });

  it('API keys shows each key id beside its prefix', async () => {
    const created = (
      await admin('POST', '/v1/admin/api-keys', { name: 'backend', channels: ['EMAIL'], accountId })
    ).body.data;
    await go('keys');
    const row = page().locator(`tr[data-key-id="${created.id}"]`);
    await expect.poll(() => row.getByTestId('key-id').textContent()).toBe(created.id);
    expect(await row.getByTestId('key-prefix').textContent()).toBe(`${created.prefix}…`);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    // The secret itself is never listed.
    expect(await page().locator('main').textContent()).not.toContain(created.key);
    await screenshot(page(), 'keys-id-prefix');
  });

  it('reported no CSP violation, page error, console error or dialog', () => {
    expect(browser.watch.cspViolations).toEqual([]);
    expect(browser.watch.pageErrors).toEqual([]);
    expect(browser.watch.consoleErrors).toEqual([]);
    expect(browser.watch.dialogs).toEqual([]);
  });
});
