import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/app.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; frame-src 'self' blob: data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";
const INDEX =
  '<!doctype html><title>cv</title><script type="module" src="/dashboard/assets/app-3f2a1b.js"></script>';
const SECRET = 'SECRET-OUTSIDE-THE-DASHBOARD';

/** A built front end in a temp folder, with a file beside it that must never be served. */
function fixture(): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'cv-dashboard-'));
  const dir = join(root, 'dashboard');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'app-3f2a1b.js'), 'console.log("app");');
  writeFileSync(join(dir, 'assets', 'style-9c8d7e.css'), 'body{margin:0}');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, '.env'), SECRET);
  writeFileSync(join(root, 'secret.txt'), SECRET);
  return { root, dir };
}

describe('dashboard serving', () => {
  let svc: TestService;
  let root: string;
  let dir: string;
  beforeAll(async () => {
    ({ root, dir } = fixture());
    svc = await startTestService({}, { dashboardDir: dir });
  });
  afterAll(async () => {
    await svc.close();
    rmSync(root, { recursive: true, force: true });
  });
  const get = (url: string) => svc.app.inject({ method: 'GET', url });

  const expectPolicy = (res: Awaited<ReturnType<typeof get>>, url: string) => {
    expect(res.headers['content-security-policy'], url).toBe(CSP);
    expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    expect(res.headers['x-frame-options'], url).toBe('DENY');
  };

  it('answers the page for /dashboard, /dashboard/ and any client-side route, never cached', async () => {
    for (const url of [
      '/dashboard',
      '/dashboard/',
      '/dashboard/accounts',
      '/dashboard/keys/key_1?tab=x',
      '/dashboard/a/b/c',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.body, url).toBe(INDEX);
      expectPolicy(res, url);
    }
    const head = await svc.app.inject({ method: 'HEAD', url: '/dashboard' });
    expect(head.statusCode).toBe(200);
  });

  it('serves files with their types, hashed assets cacheable for a year', async () => {
    const script = await get('/dashboard/assets/app-3f2a1b.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.body).toBe('console.log("app");');
    expectPolicy(script, 'script');
    const style = await get('/dashboard/assets/style-9c8d7e.css');
    expect(style.headers['content-type']).toMatch(/^text\/css/);
    expect(style.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await get('/dashboard/favicon.svg');
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    // Not a hashed asset: revalidated like the page.
    expect(icon.headers['cache-control']).toBe('no-store');
  });

  it('answers 404 for a missing asset or API path instead of the page', async () => {
    for (const url of ['/dashboard/assets/app-000000.js', '/dashboard/api/nope']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('never serves a file outside the built directory, nor a dotfile', async () => {
    for (const url of [
      '/dashboard/../secret.txt',
      '/dashboard/%2e%2e/secret.txt',
      '/dashboard/..%2fsecret.txt',
      '/dashboard/assets/..%2f..%2fsecret.txt',
      '/dashboard/assets/%2e%2e/%2e%2e/secret.txt',
      `/dashboard/${encodeURIComponent(join(root, 'secret.txt'))}`,
      '/dashboard/.env',
    ]) {
      const res = await get(url);
      expect(res.body, url).not.toContain(SECRET);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code, url).toBe('NOT_FOUND');
    }
    // A control character is refused before any file is looked at.
    expect((await get('/dashboard/assets/%00.js')).statusCode).toBe(400);
    // A path that stays inside is fine.
    expect((await get('/dashboard/assets/../index.html')).body).toBe(INDEX);
  });
});

describe('dashboard not built', () => {
  it('answers 503 naming npm run build while index.html is missing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cv-dashboard-empty-'));
    const svc = await startTestService({}, { dashboardDir: root });
    try {
      for (const url of ['/dashboard', '/dashboard/settings']) {
        const res = await svc.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(503);
        expect(res.json().error).toMatchObject({ code: 'UNAVAILABLE' });
        expect(res.json().error.message).toContain('npm run build');
        expect(res.headers['content-security-policy']).toBe(CSP);
      }
    } finally {
      await svc.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
