import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { eachStore } from '../support/each-store.js';

/** A small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const STRINGS = [
  '',
  ' ',
  'EMAIL',
  'SMS',
  'WHATSAPP',
  'CALL',
  'TEXT',
  'a@example.com',
  '+14155552671',
  '+447400123456',
  '+19005550123',
  '+',
  '+0',
  '00',
  'us',
  'ZZ',
  '\u0000',
  '\ud800',
  '💥'.repeat(40),
  'x'.repeat(300),
  '<script>',
  '__proto__',
  'constructor',
  '0000',
  '123456',
  '0'.repeat(11),
  '1e6',
  '018f5c0e-7b7a-4c1e-9d3a-1a2b3c4d5e6f',
];

/** Arrays nested `levels` deep, `[[[…]]]`: deeper than 32 is refused, far deeper broke recursion. */
const nested = (levels: number): unknown => {
  let out: unknown = [];
  for (let i = 1; i < levels; i++) out = [out];
  return out;
};
const DEPTHS = [30, 31, 32, 33, 100, 3000];

function value(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * 10);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return Math.floor(next() * 2e6) - 1e6;
    case 3:
      return next() * 1e308;
    case 4:
      return depth < 2 ? Array.from({ length: Math.floor(next() * 3) }, () => value(next, depth + 1)) : [];
    case 5:
      return depth < 2 ? { a: value(next, depth + 1) } : {};
    case 6:
      return nested(DEPTHS[Math.floor(next() * DEPTHS.length)] ?? 1);
    default:
      return STRINGS[Math.floor(next() * STRINGS.length)];
  }
}

const SEND_FIELDS = [
  'channel',
  'channels',
  'email',
  'phone',
  'whatsappNumber',
  'phoneNumber',
  'country',
  'deliveryType',
  'purpose',
  'customMessage',
];
const VERIFY_FIELDS = ['requestId', 'otpCode', 'code'];

/** `levels` of arrays, `[[[…]]]`, as raw JSON. */
const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/** `levels` of objects, `{"a":{"a":…{}}}`, as raw JSON. */
const deepObject = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);

eachStore('no input produces a 500', (start) => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await start({
      RESEND_COOLDOWN_SECONDS: '0',
      SENDS_PER_DESTINATION_PER_HOUR: '1000',
      KEY_SEND_PER_SECOND: '100000',
      KEY_VERIFY_PER_SECOND: '100000',
    });
    key = await svc.createKey();
  });
  afterAll(() => svc.close());

  const body = (next: () => number, fields: string[]) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) if (next() < 0.5) out[f] = value(next);
    return out;
  };

  it('refuses JSON nested deeper than 32 levels with 400 on every JSON route, the sign-in included', async () => {
    const doc = svc.app.swagger() as { paths: Record<string, Record<string, { requestBody?: any }>> };
    const routes = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => op.requestBody?.content?.['application/json'])
        .map(([method, op]) => ({ method: method.toUpperCase() as 'POST', path, op })),
    );
    // Every route that takes JSON is listed, the unauthenticated sign-in among them.
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.map((r) => r.path)).toContain('/dashboard/api/session');
    // 4,000 levels in 8 KB; 8,000 fill the 16 KiB body limit.
    const deep = [
      deepArray(4000),
      deepArray(8000),
      deepObject(2500),
      deepArray(33),
      `{"name":${deepArray(32)}}`,
    ];
    expect(deep[0]).toHaveLength(8000);
    for (const route of routes) {
      const url = route.path.replace(/\{[^}]+\}/g, 'acc_default');
      const token = url.startsWith('/v1/contact/') ? key : url.startsWith('/dashboard/') ? null : ADMIN_TOKEN;
      const send = (payload: string) =>
        svc.app.inject({
          method: route.method,
          url,
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          payload,
        });
      for (const payload of deep) {
        const res = await send(payload);
        const what = `${route.method} ${url} with ${payload.length} bytes`;
        expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
        expect(res.json().error.code, what).toBe('VALIDATION_ERROR');
        expect(res.json().error.details, what).toEqual([
          { field: 'body', message: 'JSON nesting deeper than 32 levels is refused' },
        ]);
      }
      // 32 levels are not refused for their depth (the route's schema may still refuse them).
      const allowed = await send(deepArray(32));
      expect(allowed.statusCode, `${route.method} ${url}`).toBeLessThan(500);
      expect(allowed.body).not.toContain('JSON nesting');
    }
  });

  it.each([1, 2, 3])('send-code, verify-code and admin bodies (seed %i)', async (seed) => {
    const next = rng(seed * 7919);
    for (let i = 0; i < 300; i++) {
      const send = body(next, SEND_FIELDS);
      const sent = await svc.post('/v1/contact/send-code', send, key);
      expect(sent.status, JSON.stringify(send)).toBeLessThan(500);
      const verify = body(next, VERIFY_FIELDS);
      const verified = await svc.post('/v1/contact/verify-code', verify, key);
      expect(verified.status, JSON.stringify(verify)).toBeLessThan(500);
      const admin = { name: value(next), channels: value(next), accountId: value(next), test: value(next) };
      const created = await svc.post('/v1/admin/api-keys', admin, ADMIN_TOKEN);
      expect(created.status, JSON.stringify(admin)).toBeLessThan(500);
    }
  });
});

it('refuses a deeply nested delivery receipt before reading it (Vonage parses before its signature)', async () => {
  const svc = await startTestService({
    VONAGE_API_KEY: 'vonage-key',
    VONAGE_API_SECRET: 'vonage-secret',
    VONAGE_FROM: 'Verify',
    VONAGE_BASE_URL: 'http://127.0.0.1:9',
  });
  try {
    const res = await svc.app.inject({
      method: 'POST',
      url: '/v1/callbacks/vonage',
      headers: { 'content-type': 'application/json' },
      payload: `{"messageId":${deepArray(8000)}}`,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
  } finally {
    await svc.close();
  }
});
