import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/http/errors.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { deref, type OpenApiDoc } from '../support/openapi.js';

/**
 * The OpenAPI document is the single description of the API that clients are generated from: every
 * route the service registers is in it, with an operationId and its successful answer, and every
 * body is a named schema.
 */

/** Registered routes the document leaves out on purpose, and why. */
const UNDOCUMENTED: Array<[RegExp, string]> = [
  [/^\/openapi\.json$/, 'the document itself'],
  [/^\/docs(\/.*)?$/, "swagger-ui's reference page and its files, which read the document"],
  [/^\/dashboard\/?(\*)?$/, "the dashboard's built front end (HTML, scripts), not an API"],
  [/^\/metrics$/, 'Prometheus text for scrapers (docs/deployment.md), not a call of the API'],
];

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Every route as Fastify registered it: `printRoutes` draws a tree whose lines add a segment to
 * their parent's path and list the methods that path answers.
 */
function registeredRoutes(tree: string): Array<{ method: string; path: string }> {
  const routes: Array<{ method: string; path: string }> = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim().toLowerCase())) {
      if (method) routes.push({ method, path });
    }
  }
  return routes;
}

const documented = (doc: OpenApiDoc) =>
  Object.entries(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(
    ([path, operations]) =>
      Object.entries(operations)
        .filter(([method]) => (METHODS as readonly string[]).includes(method))
        .map(([method, operation]) => ({ method, path, operation })),
  );

describe('the OpenAPI document covers every route', () => {
  let svc: TestService;
  let doc: OpenApiDoc;
  let routes: Array<{ method: string; path: string }>;
  beforeAll(async () => {
    svc = await startTestService();
    doc = (await svc.get('/openapi.json')).body;
    routes = registeredRoutes(svc.app.printRoutes({ commonPrefix: false }));
  });
  afterAll(() => svc.close());

  it('documents every registered route with an operationId and a 2xx answer with its schema', () => {
    // HEAD is Fastify's own twin of each GET; OPTIONS of a magic link only refuses (405).
    const api = routes.filter(
      (r) =>
        r.method !== 'head' &&
        r.method !== 'options' &&
        !UNDOCUMENTED.some(([pattern]) => pattern.test(r.path)),
    );
    expect(api.length, 'routes found in printRoutes').toBeGreaterThan(35);
    const problems: string[] = [];
    for (const { method, path } of api) {
      const operation = doc.paths[path]?.[method];
      if (!operation) {
        problems.push(`${method.toUpperCase()} ${path}: not in the document`);
        continue;
      }
      if (!operation.operationId) problems.push(`${method.toUpperCase()} ${path}: no operationId`);
      const success = Object.entries(operation.responses ?? {}).filter(([status]) => /^2/.test(status));
      if (success.length === 0) problems.push(`${method.toUpperCase()} ${path}: no 2xx answer`);
      for (const [status, answer] of success as Array<
        [string, { content?: Record<string, { schema?: unknown }> }]
      >) {
        // 204 has no body; every other success describes its body.
        if (status === '204') continue;
        const media = Object.values(answer.content ?? {});
        if (media.length === 0 || media.some((m) => !m.schema))
          problems.push(`${method.toUpperCase()} ${path}: ${status} has no schema`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('documents its error answers: every operation has one, a 401 where it asks for credentials', () => {
    const problems: string[] = [];
    for (const { method, path, operation } of documented(doc)) {
      const op = operation as { security?: unknown[]; responses: Record<string, unknown> };
      const statuses = Object.keys(op.responses);
      // /health takes no input: its one error answer is 503.
      if (!statuses.some((s) => /^[45]/.test(s)))
        problems.push(`${method.toUpperCase()} ${path}: no error answer`);
      if (op.security?.length && !statuses.includes('401'))
        problems.push(`${method.toUpperCase()} ${path}: asks for credentials but documents no 401`);
    }
    expect(problems).toEqual([]);
  });

  it('answers a request without credentials or body with a status the document lists', async () => {
    const undocumented: string[] = [];
    for (const { method, path, operation } of documented(doc)) {
      const url = path.replace(/\{[^}]+\}/g, 'unknown');
      const res = await svc.app.inject({ method: method.toUpperCase() as 'GET', url });
      const statuses = Object.keys((operation as { responses: Record<string, unknown> }).responses);
      if (!statuses.includes(String(res.statusCode)))
        undocumented.push(
          `${method.toUpperCase()} ${path}: ${res.statusCode} (documents ${statuses.join(', ')})`,
        );
    }
    expect(undocumented).toEqual([]);
  });

  it('documents only routes that exist, and leaves out the undocumented ones', () => {
    const registered = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const { method, path } of documented(doc))
      expect(registered, `${method} ${path}`).toContain(`${method} ${path}`);
    for (const path of Object.keys(doc.paths)) {
      expect(
        UNDOCUMENTED.some(([pattern]) => pattern.test(path)),
        path,
      ).toBe(false);
    }
  });

  it('gives operations unique lower camel case operationIds', () => {
    const ids = documented(doc).map((d) => d.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    const byRoute = Object.fromEntries(
      documented(doc).map((d) => [`${d.method} ${d.path}`, d.operation.operationId]),
    );
    expect(byRoute).toMatchObject({
      'post /v1/contact/send-code': 'sendCode',
      'post /v1/contact/verify-code': 'verifyCode',
      'get /health': 'getHealth',
      'post /v1/admin/api-keys': 'createApiKey',
      'get /v1/admin/outbox': 'listOutboxMessages',
    });
  });

  it('names every body: request and success schemas are references to named components', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of names) expect(name, 'a component name').toMatch(/^[A-Z][A-Za-z0-9]*$/);
    const inline: string[] = [];
    for (const { method, path, operation } of documented(doc)) {
      const op = operation as {
        requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
        responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
      };
      const json = [
        ['request', op.requestBody?.content['application/json']?.schema],
        ...Object.entries(op.responses).map(([status, r]) => [
          status,
          r.content?.['application/json']?.schema,
        ]),
      ] as Array<[string, { $ref?: string } | undefined]>;
      for (const [which, schema] of json) {
        if (schema && !schema.$ref?.startsWith('#/components/schemas/'))
          inline.push(`${method.toUpperCase()} ${path} ${which}`);
      }
    }
    expect(inline).toEqual([]);
    // Every reference names a schema that is there.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1],
    );
    for (const name of new Set(refs)) expect(names, `$ref ${name}`).toContain(name);
    expect(names).toEqual(
      expect.arrayContaining([
        'ErrorResponse',
        'ErrorCode',
        'Channel',
        'VerificationStatus',
        'DeliveryType',
        'SendCodeRequest',
        'SendCodeResponse',
        'SendCodeEntry',
        'VerifyCodeRequest',
        'VerifyCodeResponse',
        'Health',
        'OutboxMessage',
        'ApiKey',
        'CreatedApiKey',
        'Account',
      ]),
    );
  });

  it('lists the whole closed list of error codes in the ErrorCode enum of every error answer', () => {
    expect(doc.components.schemas.ErrorCode.enum).toEqual(ERROR_CODES);
    const error = deref(doc, doc.components.schemas.ErrorResponse.properties.error);
    expect(error.properties.code).toEqual({ $ref: '#/components/schemas/ErrorCode' });
    for (const { method, path, operation } of documented(doc)) {
      for (const [status, answer] of Object.entries(
        (operation as { responses: Record<string, { content?: Record<string, { schema: unknown }> }> })
          .responses,
      )) {
        // /health answers its own body with 503: `status: "down"`.
        if (Number(status) < 400 || path === '/health') continue;
        // A magic link's pages are opened by a person in a browser: their errors are pages too.
        if (path.startsWith('/v1/links/')) {
          expect(Object.keys(answer.content ?? {}), `${method} ${path} ${status}`).toEqual(['text/html']);
          continue;
        }
        expect(answer.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({
          $ref: '#/components/schemas/ErrorResponse',
        });
      }
    }
  });

  it('declares the security of every operation and event; one open to anyone says what it checks instead', () => {
    const operations = [
      ...documented(doc),
      ...Object.entries(doc.webhooks as Record<string, { post: unknown }>).map(([event, { post }]) => ({
        method: 'event',
        path: event,
        operation: post,
      })),
    ];
    const problems: string[] = [];
    for (const { method, path, operation } of operations) {
      const op = operation as { security?: unknown[]; description?: string };
      const name = `${method.toUpperCase()} ${path}`;
      if (!Array.isArray(op.security))
        problems.push(`${name}: no security (say \`security: []\` if anyone may call it)`);
      else if (
        op.security.length === 0 &&
        method !== 'event' &&
        !/^Open to anyone: /.test(op.description ?? '')
      )
        problems.push(
          `${name}: open to anyone without saying what it checks (openToAnyone() in src/http/openapi.ts)`,
        );
    }
    expect(problems).toEqual([]);
    // A provider's callback names the signature it checks.
    for (const path of Object.keys(doc.paths).filter((p) => p.startsWith('/v1/callbacks/')))
      for (const op of Object.values(doc.paths[path]) as Array<{ description: string }>)
        expect(op.description, path).toMatch(/signature|token|api-key/i);
  });

  it("names the license, package.json's", () => {
    const { license } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(doc.info.license).toEqual({ name: license, identifier: license });
  });

  it('an action that reads no fields takes no body or {}, and refuses a field, as documented', async () => {
    const actions = documented(doc).filter(
      ({ operation }) =>
        (operation as any).requestBody?.content?.['application/json']?.schema?.$ref ===
        '#/components/schemas/NoFields',
    );
    expect(actions.map((a) => a.operation.operationId).sort()).toEqual(
      expect.arrayContaining([
        'cancelVerification',
        'replayWebhookDelivery',
        'rotateApiKey',
        'unblockContact',
      ]),
    );
    const apiKey = await svc.createKey();
    for (const { method, path, operation } of actions) {
      expect((operation as any).requestBody.required, path).toBe(false);
      // An id no record has, well-formed for every route (a requestId must be a UUID).
      const url = path.replace(/\{[^}]+\}/g, '00000000-0000-7000-8000-000000000000');
      const token = (operation as any).security?.some((s: object) => 'apiKey' in s) ? apiKey : ADMIN_TOKEN;
      const call = (payload?: unknown) =>
        svc.app.inject({
          method: method.toUpperCase() as 'POST',
          url,
          headers: {
            authorization: `Bearer ${token}`,
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          },
          payload: payload === undefined ? undefined : JSON.stringify(payload),
        });
      // Past validation, the id is unknown.
      expect((await call()).statusCode, `${path} without a body`).toBe(404);
      expect((await call({})).statusCode, `${path} with {}`).toBe(404);
      const field = await call({ reason: 'a field it does not read' });
      expect([field.statusCode, field.json().error.code], `${path} with a field`).toEqual([
        400,
        'VALIDATION_ERROR',
      ]);
      expect(JSON.stringify(field.json().error)).toContain('reason');
    }
  });

  it('keeps the description of a field beside the reference to its named type', () => {
    const entry = doc.components.schemas.SendCodeEntry.properties.deliveryType;
    expect(entry).toEqual({ $ref: '#/components/schemas/DeliveryType', description: 'WHATSAPP only.' });
    // An allOf of one reference is how a description travels through @fastify/swagger, not a type.
    expect(JSON.stringify(doc)).not.toMatch(/"allOf":\[\{"\$ref":"[^"]+"\}\]/);
  });
});

describe('the servers of the OpenAPI document', () => {
  it('is the origin of the document when PUBLIC_BASE_URL is not set', async () => {
    const svc = await startTestService();
    try {
      const doc = (await svc.get('/openapi.json')).body;
      expect(doc.servers).toEqual([{ url: '/', description: expect.stringContaining('PUBLIC_BASE_URL') }]);
    } finally {
      await svc.close();
    }
  });

  it('is PUBLIC_BASE_URL when the deployment names it, and the paths keep their own prefix', async () => {
    const svc = await startTestService({ PUBLIC_BASE_URL: 'https://verify.example.com/v1' });
    try {
      const doc = (await svc.get('/openapi.json')).body;
      expect(doc.servers).toEqual([
        { url: 'https://verify.example.com/v1', description: expect.stringContaining('PUBLIC_BASE_URL') },
      ]);
      expect(doc.paths['/v1/contact/send-code']).toBeDefined();
    } finally {
      await svc.close();
    }
  });
});
