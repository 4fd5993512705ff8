import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../src/domain/accounts.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import type { OpenApiDoc } from '../support/openapi.js';

/**
 * The answers are what the document says: each call below is checked against the schema the
 * document gives for its path, method and status (JSON Schema 2020-12, as OpenAPI 3.1 reads it).
 * Clients are generated from these schemas, so an answer they do not describe breaks a client.
 */

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);

/** Every setting an account can hold, branding with templates included. */
const FULL_SETTINGS = {
  codeLength: 8,
  codeTtlSeconds: 900,
  maxAttempts: 3,
  resendCooldownSeconds: 10,
  sendsPerDestinationPerHour: 7,
  failuresPerDestinationPerDay: 30,
  keySendPerSecond: 50,
  keyVerifyPerSecond: 60,
  countrySendsPerHour: 500,
  riskThreshold: 90,
  pumpingMinSends: 40,
  pumpingMinConversion: 0.25,
  allowedCountries: ['US', 'GB'],
  branding: {
    brandName: 'Acme',
    productName: 'Acme Pay',
    color: '#123456',
    logoUrl: 'https://cdn.example.com/logo.png',
    supportUrl: 'https://example.com/help',
    emailFooter: 'Acme Inc.',
    templates: {
      es: { SMS: '{code}: tu código de {product}', EMAIL: { subject: '{code}', text: 'Código {code}' } },
      de: { WHATSAPP: '{code} ist dein Code' },
    },
  },
};

type Answer = { status: number; body: unknown };

describe('answers conform to the OpenAPI document', () => {
  let svc: TestService;
  let doc: OpenApiDoc;
  let ajv: Ajv2020;
  const checked = new Set<string>();

  /** Validates an answer of `method path` against the document's schema for its status. */
  function conforms(method: string, path: string, answer: Answer) {
    const operation = doc.paths[path]?.[method];
    expect(operation, `${method} ${path} is documented`).toBeDefined();
    const response = operation.responses[String(answer.status)];
    expect(
      response,
      `${method} ${path} documents ${answer.status}: ${JSON.stringify(answer.body)}`,
    ).toBeDefined();
    const schema = response.content?.['application/json']?.schema;
    if (!schema) {
      expect(answer.body, `${method} ${path} ${answer.status} has no body`).toBeFalsy();
      return;
    }
    const validate = ajv.compile({ $ref: `openapi${schema.$ref}` });
    const ok = validate(answer.body);
    expect(ok, `${method} ${path} ${answer.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    checked.add(`${method} ${path}`);
  }

  const call = async (
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` },
  ): Promise<Answer> => {
    const res = await svc.app.inject({
      method: method as 'GET',
      url,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };

  beforeAll(async () => {
    svc = await startTestService({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
    doc = (await svc.get('/openapi.json')).body;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addFormat('binary', true);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
  });
  afterAll(() => svc.close());

  it('accounts: an account holding every setting comes back whole', async () => {
    const created = await call('POST', '/v1/admin/accounts', { name: 'full', settings: FULL_SETTINGS });
    conforms('post', '/v1/admin/accounts', created);
    const id = (created.body as { data: { id: string } }).data.id;
    const logo = await svc.app.inject({
      method: 'PUT',
      url: `/v1/admin/accounts/${id}/logo`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'image/png' },
      payload: PNG,
    });
    conforms('put', '/v1/admin/accounts/{id}/logo', { status: logo.statusCode, body: logo.json() });
    const read = await call('GET', `/v1/admin/accounts/${id}`);
    conforms('get', '/v1/admin/accounts/{id}', read);
    // Nothing the account holds is lost by the answer's schema.
    expect((read.body as { data: { settings: unknown } }).data.settings).toEqual({
      ...FULL_SETTINGS,
      branding: {
        ...FULL_SETTINGS.branding,
        logo: {
          contentType: 'image/png',
          bytes: PNG.length,
          url: expect.stringContaining(`/v1/branding/${id}/logo`),
        },
      },
    });
    conforms('get', '/v1/admin/accounts', await call('GET', '/v1/admin/accounts'));
    conforms('get', '/v1/admin/accounts/{id}/limits', await call('GET', `/v1/admin/accounts/${id}/limits`));
    conforms(
      'patch',
      '/v1/admin/accounts/{id}/settings',
      await call('PATCH', `/v1/admin/accounts/${id}/settings`, { codeLength: null }),
    );
    conforms(
      'post',
      '/v1/admin/accounts/{id}/branding/preview',
      await call('POST', `/v1/admin/accounts/${id}/branding/preview`, { locale: 'es' }),
    );
    conforms('get', '/v1/admin/branding/templates', await call('GET', '/v1/admin/branding/templates'));
    conforms('get', '/v1/admin/accounts/{id}', await call('GET', '/v1/admin/accounts/acc_nope'));
    conforms('post', '/v1/admin/accounts', await call('POST', '/v1/admin/accounts', { name: '' }));
  });

  it('API keys: created, listed, changed, rotated and revoked', async () => {
    const created = await call('POST', '/v1/admin/api-keys', { name: 'k', channels: ['EMAIL'], test: true });
    conforms('post', '/v1/admin/api-keys', created);
    const { id, key } = (created.body as { data: { id: string; key: string } }).data;
    expect(key).toMatch(/^cvk_test_/);
    conforms('get', '/v1/admin/api-keys', await call('GET', '/v1/admin/api-keys'));
    conforms(
      'patch',
      '/v1/admin/api-keys/{id}',
      await call('PATCH', `/v1/admin/api-keys/${id}`, { name: 'k2' }),
    );
    const rotated = await call('POST', `/v1/admin/api-keys/${id}/rotate`);
    conforms('post', '/v1/admin/api-keys/{id}/rotate', rotated);
    expect((rotated.body as { data: { replaces: string } }).data.replaces).toBe(id);
    const newId = (rotated.body as { data: { id: string } }).data.id;
    conforms('delete', '/v1/admin/api-keys/{id}', await call('DELETE', `/v1/admin/api-keys/${newId}`));
    conforms('delete', '/v1/admin/api-keys/{id}', await call('DELETE', `/v1/admin/api-keys/${newId}`));
    conforms('get', '/v1/admin/api-keys', await call('GET', '/v1/admin/api-keys', undefined, {}));
  });

  it('send, verify, outbox, health, contacts and analytics', async () => {
    const key = await svc.createKey({ test: true });
    const auth = { authorization: `Bearer ${key}` };
    const single = await call(
      'POST',
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: 'ann@example.com' },
      auth,
    );
    conforms('post', '/v1/contact/send-code', single);
    const dual = await call(
      'POST',
      '/v1/contact/send-code',
      { channels: ['SMS', 'WHATSAPP'], phone: '+14155552671', deliveryType: 'TEXT' },
      auth,
    );
    conforms('post', '/v1/contact/send-code', dual);
    conforms(
      'post',
      '/v1/contact/send-code',
      await call('POST', '/v1/contact/send-code', { channel: 'FAX' }, auth),
    );
    const requestId = (single.body as { data: { requestId: string } }).data.requestId;
    conforms(
      'post',
      '/v1/contact/verify-code',
      await call('POST', '/v1/contact/verify-code', { requestId, otpCode: '000000' }, auth),
    );
    const code = await svc.lastCode('ann@example.com');
    conforms(
      'post',
      '/v1/contact/verify-code',
      await call('POST', '/v1/contact/verify-code', { requestId, otpCode: code }, auth),
    );
    conforms('get', '/v1/admin/outbox', await call('GET', '/v1/admin/outbox?to=ann@example.com'));
    conforms('get', '/v1/admin/outbox', await call('GET', `/v1/admin/outbox?requestId=${requestId}`));
    conforms('get', '/v1/admin/outbox', await call('GET', '/v1/admin/outbox?requestId=ann'));
    conforms('get', '/health', await call('GET', '/health', undefined, {}));

    const found = await call('GET', `/v1/admin/contacts?accountId=${DEFAULT_ACCOUNT_ID}&q=ann@`);
    conforms('get', '/v1/admin/contacts', found);
    const recent = await call('GET', `/v1/admin/contacts?accountId=${DEFAULT_ACCOUNT_ID}&mode=test&limit=1`);
    conforms('get', '/v1/admin/contacts', recent);
    expect((recent.body as { data: unknown[] }).data).toHaveLength(1);
    const contacts = (found.body as { data: Array<{ id: string }> }).data;
    // The contact profile is written off the request path on some stores: it may come later.
    if (contacts[0]) {
      const contactId = contacts[0].id;
      conforms('get', '/v1/admin/contacts/{id}', await call('GET', `/v1/admin/contacts/${contactId}`));
      conforms(
        'post',
        '/v1/admin/contacts/{id}/block',
        await call('POST', `/v1/admin/contacts/${contactId}/block`, { reason: 'test' }),
      );
      conforms(
        'post',
        '/v1/admin/contacts/{id}/unblock',
        await call('POST', `/v1/admin/contacts/${contactId}/unblock`),
      );
    }
    conforms(
      'get',
      '/v1/admin/analytics',
      await call(
        'GET',
        `/v1/admin/analytics?from=${new Date(Date.now() - 86_400_000).toISOString()}&groupBy=channel`,
      ),
    );
    conforms('get', '/v1/admin/breakers', await call('GET', '/v1/admin/breakers'));
  });

  it('webhook endpoints and the dashboard session', async () => {
    const created = await call('POST', '/v1/admin/webhooks', {
      url: 'http://127.0.0.1:9/hooks',
      events: ['verification.verified'],
    });
    conforms('post', '/v1/admin/webhooks', created);
    const id = (created.body as { data: { id: string } }).data.id;
    conforms('get', '/v1/admin/webhooks', await call('GET', '/v1/admin/webhooks'));
    conforms('get', '/v1/admin/webhooks/{id}', await call('GET', `/v1/admin/webhooks/${id}`));
    conforms(
      'patch',
      '/v1/admin/webhooks/{id}',
      await call('PATCH', `/v1/admin/webhooks/${id}`, { enabled: false }),
    );
    conforms(
      'get',
      '/v1/admin/webhooks/{id}/deliveries',
      await call('GET', `/v1/admin/webhooks/${id}/deliveries`),
    );
    conforms('delete', '/v1/admin/webhooks/{id}', await call('DELETE', `/v1/admin/webhooks/${id}`));

    const signIn = await call(
      'POST',
      '/dashboard/api/session',
      { token: ADMIN_TOKEN },
      { origin: 'http://localhost' },
    );
    conforms('post', '/dashboard/api/session', signIn);
    conforms('get', '/dashboard/api/session', await call('GET', '/dashboard/api/session', undefined, {}));
    expect(checked.size).toBeGreaterThan(25);
  });
});
