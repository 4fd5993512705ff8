import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/app.js';
import { inlined } from '../../support/openapi.js';

/** The OpenAPI document describes the analytics, contact and breaker routes, data.risk and the new codes. */
describe('OpenAPI: analytics, contacts, risk and breakers', () => {
  let svc: TestService;
  let doc: any;
  beforeAll(async () => {
    svc = await startTestService();
    doc = (await svc.get('/openapi.json')).body;
  });
  afterAll(() => svc.close());

  it('lists every route with its parameters under the analytics tag', () => {
    for (const [path, method] of [
      ['/v1/admin/analytics', 'get'],
      ['/v1/admin/contacts', 'get'],
      ['/v1/admin/contacts/{id}', 'get'],
      ['/v1/admin/contacts/{id}/block', 'post'],
      ['/v1/admin/contacts/{id}/unblock', 'post'],
      ['/v1/admin/breakers', 'get'],
      ['/v1/admin/breakers/{country}/reset', 'post'],
    ] as const) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags).toEqual(['analytics']);
      expect(op.security).toEqual([{ adminToken: [] }, { dashboardSession: [] }]);
    }
    const params = doc.paths['/v1/admin/analytics'].get.parameters.map((p: { name: string }) => p.name);
    expect(params.sort()).toEqual(['accountId', 'from', 'groupBy', 'interval', 'mode', 'to']);
    const bucket = doc.paths['/v1/admin/analytics'].get.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(inlined(doc, bucket))).toContain('p90SecondsToVerify');
  });

  it('has data.risk on send entries and the new error codes in the closed list', () => {
    const text = JSON.stringify(doc);
    expect(text).toContain('"CONTACT_BLOCKED"');
    expect(text).toContain('"RISK_TOO_HIGH"');
    expect(text).toContain('prefix_burst');
    expect(text).toContain('pumpingBreakers');
  });
});
