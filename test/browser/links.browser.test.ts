import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSmtp, startFakeSmtp } from '../delivery/support/fake-smtp.js';
import { postJson, type RunningServer, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot, serviceApi } from './browser.js';

// A magic link's pages in Chromium with JavaScript off, as a mail client's in-app browser may
// be: the confirmation page, its button (a form POST) followed to the account's redirect or to the
// service's "verified" page, the page of a used link, and a right-to-left one. Screenshots go to
// test-output/dashboard/links-*.png for a person to look at.

const ADMIN = randomBytes(24).toString('base64url');

describe.runIf(chromiumAvailable())('magic link pages in a browser without JavaScript', () => {
  let smtp: FakeSmtp;
  let server: RunningServer;
  let app: Server;
  let appOrigin: string;
  let key: string;
  let browser: Browser;
  const landed: string[] = [];
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    // The integrator's app the link redirects to: it answers a small page and records the URL.
    app = createServer((req, res) => {
      landed.push(req.url ?? '');
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>App</title><h1>Welcome back</h1>');
    });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    server = await startServer({
      DATABASE_URL: 'sqlite::memory:',
      ADMIN_TOKEN: ADMIN,
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'codes@acme.test',
      PUBLIC_BASE_URL: 'https://verify.example.test',
      RESEND_COOLDOWN_SECONDS: '0',
    });
    key = (await postJson(`${server.url}/v1/admin/api-keys`, { name: 'b', channels: ['EMAIL'] }, ADMIN)).body
      .data.key as string;
    const patch = await serviceApi(() => server.url, ADMIN)(
      'PATCH',
      '/v1/admin/accounts/acc_default/settings',
      {
        linkRedirectOrigins: [appOrigin],
        branding: { brandName: 'Acme', productName: 'Acme Cloud', color: '#0f766e' },
      },
    );
    expect(patch.status).toBe(200);
    browser = await launch(server.url, { javaScriptEnabled: false });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGKILL');
    app?.close();
    await smtp?.close();
  });

  /** Sends a code with a link and answers the link as the service serves it here. */
  async function linkFor(email: string, extra: Record<string, unknown>) {
    const sent = await postJson(
      `${server.url}/v1/contact/send-code`,
      { channel: 'EMAIL', email, ...extra },
      key,
    );
    expect(sent.status).toBe(200);
    const text = [...smtp.mails].reverse().find((m) => m.envelopeTo.includes(email))?.mail.text ?? '';
    const token = /\/v1\/links\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
    expect(token).toBeDefined();
    return { url: `${server.url}/v1/links/${token}`, requestId: sent.body.data.requestId as string };
  }

  it('confirms, then follows the redirect to the app with requestId and status', async () => {
    const { url, requestId } = await linkFor('ada@example.com', {
      link: { redirectUrl: `${appOrigin}/welcome?x=1` },
    });
    const { page } = browser;
    const opened = await page.goto(url);
    expect(opened?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Confirm your email address');
    expect(await page.locator('main p').textContent()).toMatch(
      /^Confirm that you want to verify a\*+@example\.com for Acme Cloud\.$/,
    );
    expect(await page.locator('script').count()).toBe(0);
    // The button is the brand's colour.
    expect(await page.evaluate('getComputedStyle(document.querySelector("button")).backgroundColor')).toBe(
      'rgb(15, 118, 110)',
    );
    await screenshot(page, 'links-confirm');
    await Promise.all([page.waitForURL(`${appOrigin}/**`), page.locator('button').click()]);
    // (The browser may also ask the app for its favicon.)
    expect(landed.filter((u) => u.startsWith('/welcome'))).toEqual([
      `/welcome?x=1&requestId=${requestId}&status=verified`,
    ]);
    expect(await page.locator('h1').textContent()).toBe('Welcome back');
    // Back to the link: it is used, and the page names no address.
    const gone = await page.goto(url);
    expect(gone?.status()).toBe(410);
    expect(await page.locator('h1').textContent()).toBe('This link can no longer be used');
    expect(await page.content()).not.toContain('@example.com');
    await screenshot(page, 'links-gone');
    expect(browser.watch.cspViolations).toEqual([]);
  });

  it("without a redirect, ends on the service's verified page; a right-to-left request reads right to left", async () => {
    const { url } = await linkFor('grace@example.com', { link: {} });
    const { page } = browser;
    await page.goto(url);
    await Promise.all([page.waitForLoadState('load'), page.locator('button').click()]);
    await page.waitForURL(url);
    expect(await page.locator('h1').textContent()).toBe('Email address verified');
    expect(await page.locator('main p').textContent()).toBe(
      'You can close this page and return to Acme Cloud.',
    );
    await screenshot(page, 'links-verified');

    const arabic = await linkFor('hana@example.com', { link: {}, locale: 'ar' });
    await page.goto(arabic.url);
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.evaluate('getComputedStyle(document.body).direction')).toBe('rtl');
    await screenshot(page, 'links-confirm-ar');
    expect(browser.watch.cspViolations).toEqual([]);
  });
});
