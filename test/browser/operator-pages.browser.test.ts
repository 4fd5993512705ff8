import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runToExit, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot, serviceApi, signIn } from './browser.js';

// What an operator looks for first, in a real browser against a started service: the limits in
// force and where each comes from, an API key's id and prefix, the recent contacts without a
// search (paged), and the outbox's rows with their request's status and id (paged).

const ADMIN_TOKEN = randomBytes(24).toString('base64url');

describe.skipIf(!chromiumAvailable())('dashboard: what an operator looks for first', () => {
  let dataDir: string;
  let server: RunningServer;
  let base: string;
  let browser: Browser;
  let accountId: string;

  const admin = serviceApi(() => base, ADMIN_TOKEN);
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
    await signIn(page(), base, ADMIN_TOKEN);
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

  /** Sends a code with `key` and returns its request id. */
  const send = async (key: string, email: string) => {
    const res = await serviceApi(() => base, key)('POST', '/v1/contact/send-code', {
      channel: 'EMAIL',
      email,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.requestId as string;
  };
  const newKey = async (test: boolean) =>
    (await admin('POST', '/v1/admin/api-keys', { name: `k${test}`, channels: ['EMAIL'], accountId, test }))
      .body.data.key as string;
  const contactNames = () =>
    page()
      .locator('tr[data-contact]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-contact') ?? ''));
  /** 30 live contacts, person-01 first and person-30 last, and one test contact. */
  const people = Array.from({ length: 30 }, (_, i) => `person-${String(i + 1).padStart(2, '0')}@example.com`);
  let liveKey: string;
  let lastRequest: string;

  it('Contacts lists the recent contacts without a search, 25 to a page, in the mode chosen', async () => {
    liveKey = await newKey(false);
    for (const email of people.slice(0, -1)) await send(liveKey, email);
    // Seen last beyond doubt (a shared millisecond would order by id).
    await new Promise((resolve) => setTimeout(resolve, 20));
    lastRequest = await send(liveKey, people.at(-1) as string);
    await send(await newKey(true), 'tester@example.com');

    await go('contacts');
    await expect.poll(contactNames).toHaveLength(25);
    const first = await contactNames();
    expect(first[0]).toBe('person-30@example.com');
    expect(first).not.toContain('tester@example.com');
    expect(await page().getByTestId('page-number').textContent()).toBe('Page 1');
    expect(await page().getByRole('button', { name: '← Newer' }).isDisabled()).toBe(true);
    await screenshot(page(), 'contacts-recent');

    await page().getByRole('button', { name: 'Older →' }).click();
    await expect.poll(() => page().getByTestId('page-number').textContent()).toBe('Page 2');
    await expect.poll(contactNames).toHaveLength(5);
    const second = await contactNames();
    expect([...first, ...second].sort()).toEqual(people);
    expect(await page().getByRole('button', { name: 'Older →' }).isDisabled()).toBe(true);
    await screenshot(page(), 'contacts-recent-page-2');
    await page().getByRole('button', { name: '← Newer' }).click();
    await expect.poll(contactNames).toEqual(first);

    // A search shows its matches; Clear goes back to the recent contacts.
    await page().getByLabel('Destination', { exact: true }).fill('person-1');
    await page().getByRole('button', { name: 'Search' }).click();
    await expect.poll(contactNames).toEqual(people.filter((p) => p.startsWith('person-1')));
    await page().getByRole('button', { name: 'Clear' }).click();
    await expect.poll(contactNames).toEqual(first);

    // Test mode: the test key's contact only.
    await page().getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Test' }).click();
    await expect.poll(contactNames).toEqual(['tester@example.com']);
    expect(await page().getByRole('navigation', { name: 'Contact pages' }).count()).toBe(0);
    await page().getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Live' }).click();
    await expect.poll(contactNames).toEqual(first);
  });

  it("Outbox shows each message's status and request id, 20 to a page", async () => {
    // The newest request verified; person-01's first superseded by a second send to it.
    const codeOf = async (requestId: string) => {
      // The account's codes have 8 digits (its codeLength override).
      const items = (await admin('GET', `/v1/admin/outbox?accountId=${accountId}&limit=50`)).body.data;
      const item = items.find((m: { requestId: string }) => m.requestId === requestId);
      return (item.text as string).match(/\b(\d{8})\b/)?.[1] as string;
    };
    const superseded = (await admin('GET', '/v1/admin/outbox?to=person-01@example.com')).body.data[0]
      .requestId;
    // The Limits test left a 10 s resend cooldown on the account: none for this second send.
    const patched = await admin('PATCH', `/v1/admin/accounts/${accountId}/settings`, {
      resendCooldownSeconds: 0,
    });
    expect(patched.status).toBe(200);
    const resent = await send(liveKey, 'person-01@example.com');
    const verify = await serviceApi(() => base, liveKey)('POST', '/v1/contact/verify-code', {
      requestId: lastRequest,
      code: await codeOf(lastRequest),
    });
    expect(verify.body.data.verified).toBe(true);

    await go('outbox');
    const rows = page().getByTestId('outbox-message');
    await expect.poll(() => rows.count()).toBe(20);
    const row = (requestId: string) => page().locator(`[data-request-id="${requestId}"]`);
    expect(await rows.first().getAttribute('data-request-id')).toBe(resent);
    expect(await row(resent).getByTestId('message-status').textContent()).toBe('pending');
    expect(await row(resent).getByTestId('message-request-id').textContent()).toBe(resent);
    expect(await row(lastRequest).getByTestId('message-status').textContent()).toBe('verified');
    await screenshot(page(), 'outbox-status-request');

    // 31 live messages (the test key's is not among them): 20, then 11 on the second page, the
    // superseded request among them.
    expect(await page().locator('main').textContent()).not.toContain('tester@example.com');
    await page().getByRole('button', { name: 'Older →' }).click();
    await expect.poll(() => page().getByTestId('page-number').textContent()).toBe('Page 2');
    await expect.poll(() => rows.count()).toBe(11);
    expect(await row(superseded).getByTestId('message-status').textContent()).toBe('canceled');
    expect(await row(superseded).getByTestId('message-request-id').textContent()).toBe(superseded);
    expect(await page().getByRole('button', { name: 'Older →' }).isDisabled()).toBe(true);
    await screenshot(page(), 'outbox-page-2');

    // A filter starts again at its first page.
    await page().getByLabel('Destination or request id').fill('person-01@example.com');
    await page().getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page().getByTestId('message-status').allTextContents()).toEqual(['pending', 'canceled']);
    expect(await page().getByRole('navigation', { name: 'Outbox pages' }).count()).toBe(0);

    // Test mode: the test key's message alone.
    await page().getByRole('button', { name: 'Clear' }).click();
    await page().getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('tester@example.com');
    await page().getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Live' }).click();
    await expect.poll(() => rows.count()).toBe(20);
  });

  it('reported no CSP violation, page error, console error or dialog', () => {
    expect(browser.watch.cspViolations).toEqual([]);
    expect(browser.watch.pageErrors).toEqual([]);
    expect(browser.watch.consoleErrors).toEqual([]);
    expect(browser.watch.dialogs).toEqual([]);
  });
});
