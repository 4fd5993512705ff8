import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES } from '../../../src/domain/locales.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';

// The account settings of what messages say: `locale`, `webOtpHost` and `appHash`, set by PATCH
// …/settings, validated when set, and shown by GET …/limits with where each value comes from.

describe('admin API: message settings', () => {
  let svc: TestService;
  let id = '';
  beforeAll(async () => {
    svc = await startTestService({ SMS_WEBOTP_DOMAIN: 'deploy.example.com' });
    id = (await call('POST', '/v1/admin/accounts', { name: 'Messages' })).body.data.id;
  });
  afterAll(() => svc.close());

  async function call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
    const res = await svc.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      payload: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.statusCode, body: res.json() };
  }
  const patch = (settings: Record<string, unknown>) =>
    call('PATCH', `/v1/admin/accounts/${id}/settings`, settings);
  const messages = async () => {
    const res = await call('GET', `/v1/admin/accounts/${id}/limits`);
    expect(res.status).toBe(200);
    return Object.fromEntries(
      (res.body.data.messages as Array<{ name: string }>).map((m) => [m.name, m]),
    ) as Record<string, Record<string, unknown>>;
  };

  it('shows each with its source: none set, the deployment host', async () => {
    const m = await messages();
    expect(Object.keys(m)).toEqual(['locale', 'webOtpHost', 'appHash']);
    expect(m.locale).toMatchObject({ value: null, source: 'default', deployment: null, env: null });
    expect(m.locale?.allowed).toEqual([...LOCALES]);
    expect(m.webOtpHost).toMatchObject({
      value: 'deploy.example.com',
      source: 'environment',
      deployment: 'deploy.example.com',
      env: 'SMS_WEBOTP_DOMAIN',
      allowed: null,
    });
    expect(m.appHash).toMatchObject({ value: null, source: 'default' });
  });

  it('saves valid values, shows them as the account’s, and null restores the default', async () => {
    const saved = await patch({ locale: 'pt-PT', webOtpHost: 'login.acme.example', appHash: 'FA+9qCX9VSu' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.settings).toMatchObject({
      locale: 'pt-PT',
      webOtpHost: 'login.acme.example',
      appHash: 'FA+9qCX9VSu',
    });
    const m = await messages();
    expect(m.locale).toMatchObject({ value: 'pt-PT', source: 'account' });
    expect(m.webOtpHost).toMatchObject({ value: 'login.acme.example', source: 'account' });
    expect(m.appHash).toMatchObject({ value: 'FA+9qCX9VSu', source: 'account' });
    expect((await patch({ locale: null, webOtpHost: null, appHash: null })).status).toBe(200);
    const restored = await messages();
    expect(restored.locale?.value).toBeNull();
    expect(restored.webOtpHost).toMatchObject({ value: 'deploy.example.com', source: 'environment' });
  });

  it.each([
    [{ locale: 'pt' }, 'locale', 'must be one of en, es'],
    [{ locale: 'xx' }, 'locale', 'must be one of'],
    [{ locale: 'zh-cn' }, 'locale', 'must be one of'],
    [{ webOtpHost: 'https://example.com' }, 'webOtpHost', 'host name in lower case'],
    [{ webOtpHost: 'Example.com' }, 'webOtpHost', 'host name'],
    [{ webOtpHost: 'example.com:8443' }, 'webOtpHost', 'host name'],
    [{ webOtpHost: 'example.com/login' }, 'webOtpHost', 'host name'],
    [{ webOtpHost: '-bad.example.com' }, 'webOtpHost', 'host name'],
    [{ webOtpHost: 'a..example.com' }, 'webOtpHost', 'host name'],
    [{ webOtpHost: `${'a'.repeat(63)}.`.repeat(4) + 'com' }, 'webOtpHost', '253'],
    [{ webOtpHost: '' }, 'webOtpHost', 'host name'],
    [{ appHash: 'FA+9qCX9VS' }, 'appHash', '11-character'],
    [{ appHash: 'FA+9qCX9VSu1' }, 'appHash', '11'],
    [{ appHash: 'FA+9qCX9VS!' }, 'appHash', '11-character'],
    [{ appHash: 42 }, 'appHash', 'string'],
  ])('refuses %j with VALIDATION_ERROR naming %s', async (settings, field, words) => {
    const res = await patch(settings);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const detail = res.body.error.details.find((d: { field: string }) => d.field === field);
    expect(detail, JSON.stringify(res.body.error.details)).toBeDefined();
    expect(detail.message).toContain(words);
  });
});
