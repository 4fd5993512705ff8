import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { recordSkip } from '../support/skips.js';

/** Debian's chromium (apt); playwright-core drives it and downloads nothing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** true when the browser is there; throws under CI=true when it is not, else logs one line. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true')
    throw new Error(`chromium is required under CI=true but ${CHROMIUM} is missing`);
  recordSkip(`no chromium at ${CHROMIUM} (apt install chromium, or set CI=true to require it)`);
  return false;
}

/** What the page reported that a clean run must not have. */
export interface Watch {
  cspViolations: string[];
  pageErrors: string[];
  consoleErrors: string[];
  dialogs: string[];
  /** Set while an action is expected to ask window.confirm (revoke, rotate, delete). */
  acceptConfirm: boolean;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  watch: Watch;
  close(): Promise<void>;
}

/** What a test may set about the browser's person: their language and time zone. */
export interface LaunchOptions {
  locale?: string;
  timezoneId?: string;
  /** false: a browser with JavaScript off (the magic link's pages must work so). */
  javaScriptEnabled?: boolean;
}

export async function launch(origin: string, options: LaunchOptions = {}): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'cv-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
    ...options,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = context.pages()[0] ?? (await context.newPage());
  // Well inside the test's own timeout, so a failure names the step that did not happen.
  page.setDefaultTimeout(10_000);
  const watch: Watch = {
    cspViolations: [],
    pageErrors: [],
    consoleErrors: [],
    dialogs: [],
    acceptConfirm: false,
  };
  page.on('console', (message) => {
    const text = message.text();
    if (/Content[- ]Security[- ]Policy/i.test(text)) watch.cspViolations.push(`${text} (${page.url()})`);
    // A refused request (the 401 of a signed-out page, a 403 the test provokes) is logged by the
    // browser as "Failed to load resource"; the tests assert those answers themselves.
    else if (message.type() === 'error' && !text.startsWith('Failed to load resource'))
      watch.consoleErrors.push(text);
  });
  page.on('pageerror', (error) => watch.pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    if (dialog.type() === 'confirm' && watch.acceptConfirm) return void dialog.accept();
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    return void dialog.dismiss();
  });
  // The CSP's own report, for what the console might word differently.
  // (A string: this file is compiled without the DOM library.)
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
    console.error('Content-Security-Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI +
      ' at ' + event.sourceFile + ':' + event.lineNumber + ':' + event.columnNumber + ' ' + event.sample + ' in ' + location.href);
  });`);
  return {
    context,
    page,
    watch,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export const SCREENSHOTS = join(process.cwd(), 'test-output/dashboard');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Charts and fonts settle after the data arrives.
  await page.waitForLoadState('networkidle');
  // From the top, nothing focused: sticky bars and focus rings in their resting place.
  await page.evaluate('document.activeElement?.blur(); window.scrollTo(0, 0)');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Calls of the service's API at `base()` (read when called: the service starts after the helper
 * is made) with `token`, the admin token or an API key: each answer's status and its body as JSON
 * (null when empty).
 */
export function serviceApi(base: () => string, token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

/**
 * Opens the dashboard at `base` signed in with `token`: signs in when it shows the sign-in form,
 * and returns once the dashboard's navigation is there. It waits for the one or the other first:
 * asked at once, a page still rendering shows neither, and a test that took that for "signed in"
 * went on to a page that was the sign-in form.
 */
export async function signIn(page: Page, base: string, token: string): Promise<void> {
  await page.goto(`${base}/dashboard/`);
  const tokenField = page.getByLabel('Admin token');
  const navigation = page.getByRole('navigation', { name: 'Dashboard' });
  await tokenField.or(navigation).first().waitFor();
  if (await tokenField.isVisible()) {
    await tokenField.fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await navigation.waitFor();
}
