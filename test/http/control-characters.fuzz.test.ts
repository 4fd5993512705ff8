import { afterAll, beforeAll, expect, it } from 'vitest';
import { findControls } from '../../src/http/control-characters.js';
import type { ErrorDetail } from '../../src/http/errors.js';
import { nestsDeeperThan } from '../../src/http/json-body.js';
import { ADMIN_TOKEN, type TestService } from '../support/app.js';
import { eachStore } from '../support/each-store.js';

// A NUL in a string is refused before it can reach PostgreSQL (which rejects it) or charge the
// destination's cooldown. Every string field of every endpoint refuses control characters with 400
// VALIDATION_ERROR naming the field, on both stores, before any limit is charged.
const FORBIDDEN = [
  '\u0000',
  '\u0001',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
];

interface Case {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  field: string;
  auth: 'key' | 'admin';
  body?: (bad: string) => unknown;
  query?: (bad: string) => string;
}

const sendBase = { channel: 'EMAIL', email: 'fuzz@example.com' };
const CASES: Case[] = [
  ...['email', 'purpose', 'customMessage', 'country', 'deliveryType', 'channel'].map(
    (field): Case => ({
      method: 'POST',
      url: '/v1/contact/send-code',
      field,
      auth: 'key',
      body: (bad) => ({ ...sendBase, [field]: field === 'email' ? `fu${bad}zz@example.com` : `x${bad}` }),
    }),
  ),
  ...['phone', 'whatsappNumber', 'phoneNumber'].map(
    (field): Case => ({
      method: 'POST',
      url: '/v1/contact/send-code',
      field,
      auth: 'key',
      body: (bad) => ({ channel: 'SMS', [field]: `+1415555${bad}2671` }),
    }),
  ),
  {
    method: 'POST',
    url: '/v1/contact/send-code',
    field: 'channels[1]',
    auth: 'key',
    body: (bad) => ({ channels: ['EMAIL', `SMS${bad}`], email: 'fuzz@example.com', phone: '+14155552671' }),
  },
  ...['requestId', 'otpCode', 'code'].map(
    (field): Case => ({
      method: 'POST',
      url: '/v1/contact/verify-code',
      field,
      auth: 'key',
      body: (bad) => ({ requestId: '018f5c0e-7b7a-7c1e-9d3a-1a2b3c4d5e6f', [field]: `12${bad}34` }),
    }),
  ),
  {
    method: 'POST',
    url: '/v1/admin/accounts',
    field: 'name',
    auth: 'admin',
    body: (bad) => ({ name: `Acme${bad}` }),
  },
  {
    method: 'POST',
    url: '/v1/admin/accounts',
    field: 'settings.branding.brandName',
    auth: 'admin',
    body: (bad) => ({ name: 'Acme', settings: { branding: { brandName: `Brand${bad}` } } }),
  },
  ...['name', 'accountId'].map(
    (field): Case => ({
      method: 'POST',
      url: '/v1/admin/api-keys',
      field,
      auth: 'admin',
      body: (bad) => ({ name: 'k', channels: ['EMAIL'], [field]: `k${bad}` }),
    }),
  ),
  {
    method: 'POST',
    url: '/v1/admin/api-keys',
    field: 'channels[0]',
    auth: 'admin',
    body: (bad) => ({ name: 'k', channels: [`EMAIL${bad}`] }),
  },
  ...['brandName', 'color', 'logoUrl', 'supportUrl'].map(
    (field): Case => ({
      method: 'PATCH',
      url: '/v1/admin/accounts/acc_default/settings',
      field: `branding.${field}`,
      auth: 'admin',
      body: (bad) => ({ branding: { [field]: `https://x.example/${bad}` } }),
    }),
  ),
  {
    method: 'PATCH',
    url: '/v1/admin/accounts/acc_default/settings',
    field: 'allowedCountries[0]',
    auth: 'admin',
    body: (bad) => ({ allowedCountries: [`U${bad}`] }),
  },
  ...['to', 'accountId', 'limit'].map(
    (field): Case => ({
      method: 'GET',
      url: '/v1/admin/outbox',
      field,
      auth: 'admin',
      query: (bad) => `${field}=${encodeURIComponent(`1${bad}`)}`,
    }),
  ),
  {
    method: 'GET',
    url: '/v1/admin/api-keys',
    field: 'accountId',
    auth: 'admin',
    query: (bad) => `accountId=${encodeURIComponent(`acc${bad}`)}`,
  },
  ...(['GET', 'DELETE'] as const).map(
    (method): Case => ({
      method,
      url: method === 'GET' ? '/v1/admin/accounts/' : '/v1/admin/api-keys/',
      field: 'id',
      auth: 'admin',
    }),
  ),
];

eachStore('control characters in every string field', (start) => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await start({ RESEND_COOLDOWN_SECONDS: '600', KEY_SEND_PER_SECOND: '100000' });
    key = await svc.createKey();
  });
  afterAll(() => svc.close());

  it('refuses each with 400 VALIDATION_ERROR naming the field, never 500', async () => {
    for (const c of CASES) {
      for (const bad of FORBIDDEN) {
        const url =
          c.field === 'id' && !c.body && !c.query ? `${c.url}${encodeURIComponent(`acc${bad}`)}` : c.url;
        const res = await svc.app.inject({
          method: c.method,
          url: c.query ? `${url}?${c.query(bad)}` : url,
          headers: {
            authorization: `Bearer ${c.auth === 'key' ? key : ADMIN_TOKEN}`,
            ...(c.body ? { 'content-type': 'application/json' } : {}),
          },
          payload: c.body ? JSON.stringify(c.body(bad)) : undefined,
        });
        const what = `${c.method} ${c.url} ${c.field} U+${bad.codePointAt(0)?.toString(16).padStart(4, '0')}`;
        expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
        const error = res.json().error;
        expect(error.code, what).toBe('VALIDATION_ERROR');
        expect(
          error.details?.map((d: { field: string }) => d.field),
          what,
        ).toContain(c.field);
      }
    }
  }, 120_000);

  it('refuses a control character at the bottom of deep nesting: the field up to 32 levels, the depth past them', async () => {
    const nestedIn = (levels: number, leaf: string) =>
      `${'['.repeat(levels)}${JSON.stringify(leaf)}${']'.repeat(levels)}`;
    const post = (payload: string) =>
      svc.app.inject({
        method: 'POST',
        url: '/v1/admin/accounts',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload,
      });
    // 31 arrays inside the body's object: 32 levels, walked to the string.
    const shallow = await post(`{"name":${nestedIn(31, 'a\u0000')}}`);
    expect(shallow.statusCode).toBe(400);
    expect(shallow.json().error.details.map((d: ErrorDetail) => d.field)).toEqual([
      `name${'[0]'.repeat(31)}`,
    ]);
    for (const levels of [32, 4000]) {
      const deep = await post(`{"name":${nestedIn(levels, 'a\u0000')}}`);
      expect(deep.statusCode, deep.body).toBe(400);
      expect(deep.json().error.code).toBe('VALIDATION_ERROR');
      expect(deep.json().error.details).toEqual([
        { field: 'body', message: 'JSON nesting deeper than 32 levels is refused' },
      ]);
    }
  });

  it('leaves provider callbacks to their signature check', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: '/v1/callbacks/telnyx',
      headers: { 'content-type': 'application/json' },
      // Pretty-printed, as providers send it: the raw body holds line breaks.
      payload: JSON.stringify({ data: { payload: { errors: [{ detail: 'line one' }] } } }, null, 2),
    });
    expect(res.json().error?.code).not.toBe('VALIDATION_ERROR');
  });

  it('charges no limit for a refused send, and keeps tab and newline in customMessage', async () => {
    const sendBase = { channel: 'EMAIL', email: 'cooldown@example.com' };
    const refused = await svc.post('/v1/contact/send-code', { ...sendBase, purpose: 'login\u0000' }, key);
    expect(refused.status).toBe(400);
    const sent = await svc.post(
      '/v1/contact/send-code',
      { ...sendBase, customMessage: 'Hello,\n\tworld' },
      key,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await svc.post('/v1/contact/send-code', { ...sendBase, purpose: 'tab\there' }, key)).status).toBe(
      400,
    );
  });
});

it('walks request data with an explicit stack: 100,000 levels neither overflow nor lose the string', () => {
  let value: unknown = 'bottom\u0000';
  for (let i = 0; i < 100_000; i++) value = i % 2 ? [value] : { k: value };
  const details: ErrorDetail[] = [];
  findControls(value, details);
  expect(details).toHaveLength(1);
  expect(details[0]?.field.length).toBeGreaterThan(100_000);
  expect(nestsDeeperThan(value, 32)).toBe(true);
  expect(nestsDeeperThan([[['x']]], 3)).toBe(false);
  expect(nestsDeeperThan([[[[]]]], 3)).toBe(true);
});
