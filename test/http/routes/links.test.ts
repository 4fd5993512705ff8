import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSmtp, startFakeSmtp } from '../../delivery/support/fake-smtp.js';
import { ADMIN_TOKEN, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

const BASE = 'https://verify.example.test';
const APP = 'https://app.example.com';

/** The link of the newest email to `to`, and its code, as the recipient reads them (text part). */
function linkOf(smtp: FakeSmtp, to: string): { link: string; token: string; code: string; html: string } {
  const mail = [...smtp.mails].reverse().find((m) => m.envelopeTo.includes(to));
  if (!mail) throw new Error(`no mail to ${to}`);
  const text = mail.mail.text ?? '';
  const link = new RegExp(`${BASE}/v1/links/([A-Za-z0-9_-]+)`).exec(text);
  const code = /\b(\d{6})\b/.exec(text);
  if (!link || !code) throw new Error(`no link or code in: ${text}`);
  return { link: link[0], token: link[1] as string, code: code[1] as string, html: String(mail.mail.html) };
}

eachStore('Magic links over HTTP', (start) => {
  let smtp: FakeSmtp;
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    svc = await start({
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'codes@acme.test',
      PUBLIC_BASE_URL: BASE,
      RESEND_COOLDOWN_SECONDS: '0',
    });
    key = await svc.createKey({ channels: ['EMAIL', 'SMS'] });
    const patched = await svc.app.inject({
      method: 'PATCH',
      url: '/v1/admin/accounts/acc_default/settings',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: { linkRedirectOrigins: [APP, 'http://localhost:3000'] },
    });
    expect(patched.statusCode).toBe(200);
  });
  afterAll(async () => {
    await svc.close();
    await smtp.close();
  });

  const send = (email: string, link: unknown, extra: Record<string, unknown> = {}) =>
    svc.post('/v1/contact/send-code', { channel: 'EMAIL', email, link, ...extra }, key);
  const get = (path: string, headers: Record<string, string> = {}) =>
    svc.app.inject({ method: 'GET', url: path, headers });
  const post = (path: string, headers: Record<string, string> = {}, payload?: string) =>
    svc.app.inject({ method: 'POST', url: path, headers, payload });

  it('the email carries the button and the code together, in HTML and text', async () => {
    const res = await send('ada-link@example.com', {});
    expect(res.status).toBe(200);
    const { link, html, code } = linkOf(smtp, 'ada-link@example.com');
    expect(html).toContain(`href="${link}"`);
    expect(html).toContain('Verify email address');
    expect(html).toContain(code);
  });

  it('GET shows the confirmation page, consumes nothing, with the headers of a page that runs no script', async () => {
    await send('grace-link@example.com', {});
    const { token } = linkOf(smtp, 'grace-link@example.com');
    for (let i = 0; i < 3; i++) {
      const page = await get(`/v1/links/${token}`);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['x-robots-tag']).toContain('noindex');
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('script-src');
      expect(page.body).toMatch(/<bdi dir="ltr">g\*+@example\.com<\/bdi>/);
      expect(page.body).toContain('<form method="post">');
      expect(page.body).not.toContain('<script');
    }
    const head = await svc.app.inject({ method: 'HEAD', url: `/v1/links/${token}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['referrer-policy']).toBe('no-referrer');
    const options = await svc.app.inject({ method: 'OPTIONS', url: `/v1/links/${token}` });
    expect(options.statusCode).toBe(405);
    expect(options.headers.allow).toBe('GET, HEAD, POST');
    // Still usable after every GET, HEAD and OPTIONS.
    const used = await post(`/v1/links/${token}`);
    expect(used.statusCode).toBe(200);
    expect(used.body).toContain('Email address verified');
  });

  it('POST verifies once: 303 to the redirect with requestId and status, then 410; the code no longer verifies', async () => {
    const sent = await send('alan-link@example.com', { redirectUrl: `${APP}/welcome?from=mail#top` });
    expect(sent.status).toBe(200);
    const requestId = sent.body.data.requestId as string;
    const { token, code } = linkOf(smtp, 'alan-link@example.com');
    const page = await get(`/v1/links/${token}`);
    expect(String(page.headers['content-security-policy'])).toContain(`form-action 'self' ${APP}`);
    const used = await post(
      `/v1/links/${token}`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      'a=1',
    );
    expect(used.statusCode).toBe(303);
    expect(used.headers.location).toBe(`${APP}/welcome?from=mail&requestId=${requestId}&status=verified#top`);
    const again = await post(`/v1/links/${token}`);
    expect(again.statusCode).toBe(410);
    expect(again.body).not.toContain('example.com');
    const gone = await get(`/v1/links/${token}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).not.toContain('@example.com');
    const verify = await svc.post('/v1/contact/verify-code', { requestId, code }, key);
    expect(verify.status).toBe(200);
    expect(verify.body.data).toMatchObject({ verified: false, status: 'verified' });
    // The resource says how it was verified.
    const resource = await svc.get(`/v1/contact/verifications/${requestId}`, key);
    expect(resource.body.data).toMatchObject({ status: 'verified', method: 'link' });
  });

  it('a code used first makes the link 410', async () => {
    const sent = await send('edsger-link@example.com', {});
    const { token, code } = linkOf(smtp, 'edsger-link@example.com');
    const verify = await svc.post(
      '/v1/contact/verify-code',
      { requestId: sent.body.data.requestId, code },
      key,
    );
    expect(verify.body.data.verified).toBe(true);
    expect((await post(`/v1/links/${token}`)).statusCode).toBe(410);
  });

  it('dual EMAIL + SMS: the link verifies the email and cancels the SMS sibling', async () => {
    const res = await svc.post(
      '/v1/contact/send-code',
      { channels: ['EMAIL', 'SMS'], email: 'dual-link@example.com', phone: '+14155550123', link: {} },
      key,
    );
    expect(res.status).toBe(200);
    const [email, sms] = res.body.data as Array<{ requestId: string }>;
    const { token } = linkOf(smtp, 'dual-link@example.com');
    expect(
      (await post(`/v1/links/${token}`, { 'content-type': 'application/json' }, '{not json')).statusCode,
    ).toBe(200);
    // The SMS code was erased with its request's settling: any code now finds it canceled.
    const viaSms = await svc.post(
      '/v1/contact/verify-code',
      { requestId: sms?.requestId, code: '123456' },
      key,
    );
    expect(viaSms.body.data).toMatchObject({ verified: false, status: 'canceled' });
    expect(email?.requestId).toBeDefined();
  });

  it('a POST takes any body and content type and ignores it; an oversized body is a clear 413', async () => {
    const bodies: Array<[string, string]> = [
      ['application/x-www-form-urlencoded', 'confirm=1&requestId=x'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      ],
      ['text/plain', 'hello'],
      ['application/json', '{"__proto__":{"x":1}}'],
      ['application/octet-stream', '\u0000\u0001\u0002'],
      ['no/such-type', ''],
    ];
    for (const [type, body] of bodies) {
      const email = `body-${bodies.findIndex(([t]) => t === type)}@example.com`;
      await send(email, {});
      const { token } = linkOf(smtp, email);
      const res = await post(`/v1/links/${token}`, { 'content-type': type }, body);
      expect(res.statusCode, type).toBe(200);
      expect(res.body, type).toContain('Email address verified');
    }
    await send('big-body@example.com', {});
    const { token } = linkOf(smtp, 'big-body@example.com');
    const big = await post(`/v1/links/${token}`, { 'content-type': 'text/plain' }, 'x'.repeat(20_000));
    expect(big.statusCode).toBe(413);
    // Refused before it was read: the link still works.
    expect((await post(`/v1/links/${token}`)).statusCode).toBe(200);
  });

  it('unknown, malformed, over-long and foreign tokens answer the 404 page, never an API error', async () => {
    const paths = [
      `/v1/links/${'A'.repeat(43)}`,
      '/v1/links/short',
      `/v1/links/${'A'.repeat(44)}`,
      `/v1/links/${'A'.repeat(5000)}`,
      '/v1/links/%E0%A4%A',
      '/v1/links/a%00b',
      `/v1/links/${'%2F'.repeat(20)}`,
      '/v1/links/',
      `/v1/links/${'A'.repeat(43)}/more`,
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await svc.app.inject({ method, url: path });
        expect(res.statusCode, `${method} ${path.slice(0, 40)}`).toBe(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain('Link not found');
      }
    }
    // Another deployment's link: a well-formed token hashed under another secret finds nothing.
    const other = Buffer.alloc(32, 7).toString('base64url');
    expect((await get(`/v1/links/${other}`, { 'accept-language': 'fr-CH, en;q=0.5' })).body).toContain(
      'Lien introuvable',
    );
  });

  it('send-code refuses a link without EMAIL, and redirects outside linkRedirectOrigins', async () => {
    const sms = await svc.post(
      '/v1/contact/send-code',
      { channel: 'SMS', phone: '+14155550124', link: {} },
      key,
    );
    expect(sms.status).toBe(400);
    expect(sms.body.error.details[0].field).toBe('link');
    const cases = [
      'https://evil.example.com/',
      '//evil.example.com',
      'https:evil.example.com',
      `${APP}.evil.com/`,
      `https://app.example.com@evil.com/`,
      'http://localhost@evil.com/',
      `https://evil.com\\@app.example.com`,
      'javascript:alert(1)',
      `${APP}/${'a'.repeat(2000)}`,
      `${APP}/\u0007`,
    ];
    for (const redirectUrl of cases) {
      const res = await send('mallory@example.com', { redirectUrl });
      expect(res.status, redirectUrl.slice(0, 60)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toMatch(/^link/);
    }
    const unknownField = await send('mallory@example.com', { redirect: APP });
    expect(unknownField.status).toBe(400);
  });

  it('analytics groupBy=method: link emails and code-only sends, each with its own conversion', async () => {
    // One more of each kind, so this holds whatever the tests before sent.
    await send('conv-link@example.com', {});
    await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'conv-code@example.com' }, key);
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const res = await svc.get(
      `/v1/admin/analytics?from=${encodeURIComponent(from)}&interval=day&groupBy=method`,
      ADMIN_TOKEN,
    );
    expect(res.status).toBe(200);
    const byGroup = new Map<string, { sent: number; verified: number }>();
    for (const b of res.body.data.buckets as Array<{ group: string; sent: number; verified: number }>) {
      const seen = byGroup.get(b.group) ?? { sent: 0, verified: 0 };
      byGroup.set(b.group, { sent: seen.sent + b.sent, verified: seen.verified + b.verified });
    }
    // The link emails of this file: 13 sent (the dual's email among them), 11 verified (10 by
    // their link, 1 by its code). Code-only: the dual's SMS (canceled by the link) and the one above.
    expect(byGroup.get('link')).toEqual({ sent: 13, verified: 11 });
    expect(byGroup.get('code')).toEqual({ sent: 2, verified: 0 });
  });

  it('GET …/limits shows linkRedirectOrigins with its source; a bad origin is refused', async () => {
    const limits = await svc.get('/v1/admin/accounts/acc_default/limits', ADMIN_TOKEN);
    expect(limits.body.data.links).toEqual([
      expect.objectContaining({
        name: 'linkRedirectOrigins',
        value: [APP, 'http://localhost:3000'],
        source: 'account',
        default: [],
      }),
    ]);
    const bad = await svc.app.inject({
      method: 'PATCH',
      url: '/v1/admin/accounts/acc_default/settings',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: { linkRedirectOrigins: ['https://app.example.com/path', 'http://example.com'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.map((d: { field: string }) => d.field)).toEqual([
      'linkRedirectOrigins[0]',
      'linkRedirectOrigins[1]',
    ]);
  });
});

describe('Magic links without PUBLIC_BASE_URL', () => {
  eachStore('send-code', (start) => {
    it('refuses link with 400 VALIDATION_ERROR naming link and the setting', async () => {
      const svc = await start();
      try {
        const key = await svc.createKey({ channels: ['EMAIL'] });
        const res = await svc.post(
          '/v1/contact/send-code',
          { channel: 'EMAIL', email: 'x@example.com', link: {} },
          key,
        );
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.details[0].field).toBe('link');
        expect(res.body.error.details[0].message).toContain('PUBLIC_BASE_URL');
      } finally {
        await svc.close();
      }
    });
  });
});
