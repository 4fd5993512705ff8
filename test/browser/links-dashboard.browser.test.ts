import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSmtp, startFakeSmtp } from '../delivery/support/fake-smtp.js';
import { type RunningServer, runToExit, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot, serviceApi, signIn } from './browser.js';

// Magic links in the dashboard, in a real browser against a started service: the conversion of
// link emails beside code-only sends (Overview, grouped by method), the link of a request in a
// contact's history, and the account's redirect origins on Settings. Screenshots go to
// test-output/dashboard/links-dashboard-*.png.

const ADMIN_TOKEN = randomBytes(24).toString('base64url');

describe.skipIf(!chromiumAvailable())('dashboard: magic links', () => {
  let smtp: FakeSmtp;
  let server: RunningServer;
  let base: string;
  let browser: Browser;
  let key: string;
  const admin = serviceApi(() => base, ADMIN_TOKEN);
  const send = (body: Record<string, unknown>) =>
    serviceApi(() => base, key)('POST', '/v1/contact/send-code', body);
  const page = () => browser.page;
  let loads = 0;
  const go = async (route: string) => {
    await page().goto(`${base}/dashboard/?load=${++loads}#/${route}`);
    await page().getByRole('heading', { level: 1 }).first().waitFor();
  };

  beforeAll(async () => {
    const built = await runToExit(process.execPath, ['scripts/ensure-built.mjs'], { env: process.env });
    expect(built.code, built.output).toBe(0);
    smtp = await startFakeSmtp();
    server = await startServer({
      ADMIN_TOKEN,
      DATABASE_URL: 'sqlite::memory:',
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'codes@acme.test',
      PUBLIC_BASE_URL: 'https://verify.example.test',
    });
    base = server.url;
    key = (await admin('POST', '/v1/admin/api-keys', { name: 'backend', channels: ['EMAIL'] })).body.data.key;
    expect(
      (
        await admin('PATCH', '/v1/admin/accounts/acc_default/settings', {
          linkRedirectOrigins: ['https://app.example.com'],
        })
      ).status,
    ).toBe(200);
    // Two link emails (one used), two code-only sends (neither verified).
    for (const email of ['ada@example.com', 'alan@example.com'])
      expect((await send({ channel: 'EMAIL', email, link: {} })).status).toBe(200);
    for (const email of ['bob@example.com', 'eve@example.com'])
      expect((await send({ channel: 'EMAIL', email })).status).toBe(200);
    const text = [...smtp.mails].find((m) => m.envelopeTo.includes('ada@example.com'))?.mail.text ?? '';
    const token = /\/v1\/links\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
    expect((await fetch(`${base}/v1/links/${token}`, { method: 'POST' })).status).toBe(200);
    browser = await launch(base);
    await signIn(page(), base, ADMIN_TOKEN);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    await smtp?.close();
  });

  it('Overview grouped by method: the conversion of link emails beside code-only sends', async () => {
    await go('');
    await page().getByLabel('Group by').selectOption('method');
    const table = page().getByRole('table').last();
    const row = (group: string) =>
      table.getByRole('row').filter({ has: page().getByRole('cell', { name: group, exact: true }) });
    await row('link').waitFor();
    expect(await row('link').getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['link', '2', '1', '50.0 %']),
    );
    expect(await row('code').getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['code', '2', '0']),
    );
    await screenshot(page(), 'links-dashboard-overview');
  });

  it("a contact's history marks the request sent with a magic link", async () => {
    const contact = (await admin('GET', '/v1/admin/contacts?accountId=acc_default&q=ada@example.com')).body
      .data[0];
    await go(`contacts/${contact.id}`);
    await page().getByTestId('history-link').first().waitFor();
    expect(await page().getByTestId('history-link').count()).toBe(1);
    await screenshot(page(), 'links-dashboard-history');
    const other = (await admin('GET', '/v1/admin/contacts?accountId=acc_default&q=bob@example.com')).body
      .data[0];
    await go(`contacts/${other.id}`);
    await page().getByRole('heading', { name: 'bob@example.com' }).waitFor();
    expect(await page().getByTestId('history-link').count()).toBe(0);
  });

  it('Settings shows the redirect origins in force, and saves new ones', async () => {
    await go('settings');
    expect(await page().getByTestId('link-origins-in-force').textContent()).toContain(
      'https://app.example.com',
    );
    await page()
      .getByLabel('Redirect origins of magic links')
      .fill('https://app.example.com, http://localhost:3000');
    await page().getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(
        async () => (await admin('GET', '/v1/admin/accounts/acc_default/limits')).body.data.links[0].value,
      )
      .toEqual(['https://app.example.com', 'http://localhost:3000']);
  });

  it('reported no CSP violation, page error, console error or dialog', () => {
    expect(browser.watch.cspViolations).toEqual([]);
    expect(browser.watch.pageErrors).toEqual([]);
    expect(browser.watch.consoleErrors).toEqual([]);
    expect(browser.watch.dialogs).toEqual([]);
  });
});
