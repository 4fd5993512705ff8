import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMessage } from '../../src/delivery/messages.js';
import type { Locale } from '../../src/domain/locales.js';
import { deliveryRequest } from '../delivery/support/request.js';
import { type RunningServer, runToExit, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, signIn } from './browser.js';

// Right-to-left messages in Chromium: the HTML email of ar and he mirrored (start edge on the
// right) with the code still read left to right, and the dashboard's template preview the same.
// Screenshots go to test-output/locales/ for a person to look at.

const SCREENSHOTS = join(process.cwd(), 'test-output/locales');
const ADMIN_TOKEN = randomBytes(24).toString('base64url');

async function shot(page: Page, name: string, fullPage = true) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}

/** Where things sit in the email: the card's content box, the heading and the code's digits. */
interface Geometry {
  direction: string;
  card: { left: number; right: number };
  heading: { left: number; right: number };
  expiry: { left: number; right: number };
  codeDirection: string;
  /** The x of each digit of the code, in the order of the code. */
  digits: number[];
}

const MEASURE = `(() => {
  const td = document.querySelector('td');
  const cs = getComputedStyle(td);
  const box = td.getBoundingClientRect();
  const card = { left: box.left + parseFloat(cs.paddingLeft), right: box.right - parseFloat(cs.paddingRight) };
  const textBox = (el) => { const r = document.createRange(); r.selectNodeContents(el); const b = r.getBoundingClientRect(); return { left: b.left, right: b.right }; };
  const code = document.querySelector('p[dir="ltr"]');
  const text = code.firstChild;
  const digits = [];
  for (let i = 0; i < text.length; i++) { const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1); digits.push(r.getBoundingClientRect().left); }
  const paragraphs = [...td.querySelectorAll('p')];
  return {
    direction: getComputedStyle(document.body).direction,
    card,
    heading: textBox(td.querySelector('h1')),
    expiry: textBox(paragraphs[paragraphs.length - 1]),
    codeDirection: getComputedStyle(code).direction,
    digits,
  };
})()`;

describe.skipIf(!chromiumAvailable())('right-to-left messages in Chromium', () => {
  let browser: Browser;
  let server: RunningServer;
  let dataDir: string;
  let base: string;

  beforeAll(async () => {
    const built = await runToExit(process.execPath, ['scripts/ensure-built.mjs'], { env: process.env });
    expect(built.code, built.output).toBe(0);
    dataDir = mkdtempSync(join(tmpdir(), 'cv-locales-'));
    server = await startServer({ ADMIN_TOKEN, DATABASE_URL: `sqlite:${join(dataDir, 'verify.db')}` });
    base = server.url;
    browser = await launch(base);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const emailOf = (locale: Locale) =>
    renderMessage(
      deliveryRequest({
        channel: 'EMAIL',
        to: 'a@example.com',
        locale,
        code: '123456',
        purpose: 'login',
        branding: { brandName: 'Acme Pay', color: '#2563eb', supportUrl: 'https://acme.example/help' },
      }),
    ).html ?? '';

  it.each(['ar', 'he'] as const)(
    '%s: the email is mirrored and its code reads 1 to 6 from the left',
    async (locale) => {
      const page = browser.page;
      await page.setViewportSize({ width: 600, height: 700 });
      await page.setContent(emailOf(locale));
      const g = (await page.evaluate(MEASURE)) as Geometry;
      expect(g.direction).toBe('rtl');
      // The start edge is the right one: text hugs the card's right side, with room on its left.
      expect(Math.abs(g.heading.right - g.card.right)).toBeLessThan(2);
      expect(g.heading.left - g.card.left).toBeGreaterThan(20);
      expect(Math.abs(g.expiry.right - g.card.right)).toBeLessThan(2);
      // The code is a left-to-right paragraph aligned with the text: its digits in their order.
      expect(g.codeDirection).toBe('ltr');
      expect(g.digits).toHaveLength(6);
      for (let i = 1; i < g.digits.length; i++)
        expect(g.digits[i]).toBeGreaterThan(g.digits[i - 1] as number);
      expect(Math.abs((g.digits.at(-1) as number) + 30 - g.card.right)).toBeLessThan(40);
      await shot(page, `email-${locale}`);
    },
  );

  it('en: the same email is laid out left to right', async () => {
    const page = browser.page;
    await page.setContent(emailOf('en'));
    const g = (await page.evaluate(MEASURE)) as Geometry;
    expect(g.direction).toBe('ltr');
    expect(Math.abs(g.heading.left - g.card.left)).toBeLessThan(2);
    await shot(page, 'email-en');
  });

  it.each(['ar', 'he'] as const)('%s: the dashboard previews the texts right to left', async (locale) => {
    const page = browser.page;
    // Tall enough for the texts and the whole preview without scrolling (the dashboard's bars are sticky).
    await page.setViewportSize({ width: 1280, height: 1500 });
    await signIn(page, base, ADMIN_TOKEN);
    await page.goto(`${base}/dashboard/#/branding`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.locator('select[name="locale"]').selectOption(locale);
    const sms = page.getByTestId('preview-sms');
    await expect.poll(() => sms.getAttribute('dir'), { timeout: 10_000 }).toBe('rtl');
    await expect.poll(() => sms.getAttribute('lang')).toBe(locale);
    expect(await page.getByTestId('preview-whatsapp').getAttribute('dir')).toBe('rtl');
    const email = page.frameLocator('iframe[title="Email preview"]');
    await expect.poll(() => email.locator('html').getAttribute('dir'), { timeout: 10_000 }).toBe('rtl');
    await expect.poll(() => email.locator('p[dir="ltr"]').textContent()).toBe('123456');
    // The template fields run right to left, even one that opens with {code} (the built-in subject).
    expect(
      await page
        .locator('input[name="emailSubject"]')
        .evaluate((el) => (globalThis as any).getComputedStyle(el).direction as string),
    ).toBe('rtl');
    // A template typed in the language runs right to left as it is typed.
    const template = locale === 'ar' ? 'رمزك لدى {product}: {code}' : 'הקוד שלך ב-{product}: {code}';
    await page.locator('textarea[name="smsText"]').fill(template);
    expect(
      await page
        .locator('textarea[name="smsText"]')
        .evaluate((el) => (globalThis as any).getComputedStyle(el).direction as string),
    ).toBe('rtl');
    await expect
      .poll(() => sms.textContent(), { timeout: 10_000 })
      .toBe(template.replace('{product}', 'Contact Verify').replace('{code}', '123456'));
    await page.waitForLoadState('networkidle');
    await page.evaluate('document.activeElement?.blur(); window.scrollTo(0, 0)');
    await shot(page, `dashboard-branding-${locale}`, false);
    expect(browser.watch.pageErrors).toEqual([]);
    expect(browser.watch.cspViolations).toEqual([]);
  });

  it('sets the default language and the one-tap lines on the settings page', async () => {
    const page = browser.page;
    await page.goto(`${base}/dashboard/#/settings`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.locator('select[name="locale"]').selectOption('he');
    await page.locator('input[name="webOtpHost"]').fill('login.acme.example');
    await page.locator('input[name="appHash"]').fill('FA+9qCX9VSu');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const row = (name: string) => page.locator(`tr[data-setting="${name}"]`);
    await expect.poll(() => row('locale').getByTestId('in-force').textContent()).toBe('he');
    expect(await row('webOtpHost').getByTestId('source').textContent()).toContain('account');
    await page.evaluate('window.scrollTo(0, 0)');
    await shot(page, 'dashboard-settings-messages');
    // The branding page opens on the account's default language.
    await page.goto(`${base}/dashboard/?reload=1#/branding`);
    await expect
      .poll(() => page.locator('select[name="locale"]').inputValue(), { timeout: 10_000 })
      .toBe('he');
    await expect
      .poll(() => page.getByTestId('preview-sms').textContent(), { timeout: 10_000 })
      .toMatch(/\n\nFA\+9qCX9VSu\n@login\.acme\.example #123456$/);
    await expect.poll(() => page.getByTestId('preview-segments').textContent()).toBe('2 segments');
    expect(await page.getByTestId('segments-warning').textContent()).toContain('2 SMS');
  });
});
