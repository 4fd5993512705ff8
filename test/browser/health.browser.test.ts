import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runToExit, startServer } from '../support/process.js';
import { type Browser, chromiumAvailable, launch, screenshot, signIn } from './browser.js';

// The Health page of a deployment whose channels have no provider: under LIVE_OUTBOX=allow a
// channel whose live codes only reach the outbox shows "not delivered" (never plainly
// "operational"), under refuse "unavailable"; each with the sentence /health gives.

const ADMIN_TOKEN = randomBytes(24).toString('base64url');

describe.skipIf(!chromiumAvailable())('dashboard Health page and live codes without a provider', () => {
  const dataDirs: string[] = [];
  const servers: RunningServer[] = [];
  let browser: Browser | undefined;
  /** What the browsers reported that a clean run must not have, kept over both servers. */
  const problems: string[] = [];
  const closeBrowser = async () => {
    if (!browser) return;
    const { cspViolations, pageErrors, consoleErrors } = browser.watch;
    problems.push(...cspViolations, ...pageErrors, ...consoleErrors);
    await browser.close();
    browser = undefined;
  };

  const start = async (liveOutbox: 'allow' | 'refuse') => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cv-dashboard-health-'));
    dataDirs.push(dataDir);
    const server = await startServer({
      ADMIN_TOKEN,
      DATABASE_URL: `sqlite:${join(dataDir, 'verify.db')}`,
      LIVE_OUTBOX: liveOutbox,
    });
    servers.push(server);
    return server.url;
  };

  beforeAll(async () => {
    const built = await runToExit(process.execPath, ['scripts/ensure-built.mjs'], { env: process.env });
    expect(built.code, built.output).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await closeBrowser();
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  const healthPage = async (base: string) => {
    browser ??= await launch(base);
    const page = browser.page;
    await signIn(page, base, ADMIN_TOKEN);
    await page.goto(`${base}/dashboard/?health#/health`);
    await page.getByRole('heading', { name: 'Health' }).waitFor();
    await page.getByText('EMAIL', { exact: true }).waitFor();
    return page;
  };
  const channelItem = (page: Browser['page'], channel: string) =>
    page.locator('li').filter({ has: page.getByText(channel, { exact: true }) });

  it('LIVE_OUTBOX=allow: an outbox-only channel is "not delivered", with the sentence of /health', async () => {
    const base = await start('allow');
    const page = await healthPage(base);
    for (const channel of ['EMAIL', 'SMS', 'WHATSAPP', 'VOICE']) {
      const item = channelItem(page, channel);
      await expect.poll(() => item.locator('.badge').first().textContent()).toBe('not delivered');
      expect(await item.textContent()).toContain(
        `Live ${channel} codes go to the outbox and are not delivered`,
      );
      expect(await item.textContent()).not.toContain('operational');
    }
    await screenshot(page, 'health-live-outbox-allow');
  });

  it('LIVE_OUTBOX=refuse: the channel is "unavailable", with the sentence of /health', async () => {
    const base = await start('refuse');
    // Another origin: a fresh browser signs in there.
    await closeBrowser();
    const page = await healthPage(base);
    for (const channel of ['EMAIL', 'SMS', 'WHATSAPP', 'VOICE']) {
      const item = channelItem(page, channel);
      await expect.poll(() => item.locator('.badge').first().textContent()).toBe('unavailable');
      expect(await item.textContent()).toContain('refused with 503 CHANNEL_UNAVAILABLE');
    }
    expect(await page.locator('.kpi-value .badge').first().textContent()).toBe('degraded');
    await screenshot(page, 'health-live-outbox-refuse');
  });

  it('reported no CSP violation, page error or console error', async () => {
    await closeBrowser();
    expect(problems).toEqual([]);
  });
});
