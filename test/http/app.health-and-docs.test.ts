import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/http/errors.js';
import { startTestService, type TestService } from '../support/app.js';
import { deref } from '../support/openapi.js';

describe('health, OpenAPI and unknown routes', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  it('reports health without a key', async () => {
    const res = await svc.get('/health');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({
      status: 'ok',
      version: expect.any(String),
      uptimeSeconds: expect.any(Number),
      services: { database: 'up', rateLimitStore: 'up' },
    });
    for (const channel of ['EMAIL', 'SMS', 'WHATSAPP']) {
      expect(res.body.channels[channel]).toEqual({
        operational: true,
        providers: [{ name: 'outbox', state: 'up' }],
        liveCodes: 'outbox',
        note: `Live ${channel} codes go to the outbox and are not delivered: no provider is configured (LIVE_OUTBOX=allow).`,
      });
    }
  });

  it('answers 503 with status down when the database is gone', async () => {
    const other = await startTestService();
    await other.store.close();
    const res = await other.get('/health');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'down', services: { database: 'down' } });
    await other.app.close();
  });

  it('serves an OpenAPI 3.1 document that documents every endpoint and error code', async () => {
    const res = await svc.get('/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/v1/contact/send-code',
      '/v1/contact/verify-code',
      '/health',
      '/v1/admin/accounts',
      '/v1/admin/api-keys',
      '/v1/admin/api-keys/{id}',
      '/v1/admin/api-keys/{id}/rotate',
      '/v1/admin/outbox',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    const send = doc.paths['/v1/contact/send-code'].post;
    expect(Object.keys(send.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '413', '415', '429', '500', '502', '503']),
    );
    const text = JSON.stringify(doc);
    for (const code of Object.keys(ERROR_STATUS)) expect(text, code).toContain(code);
    expect(
      deref(doc, send.requestBody.content['application/json'].schema).properties.whatsappNumber,
    ).toBeDefined();
  });

  it('serves a readable reference page at /docs', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self';");
    // One address for the document: swagger-ui's own copy points to it.
    const copy = await svc.app.inject({ method: 'GET', url: '/docs/json' });
    expect([copy.statusCode, copy.headers.location]).toEqual([308, '../openapi.json']);
  });

  it('answers unknown routes with 404 NOT_FOUND in the error shape', async () => {
    const res = await svc.get('/v1/contact/nope');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('dashboard', () => {
  it('answers 503 in the error shape, naming the build step, while the front end is not built', async () => {
    const svc = await startTestService({}, { dashboardDir: join(tmpdir(), 'cv-no-such-dashboard') });
    try {
      for (const url of ['/dashboard', '/dashboard/', '/dashboard/accounts']) {
        const page = await svc.app.inject({ method: 'GET', url });
        expect(page.statusCode, url).toBe(503);
        expect(page.json().error.code).toBe('UNAVAILABLE');
        expect(page.json().error.message).toContain('npm run build');
        expect(page.headers['cache-control']).toBe('no-store');
        expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
      }
    } finally {
      await svc.close();
    }
  });
});
