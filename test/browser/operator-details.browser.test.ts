import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runToExit, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot, serviceApi, signIn } from './browser.js';

// What a new user found wrong in the dashboard's details (issue 44, item 6), in a real browser
// against a started service: a contact profile that outlived a switch of account or mode, zero
// counts coloured as alarms, one day drawn as a dot, times to the minute with no time zone, an
// outbox that could not be searched by request id, link a dual pair or refresh itself, raw keys
// on Health, and branding text fields that started empty instead of holding the built-in texts.

const ADMIN_TOKEN = randomBytes(24).toString('base64url');
/** Not the machine's zone (UTC), so a time shown without its zone would be wrong by an hour. */
const TIME_ZONE = 'Europe/Berlin';
const LOCALE = 'en-GB';

describe.skipIf(!chromiumAvailable())('dashboard: the details an operator relies on', () => {
  let dataDir: string;
  let server: RunningServer;
  let base: string;
  let browser: Browser;
  let acme: string;
  let globex: string;
  let liveKey: string;

  const admin = serviceApi(() => base, ADMIN_TOKEN);
  const send = (body: Record<string, unknown>) =>
    serviceApi(() => base, liveKey)('POST', '/v1/contact/send-code', body);
  const page = () => browser.page;
  let loads = 0;
  const go = async (route: string) => {
    await page().goto(`${base}/dashboard/?load=${++loads}#/${route}`);
    await page().getByRole('heading', { level: 1 }).first().waitFor();
  };
  const hash = () => new URL(page().url()).hash;
  const chooseAccount = (id: string) => page().getByLabel('Account', { exact: true }).selectOption(id);
  const chooseMode = (name: 'Live' | 'Test') =>
    page().getByRole('group', { name: 'Mode' }).getByRole('button', { name }).click();

  beforeAll(async () => {
    const built = await runToExit(process.execPath, ['scripts/ensure-built.mjs'], { env: process.env });
    expect(built.code, built.output).toBe(0);
    dataDir = mkdtempSync(join(tmpdir(), 'cv-dashboard-details-'));
    server = await startServer({ ADMIN_TOKEN, DATABASE_URL: `sqlite:${join(dataDir, 'verify.db')}` });
    base = server.url;
    acme = (await admin('POST', '/v1/admin/accounts', { name: 'Acme' })).body.data.id;
    globex = (await admin('POST', '/v1/admin/accounts', { name: 'Globex' })).body.data.id;
    liveKey = (
      await admin('POST', '/v1/admin/api-keys', {
        name: 'backend',
        channels: ['EMAIL', 'SMS'],
        accountId: acme,
      })
    ).body.data.key;
    browser = await launch(base, { locale: LOCALE, timezoneId: TIME_ZONE });
    await signIn(page(), base, ADMIN_TOKEN);
    await chooseAccount(acme);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("a contact's profile never outlives a switch of account or mode: the page goes back to the new scope's contacts", async () => {
    expect((await send({ channel: 'EMAIL', email: 'stale@example.com' })).status).toBe(200);
    const contact = (await admin('GET', `/v1/admin/contacts?accountId=${acme}&q=stale@example.com`)).body
      .data[0];
    const block = () => page().getByRole('button', { name: 'Block', exact: true });

    await go(`contacts/${contact.id}`);
    await page().getByRole('heading', { name: 'stale@example.com' }).waitFor();
    await chooseAccount(globex);
    await page().getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    expect(hash()).toBe('#/contacts');
    expect(await block().count()).toBe(0);
    await screenshot(page(), 'contact-after-account-switch');

    await chooseAccount(acme);
    await go(`contacts/${contact.id}`);
    await block().waitFor();
    await chooseMode('Test');
    await page().getByText('No test contact yet').waitFor();
    expect(hash()).toBe('#/contacts');
    expect(await page().getByRole('heading', { name: 'stale@example.com' }).count()).toBe(0);
    await chooseMode('Live');

    // A link to the profile opened while another account is chosen (another tab switched it):
    // nothing to act on until the operator chooses the contact's own account and mode.
    await chooseAccount(globex);
    await go(`contacts/${contact.id}`);
    const notice = page().getByRole('alert');
    await expect.poll(() => notice.textContent()).toContain('Acme');
    expect(await notice.textContent()).toContain('live');
    expect(await block().count()).toBe(0);
    await screenshot(page(), 'contact-of-another-account');
    await page().getByRole('button', { name: 'Show it under Acme · Live' }).click();
    await block().waitFor();
    expect(await page().getByLabel('Account', { exact: true }).inputValue()).toBe(acme);
  });

  it('the overview colours only counts above zero, says its days are UTC and draws a single day by the hour', async () => {
    // One delivery failure-free day: a rate-limit refusal (warn) and nothing refused for risk.
    expect((await send({ channel: 'EMAIL', email: 'stale@example.com' })).status).toBe(429);
    await go('overview');
    const kpi = (id: string) => page().getByTestId(id);
    await expect.poll(() => kpi('kpi-limited').locator('.kpi-value').textContent()).toBe('1');
    expect(await kpi('kpi-limited').getAttribute('class')).toMatch(/\bwarn\b/);
    expect(await kpi('kpi-undelivered').locator('.kpi-value').textContent()).toBe('0');
    expect(await kpi('kpi-undelivered').getAttribute('class')).not.toMatch(/\b(bad|warn)\b/);
    expect(await kpi('kpi-risk').locator('.kpi-value').textContent()).toBe('0');
    expect(await kpi('kpi-risk').getAttribute('class')).not.toMatch(/\b(bad|warn)\b/);
    expect(await page().getByTestId('time-zone-note').textContent()).toContain('UTC');

    // Seven days, one of them with traffic: the series of one point are bars, not a lone dot.
    const chart = (name: string) => page().locator(`[data-chart="${name}"]`);
    await expect.poll(() => chart('conversion').getAttribute('data-buckets')).toBe('7');
    expect(await chart('conversion').getAttribute('data-type')).toBe('bar');
    expect(await chart('timing').getAttribute('data-type')).toBe('bar');
    await screenshot(page(), 'overview-seven-days-one-active');

    // A range of one day: 24 hourly buckets, whatever the interval said.
    const today = new Date().toISOString().slice(0, 10);
    await page().getByLabel('From', { exact: true }).fill(today);
    await page().getByLabel('To', { exact: true }).fill(today);
    await expect.poll(() => chart('volume').getAttribute('data-buckets')).toBe('24');
    expect(await page().getByLabel('Interval').inputValue()).toBe('hour');
    await screenshot(page(), 'overview-one-day');
  });

  it('times show the second and the time zone', async () => {
    const { body } = await admin('GET', `/v1/admin/outbox?accountId=${acme}&to=stale@example.com&limit=1`);
    const createdAt = new Date(body.data[0].createdAt);
    const clock = new Intl.DateTimeFormat(LOCALE, {
      timeZone: TIME_ZONE,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).format(createdAt);
    await go('outbox');
    const time = page().getByTestId('outbox-message').first().locator('time');
    await expect.poll(() => time.textContent()).toContain(clock);
    expect(await time.textContent()).toMatch(/CET|GMT\+1/);
    expect(await time.getAttribute('title')).toBe(createdAt.toISOString());
  });

  it('the outbox finds a message by its request id, and links the two messages of a dual send', async () => {
    const dual = await send({ channels: ['EMAIL', 'SMS'], email: 'pair@example.com', phone: '+14155550142' });
    expect(dual.status).toBe(200);
    const [email, sms] = (dual.body.data as Array<{ requestId: string }>).map((d) => d.requestId);
    const messages = page().getByTestId('outbox-message');

    await go('outbox');
    await page()
      .getByLabel('Destination or request id')
      .fill(email as string);
    await page().getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => messages.count()).toBe(1);
    expect(await messages.first().getAttribute('data-request-id')).toBe(email);
    expect(hash()).toBe(`#/outbox/${email}`);
    await screenshot(page(), 'outbox-request-id');

    // Each half of the pair names and links the other.
    await messages
      .first()
      .getByRole('link', { name: sms as string })
      .click();
    await expect.poll(() => messages.first().getAttribute('data-request-id')).toBe(sms);
    expect(await messages.count()).toBe(1);
    expect(await messages.first().textContent()).toContain('Dual send');
    await messages
      .first()
      .getByRole('link', { name: email as string })
      .click();
    await expect.poll(() => messages.first().getAttribute('data-request-id')).toBe(email);

    // A request id of another account, or none at all, finds nothing.
    await go(`outbox/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}`);
    await page().getByText('No live message for this request').waitFor();
  });

  it('the outbox refreshes itself, keeping the scroll and the search being typed, and rests while the tab is hidden', async () => {
    for (let i = 0; i < 12; i++)
      expect((await send({ channel: 'EMAIL', email: `reader-${i}@example.com` })).status).toBe(200);
    await go('outbox');
    const messages = page().getByTestId('outbox-message');
    await expect.poll(() => messages.count()).toBe(15);
    const search = page().getByLabel('Destination or request id');
    await search.fill('half-typed@exa');
    await page().evaluate('window.scrollTo(0, 600)');
    const before = Number(await page().evaluate('window.scrollY'));
    expect(before).toBeGreaterThan(0);

    const fresh = (await send({ channel: 'EMAIL', email: 'fresh@example.com' })).body.data.requestId;
    await expect
      .poll(() => messages.first().getAttribute('data-request-id'), { timeout: 20_000 })
      .toBe(fresh);
    expect(await search.inputValue()).toBe('half-typed@exa');
    expect(Number(await page().evaluate('window.scrollY'))).toBeGreaterThanOrEqual(before);

    // Hidden: no request at all; shown again: one at once.
    const asked: string[] = [];
    page().on('request', (request) => {
      if (request.url().includes('/v1/admin/outbox')) asked.push(request.url());
    });
    const visibility = (state: 'hidden' | 'visible') =>
      page().evaluate(`Object.defineProperty(document, 'visibilityState', { value: '${state}', configurable: true });
        Object.defineProperty(document, 'hidden', { value: ${state === 'hidden'}, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));`);
    await visibility('hidden');
    asked.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    expect(asked).toEqual([]);
    await visibility('visible');
    await expect.poll(() => asked.length).toBeGreaterThan(0);
  }, 60_000);

  it('Health names its services in words', async () => {
    await go('health');
    const services = page().getByRole('region', { name: 'Services' });
    await expect.poll(() => services.textContent()).toContain('Rate-limit store');
    expect(await services.textContent()).toContain('Database');
    expect(await services.textContent()).not.toContain('rateLimitStore');
    await screenshot(page(), 'health-labels');
  });

  it("the branding editor's text fields hold the built-in texts, and saving them unchanged overrides nothing", async () => {
    const builtIn = await admin('GET', '/v1/admin/branding/templates');
    expect(builtIn.status).toBe(200);
    const textsOf = (locale: string) =>
      (
        builtIn.body.data as Array<{ locale: string; SMS: string; EMAIL: { subject: string; text: string } }>
      ).find((t) => t.locale === locale);
    const en = textsOf('en');
    const es = textsOf('es');
    expect(en?.SMS).toContain('{code}');

    await go('branding');
    await expect.poll(() => page().getByLabel('SMS (en)').inputValue()).toBe(en?.SMS);
    expect(await page().getByLabel('Email subject (en)').inputValue()).toBe(en?.EMAIL.subject);
    expect(await page().getByLabel('Email text (en)').inputValue()).toBe(en?.EMAIL.text);
    await page().getByLabel('Language').selectOption('es');
    await expect.poll(() => page().getByLabel('SMS (es)').inputValue()).toBe(es?.SMS);
    await screenshot(page(), 'branding-built-in-texts');

    await page().getByRole('button', { name: 'Save branding' }).click();
    await page().getByText('Branding saved').waitFor();
    const saved = async () => (await admin('GET', `/v1/admin/accounts/${acme}`)).body.data.settings.branding;
    expect((await saved())?.templates).toBeUndefined();

    // An edit overrides what was edited, and only that.
    const mine = `${es?.SMS} ¡Gracias!`;
    await page().getByLabel('SMS (es)').fill(mine);
    await page().getByRole('button', { name: 'Save branding' }).click();
    await expect.poll(async () => (await saved())?.templates).toEqual({ es: { SMS: mine } });
  });

  it('reported no CSP violation, page error, console error or dialog', () => {
    expect(browser.watch.cspViolations).toEqual([]);
    expect(browser.watch.pageErrors).toEqual([]);
    expect(browser.watch.consoleErrors).toEqual([]);
    expect(browser.watch.dialogs).toEqual([]);
  });
});
