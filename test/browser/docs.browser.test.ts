import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsCsp } from '../../src/http/hardening.js';
import { type RunningServer, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot } from './browser.js';

// The API reference at /docs in a real browser: swagger-ui reads the one document, /openapi.json,
// under the page's strict Content-Security-Policy, and "Try it out" reaches the service.

describe.skipIf(!chromiumAvailable())('the API reference page at /docs', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cv-docs-'));
  let server: RunningServer;
  let browser: Browser;
  const requests: string[] = [];

  beforeAll(async () => {
    server = await startServer({
      ADMIN_TOKEN: randomBytes(24).toString('base64url'),
      DATABASE_URL: `sqlite:${join(dataDir, 'verify.db')}`,
    });
    browser = await launch(server.url);
    browser.page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  });

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads /openapi.json (never /docs/json) with no Content-Security-Policy violation', async () => {
    const { page, watch } = browser;
    const answer = await page.goto(`${server.url}/docs`);
    expect(answer?.headers()['content-security-policy']).toBe(docsCsp());
    expect(docsCsp()).not.toContain('unsafe');
    await expect
      .poll(() => page.locator('.info .title').textContent())
      .toContain('Contact Verification Service');
    await page.locator('#operations-verification-sendCode').waitFor();
    expect(requests).toContain('/openapi.json');
    expect(requests).not.toContain('/docs/json');
    await screenshot(page, 'docs');
    expect(watch.cspViolations).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });

  it('"Try it out" reaches the service through the document\'s server', async () => {
    const { page, watch } = browser;
    await page.locator('#operations-verification-sendCode .opblock-summary-control').click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    const sent = page.waitForResponse((r) => r.url() === `${server.url}/v1/contact/send-code`);
    await page.getByRole('button', { name: 'Execute' }).click();
    // No key was given: the service answers 401 in the contract's shape, and the page shows it.
    expect((await sent).status()).toBe(401);
    await expect
      .poll(() => page.locator('#operations-verification-sendCode .live-responses-table').textContent())
      .toContain('UNAUTHORIZED');
    expect(watch.cspViolations).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
  });

  it('would see a violation: an inline style and a foreign script are reported by the watch', async () => {
    const { page, watch } = browser;
    // What swagger-ui's top bar did (an inline style) and what a CDN build would do (a foreign
    // script): both refused by the policy, and both must reach the lists the tests above read.
    await page.evaluate(`(() => {
      const style = document.createElement('style');
      style.textContent = 'body { color: red }';
      document.head.append(style);
      const script = document.createElement('script');
      script.src = 'https://cdn.invalid/swagger-ui-bundle.js';
      document.head.append(script);
    })()`);
    await expect.poll(() => watch.cspViolations.length).toBeGreaterThanOrEqual(2);
    expect(watch.cspViolations.join('\n')).toMatch(/style-src/);
    expect(watch.cspViolations.join('\n')).toMatch(/script-src/);
    watch.cspViolations.length = 0;
  });
});
