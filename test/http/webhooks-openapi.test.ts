import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/events.js';
import { startTestService, type TestService } from '../support/app.js';

describe('OpenAPI document: webhooks and Idempotency-Key', () => {
  let svc: TestService;
  let doc: any;
  beforeAll(async () => {
    svc = await startTestService();
    doc = (await svc.get('/openapi.json')).body;
  });
  afterAll(() => svc?.close());

  it('describes every event in the OpenAPI 3.1 webhooks section, signed with the Standard Webhooks headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      const post = doc.webhooks[type].post;
      expect(post.parameters.map((p: { name: string }) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      const body = post.requestBody.content['application/json'];
      expect(body.schema.properties.type.const).toBe(type);
      expect(body.example.type).toBe(type);
      expect(JSON.stringify(body.example)).not.toMatch(/\b\d{6}\b/);
    }
  });

  it('documents the Idempotency-Key header and its 409 and 422 answers on send-code', () => {
    const send = doc.paths['/v1/contact/send-code'].post;
    const header = send.parameters.find((p: { name: string }) => p.name === 'idempotency-key');
    expect(header).toMatchObject({ in: 'header', required: false });
    expect(Object.keys(send.responses)).toEqual(expect.arrayContaining(['409', '422']));
    const text = JSON.stringify(doc);
    expect(text).toContain('IDEMPOTENCY_KEY_REUSED');
    expect(text).toContain('IDEMPOTENCY_KEY_IN_USE');
  });

  it('documents the admin webhook routes', () => {
    for (const [path, method] of [
      ['/v1/admin/webhooks', 'post'],
      ['/v1/admin/webhooks', 'get'],
      ['/v1/admin/webhooks/{id}', 'delete'],
      ['/v1/admin/webhooks/{id}', 'patch'],
      ['/v1/admin/webhooks/{id}/deliveries', 'get'],
      ['/v1/admin/webhooks/{id}/deliveries/{deliveryId}/replay', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/v1/admin/webhooks'].post.responses['201']).toBeDefined();
  });
});
