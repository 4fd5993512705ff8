import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProviderFake, startProviderFake } from '../lookup/support/provider-fakes.js';
import { type RunningServer, runToExit, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot, serviceApi } from './browser.js';

// The operator dashboard in a real browser against the real service (a started process on SQLite):
// sign-in, the numbers of the overview, a contact's profile and block, keys, branding and its
// preview, untrusted strings rendered as text, CSRF, and the page's CSP.

const ADMIN_TOKEN = randomBytes(24).toString('base64url');
const XSS_PURPOSE = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
const XSS_MESSAGE = '<img src=x onerror="window.__xss=3"> from <b>ops</b>';

describe.skipIf(!chromiumAvailable())('dashboard in a browser', () => {
  let dataDir: string;
  let server: RunningServer;
  let lookups: ProviderFake;
  let base: string;
  let browser: Browser;
  let accountId: string;
  let apiKey: string;

  const admin = serviceApi(() => base, ADMIN_TOKEN);
  const send = (key: string, body: Record<string, unknown>) =>
    serviceApi(() => base, key)('POST', '/v1/contact/send-code', body);
  const verify = async (requestId: string, code: string) =>
    (await serviceApi(() => base, apiKey)('POST', '/v1/contact/verify-code', { requestId, code })).body;
  /** The code of the newest outbox message to `to` (what a recipient would read). */
  const codeFor = async (to: string) => {
    const { body } = await admin(
      'GET',
      `/v1/admin/outbox?accountId=${accountId}&to=${encodeURIComponent(to)}&limit=1`,
    );
    return /\b(\d{6})\b/.exec(body.data[0].text)![1]!;
  };
  const page = () => browser.page;
  let loads = 0;
  const go = async (route: string) => {
    // A new query string: a full load with fresh data, not a hash change on the page already open.
    await page().goto(`${base}/dashboard/?load=${++loads}#/${route}`);
    await page().getByRole('heading', { level: 1 }).first().waitFor();
  };
  const signIn = async (token = ADMIN_TOKEN) => {
    await page().goto(`${base}/dashboard/`);
    await page().getByLabel('Admin token').fill(token);
    await page().getByRole('button', { name: 'Sign in' }).click();
  };

  beforeAll(async () => {
    // The service serves dist/dashboard: build it when missing or older than its sources.
    const built = await runToExit(process.execPath, ['scripts/ensure-built.mjs'], { env: process.env });
    expect(built.code, built.output).toBe(0);
    dataDir = mkdtempSync(join(tmpdir(), 'cv-dashboard-'));
    // A carrier lookup provider, never asked (no account turns lookups on): the Health page names it.
    lookups = await startProviderFake('twilio');
    server = await startServer({
      ADMIN_TOKEN,
      DATABASE_URL: `sqlite:${join(dataDir, 'verify.db')}`,
      ...lookups.env,
    });
    base = server.url;
    const account = await admin('POST', '/v1/admin/accounts', { name: 'Acme' });
    accountId = account.body.data.id;
    // Listed in the account selector: its name must show as text.
    await admin('POST', '/v1/admin/accounts', { name: 'Evil <img src=x onerror="window.__xss=4">' });
    const key = await admin('POST', '/v1/admin/api-keys', {
      name: 'backend',
      channels: ['EMAIL', 'SMS'],
      accountId,
    });
    apiKey = key.body.data.key;
    browser = await launch(base);
    // The dashboard remembers the chosen account; start on this one.
    await browser.context.addInitScript(
      `localStorage.setItem('cv.dashboard.account', ${JSON.stringify(accountId)})`,
    );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    await lookups?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a wrong token, signs in and out, keeps no token in web storage', async () => {
    await signIn('not-the-admin-token-not-the-admin-token');
    await expect.poll(() => page().getByRole('alert').textContent()).toContain('not valid');
    await screenshot(page(), 'sign-in-error');
    await signIn();
    await page().getByRole('navigation', { name: 'Dashboard' }).waitFor();
    const storage = await page().evaluate(
      'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })',
    );
    expect(storage).not.toContain(ADMIN_TOKEN);
    await page().getByRole('button', { name: 'Sign out' }).click();
    await page().getByLabel('Admin token').waitFor();
    // The session is gone on the server too: a reload stays signed out.
    await page().reload();
    await page().getByLabel('Admin token').waitFor();
    await signIn();
    await page().getByRole('navigation', { name: 'Dashboard' }).waitFor();
  });

  it('shows on the overview the numbers of the analytics API for a scripted set of sends', async () => {
    const sent: { to: string; requestId: string }[] = [];
    for (const email of ['ann@example.com', 'bea@example.com', 'cid@example.com']) {
      const r = await send(apiKey, { channel: 'EMAIL', email, purpose: 'login' });
      expect(r.status).toBe(200);
      sent.push({ to: email, requestId: r.body.data.requestId });
    }
    for (const phone of ['+14155550101', '+14155550102']) {
      const r = await send(apiKey, { channel: 'SMS', phone, purpose: 'signup' });
      expect(r.status).toBe(200);
      sent.push({ to: phone, requestId: r.body.data.requestId });
    }
    // Two emails and one SMS verified, one wrong code, one send refused by the resend cooldown.
    for (const i of [0, 1, 3])
      expect((await verify(sent[i]!.requestId, await codeFor(sent[i]!.to))).data.verified).toBe(true);
    expect((await verify(sent[2]!.requestId, '000000')).data.verified).toBe(false);
    expect((await send(apiKey, { channel: 'EMAIL', email: 'ann@example.com' })).status).toBe(429);

    const now = Date.now();
    const { body } = await admin(
      'GET',
      `/v1/admin/analytics?accountId=${accountId}&from=${new Date(now - 7 * 86_400_000).toISOString()}&to=${new Date(now + 86_400_000).toISOString()}`,
    );
    const sum = (field: string) => body.data.buckets.reduce((n: number, b: any) => n + b[field], 0);
    expect([sum('sent'), sum('verified'), sum('limited'), sum('wrongCodes')]).toEqual([5, 3, 1, 1]);

    await go('overview');
    const kpi = (id: string) => page().getByTestId(id).locator('.kpi-value');
    await expect.poll(() => kpi('kpi-sent').textContent()).toBe(String(sum('sent')));
    expect(await kpi('kpi-verified').textContent()).toBe(String(sum('verified')));
    expect(await kpi('kpi-conversion').textContent()).toBe('60.0 %');
    expect(await kpi('kpi-limited').textContent()).toBe(String(sum('limited')));
    expect(await kpi('kpi-wrong').textContent()).toBe(String(sum('wrongCodes')));
    expect(await kpi('kpi-median').textContent()).not.toBe('—');
    await expect.poll(() => page().locator('canvas').count()).toBe(4);
    await screenshot(page(), 'overview');

    await page().getByLabel('Group by').selectOption('channel');
    const row = (group: string) =>
      page()
        .getByRole('row')
        .filter({ has: page().getByRole('cell', { name: group, exact: true }) });
    await expect.poll(() => row('EMAIL').getByRole('cell').nth(1).textContent()).toBe('3');
    expect(await row('SMS').getByRole('cell').nth(1).textContent()).toBe('2');
    await screenshot(page(), 'overview-by-channel');
    expect(await page().getByLabel('Account', { exact: true }).locator('option').allTextContents()).toContain(
      'Evil <img src=x onerror="window.__xss=4">',
    );
  });

  it("shows a contact's history and risk, and blocks it: a send to it then answers 403", async () => {
    await go('contacts');
    await page().getByLabel('Destination', { exact: true }).fill('cid@');
    await page().getByRole('button', { name: 'Search' }).click();
    await page().getByRole('link', { name: 'cid@example.com' }).click();
    await page().getByRole('heading', { name: 'cid@example.com' }).waitFor();
    await expect.poll(() => page().getByTestId('history-purpose').first().textContent()).toBe('login');
    expect(await page().getByTestId('history-address').first().textContent()).toBe('cid@example.com');
    await page().getByTestId('risk-score').waitFor();
    await screenshot(page(), 'contact');
    await page().getByLabel('Reason').fill('Abuse reported by support');
    await page().getByRole('button', { name: 'Block', exact: true }).click();
    await page().getByRole('button', { name: 'Unblock' }).waitFor();
    expect(await page().getByText('Abuse reported by support').count()).toBe(1);
    // The block holds for the mailbox, whichever way its address is written.
    for (const email of ['cid@example.com', 'CID+shop@Example.com']) {
      const refused = await send(apiKey, { channel: 'EMAIL', email });
      expect(refused.status, email).toBe(403);
      expect(refused.body.error.code).toBe('CONTACT_BLOCKED');
    }
  });

  it('creates a key, copies its secret, edits its channels and revokes it', async () => {
    await go('keys');
    await page().getByLabel('Name').fill('browser key');
    await page().getByRole('button', { name: 'Create key' }).click();
    const secret = (await page().getByTestId('secret').textContent())!;
    expect(secret).toMatch(/^cvk_live_/);
    await page().getByRole('button', { name: 'Copy' }).click();
    await page().getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page().evaluate('navigator.clipboard.readText()')).toBe(secret);
    await screenshot(page(), 'keys');
    expect((await send(secret, { channel: 'EMAIL', email: 'dee@example.com' })).status).toBe(200);

    await page().getByRole('button', { name: 'Done' }).click();
    await page().getByRole('button', { name: 'Edit channels of browser key' }).click();
    await page().getByRole('group', { name: 'Channels of browser key' }).getByLabel('SMS').check();
    await page().getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(
        async () =>
          (await admin('GET', `/v1/admin/api-keys?accountId=${accountId}`)).body.data.find(
            (k: any) => k.name === 'browser key',
          ).channels,
      )
      .toEqual(['EMAIL', 'SMS']);

    browser.watch.acceptConfirm = true;
    await page().getByRole('button', { name: 'Revoke browser key' }).click();
    await page()
      .getByRole('row', { name: /browser key/ })
      .getByText('revoked')
      .waitFor();
    browser.watch.acceptConfirm = false;
    expect((await send(secret, { channel: 'EMAIL', email: 'eve@example.com' })).status).toBe(401);
  });

  it('previews a branding change live and uses it in the next message', async () => {
    await go('branding');
    await page().getByLabel('Brand name').fill('Globex Trust');
    await page().getByLabel('SMS (en)').fill('{code} is your Globex Trust code for {purpose}');
    await expect
      .poll(() => page().getByTestId('preview-sms').textContent(), { timeout: 10_000 })
      .toContain('123456 is your Globex Trust code');
    const email = page().frameLocator('iframe[title="Email preview"]');
    await expect
      .poll(() => email.locator('body').textContent(), { timeout: 10_000 })
      .toContain('Globex Trust');
    await screenshot(page(), 'branding');
    await page().getByRole('button', { name: 'Save branding' }).click();
    await page().getByText('Branding saved').waitFor();

    expect((await send(apiKey, { channel: 'SMS', phone: '+14155550109', purpose: 'checkout' })).status).toBe(
      200,
    );
    await go('outbox');
    await page().getByLabel('Destination or request id').fill('+14155550109');
    await page().getByRole('button', { name: 'Search' }).click();
    await expect
      .poll(() => page().getByTestId('outbox-message').first().textContent())
      .toContain('is your Globex Trust code for checkout');
    await screenshot(page(), 'outbox');
  });

  it('renders purposes and custom messages holding markup as text everywhere', async () => {
    const r = await send(apiKey, {
      channel: 'EMAIL',
      email: 'xss@example.com',
      purpose: XSS_PURPOSE,
      customMessage: XSS_MESSAGE,
    });
    expect(r.status).toBe(200);
    const noInjection = async () => {
      expect(await page().evaluate('window.__xss')).toBeUndefined();
      expect(await page().locator('img[src="x"], b:text("ops")').count()).toBe(0);
    };

    await go('outbox');
    await page().getByLabel('Destination or request id').fill('xss@example.com');
    await page().getByRole('button', { name: 'Search' }).click();
    await expect
      .poll(() => page().getByTestId('outbox-message').first().textContent())
      .toContain('<img src=x');
    await noInjection();

    await go('contacts');
    await page().getByLabel('Destination', { exact: true }).fill('xss@example.com');
    await page().getByRole('button', { name: 'Search' }).click();
    await page().getByRole('link', { name: 'xss@example.com' }).click();
    await expect.poll(() => page().getByTestId('history-purpose').first().textContent()).toBe(XSS_PURPOSE);
    await noInjection();

    await go('branding');
    await page().getByLabel('Sample purpose').fill(XSS_PURPOSE);
    await expect
      .poll(() => page().getByTestId('preview-sms').textContent(), { timeout: 10_000 })
      .toContain('<script>');
    const email = page().frameLocator('iframe[title="Email preview"]');
    await expect.poll(() => email.locator('body').textContent(), { timeout: 10_000 }).toContain('<img src=x');
    expect(await email.locator('img[src="x"], script').count()).toBe(0);
    await noInjection();
    expect(browser.watch.dialogs).toEqual([]);
  });

  it('lists tripped SMS-pumping breakers on the Health page from the admin API (public /health only counts them)', async () => {
    const patched = await admin('PATCH', `/v1/admin/accounts/${accountId}/settings`, {
      pumpingMinSends: 10,
      pumpingMinConversion: 0.2,
    });
    expect(patched.status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const phone = `+4474001234${String(i).padStart(2, '0')}`;
      statuses.push((await send(apiKey, { channel: 'SMS', phone, country: 'GB' })).status);
    }
    expect(statuses.at(-1)).toBe(429);
    const health = (await (await fetch(`${base}/health`)).json()) as any;
    expect(health.pumpingBreakers).toEqual([{ country: 'GB', count: 1 }]);
    expect(JSON.stringify(health)).not.toContain(accountId);

    await go('health');
    // The carrier lookup provider, unknown until it has answered on this instance.
    const services = page().getByRole('region', { name: 'Services' });
    await expect.poll(() => services.textContent()).toContain('Carrier lookups (twilio, on this instance)');
    expect(health.lookups).toEqual({ name: 'twilio', state: 'unknown' });
    const card = page().getByRole('region', { name: 'Tripped SMS-pumping breakers' });
    await expect.poll(() => card.textContent()).toContain(accountId);
    expect(await card.textContent()).toMatch(/GB.*\(live\) since/);
    await screenshot(page(), 'health-breaker');
    const reset = await admin('POST', '/v1/admin/breakers/GB/reset', { accountId });
    expect(reset.status).toBe(200);
  });

  it('refuses a cross-site form post to an admin action while signed in', async () => {
    const contact = (await admin('GET', `/v1/admin/contacts?accountId=${accountId}&q=cid@example.com`)).body
      .data[0];
    expect(contact.blocked).toBe(true);
    const unblock = `${base}/v1/admin/contacts/${contact.id}/unblock`;
    // Another loopback port: another origin (and, for cookies, the same site, so only the CSRF check stands).
    const attacker: Server = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(
        `<!doctype html><form id="f" method="POST" action="${unblock}"><input name="reason" value="x"></form>` +
          '<script>document.getElementById("f").submit()</script>',
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      const answer = page().waitForResponse((response) => response.url() === unblock);
      await page().goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      expect((await answer).status()).toBe(403);
    } finally {
      attacker.close();
    }
    expect((await admin('GET', `/v1/admin/contacts/${contact.id}`)).body.data.blocked).toBe(true);
  });

  it('saves an account limit and serves a page with no inline script or style', async () => {
    await go('settings');
    await page().getByLabel('Risk threshold').fill('70');
    await page().getByLabel('Allowed countries for SMS and WhatsApp').fill('us, gb');
    await page().getByRole('button', { name: 'Save settings' }).click();
    await page().getByText('Settings saved.').waitFor();
    const { settings } = (await admin('GET', `/v1/admin/accounts/${accountId}`)).body.data;
    expect([settings.riskThreshold, settings.allowedCountries]).toEqual([70, ['US', 'GB']]);

    const html = await (await fetch(`${base}/dashboard/`)).text();
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);
    expect(html).not.toMatch(/\sstyle=|<style/i);
  });

  it('screenshots every page at 1280 px and at phone width', async () => {
    for (const route of ['settings', 'webhooks', 'health']) {
      await go(route);
      await screenshot(page(), route);
    }
    await page().setViewportSize({ width: 390, height: 844 });
    try {
      for (const route of [
        'overview',
        'contacts',
        'keys',
        'branding',
        'outbox',
        'settings',
        'webhooks',
        'health',
      ]) {
        await go(route);
        await screenshot(page(), `phone-${route}`);
        // Wide tables scroll inside their card; the page itself never scrolls sideways.
        expect(await page().evaluate('document.documentElement.scrollWidth'), route).toBeLessThanOrEqual(390);
      }
      // The navigation folds into a menu at phone width.
      await page().getByRole('button', { name: 'Menu' }).click();
      await page().getByRole('link', { name: 'API keys' }).click();
      await page().getByRole('heading', { name: 'API keys' }).waitFor();
    } finally {
      await page().setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('reported no CSP violation, page error, console error or dialog during the run', () => {
    expect(browser.watch.cspViolations).toEqual([]);
    expect(browser.watch.pageErrors).toEqual([]);
    expect(browser.watch.consoleErrors).toEqual([]);
    expect(browser.watch.dialogs).toEqual([]);
  });
});
