import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../support/app.js';
import { eachStore } from '../support/each-store.js';

const SETTINGS = '/v1/admin/accounts/acc_default/settings';

/**
 * JSON bodies are held to I-JSON (RFC 7493): a string with a lone surrogate (`\ud800` escaped, or
 * a key holding one) and an object with a duplicate member name are refused with 400
 * VALIDATION_ERROR naming the field, on every JSON route, before anything reads them. A lone
 * surrogate made PostgreSQL fail (500: its JSON type refuses `\ud800`) and SQLite store bytes that
 * are not UTF-8; a duplicate key silently took the last value.
 */
eachStore('JSON bodies: lone surrogates and duplicate keys', (start) => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await start();
    key = await svc.createKey({ channels: ['EMAIL', 'SMS'] });
  });
  afterAll(() => svc?.close());

  const send = (method: 'POST' | 'PATCH', url: string, payload: string, token = ADMIN_TOKEN) =>
    svc.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload,
    });
  const refused = (res: { statusCode: number; json(): any }, field: string, what: RegExp) => {
    expect(res.statusCode, JSON.stringify(res.json())).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details).toEqual([{ field, message: expect.stringMatching(what) }]);
  };

  it('a lone surrogate in a branding field is refused, and nothing is stored', async () => {
    const before = (await svc.get(`/v1/admin/accounts/acc_default/limits`, ADMIN_TOKEN)).body;
    for (const name of ['B\\ud800', 'B\\udfff', '\\udc00\\ud800', 'x\\ud83d']) {
      const res = await send('PATCH', SETTINGS, `{"branding":{"brandName":"${name}"}}`);
      refused(res, 'branding.brandName', /lone surrogate/);
    }
    expect((await svc.get(`/v1/admin/accounts/acc_default/limits`, ADMIN_TOKEN)).body).toEqual(before);
    // A pair is one character (👍), accepted and stored as written.
    const pair = await send('PATCH', SETTINGS, '{"branding":{"brandName":"B\\ud83d\\udc4d"}}');
    expect(pair.statusCode, pair.body).toBe(200);
    expect(pair.json().data.settings.branding.brandName).toBe('B👍');
    const accounts = await svc.get('/v1/admin/accounts', ADMIN_TOKEN);
    expect(JSON.stringify(accounts.body)).toContain('"brandName":"B👍"');
  });

  it('a lone surrogate is refused in every kind of place: a send, a verify, an array, a key, the sign-in', async () => {
    refused(
      await send(
        'POST',
        '/v1/contact/send-code',
        '{"channel":"EMAIL","email":"a@example.com","purpose":"\\ud800"}',
        key,
      ),
      'purpose',
      /lone surrogate/,
    );
    refused(
      await send('POST', '/v1/contact/verify-code', '{"requestId":"\\udbff","otpCode":"123456"}', key),
      'requestId',
      /lone surrogate/,
    );
    refused(
      await send('PATCH', SETTINGS, '{"allowedCountries":["US","G\\udc00"]}'),
      'allowedCountries[1]',
      /lone surrogate/,
    );
    refused(
      await send('POST', '/v1/admin/accounts', '{"name":"Shop","\\ud800":1}'),
      '\ufffd',
      /lone surrogate/,
    );
    refused(
      await svc.app.inject({
        method: 'POST',
        url: '/dashboard/api/session',
        headers: { 'content-type': 'application/json' },
        payload: '{"token":"\\ud800"}',
      }),
      'token',
      /lone surrogate/,
    );
  });

  it('a duplicate key is refused, naming it, wherever it is', async () => {
    refused(
      await send(
        'POST',
        '/v1/contact/send-code',
        '{"channel":"SMS","phone":"+14155552671","channel":"EMAIL","email":"c@example.com"}',
        key,
      ),
      'channel',
      /more than once/,
    );
    // The same name written two ways is the same name.
    refused(
      await send(
        'POST',
        '/v1/contact/send-code',
        '{"channel":"EMAIL","email":"b@example.com","\\u0063hannel":"SMS"}',
        key,
      ),
      'channel',
      /more than once/,
    );
    refused(
      await send('PATCH', SETTINGS, '{"branding":{"brandName":"A","brandName":"B"}}'),
      'branding.brandName',
      /more than once/,
    );
    refused(
      await send('PATCH', SETTINGS, '{"branding":{"templates":[{"x":1,"x":2}]}}'),
      'branding.templates[0].x',
      /more than once/,
    );
    // The same name in two objects, and a name that appears inside a string, are not duplicates.
    const fine = await send(
      'POST',
      '/v1/contact/send-code',
      '{"channel":"EMAIL","email":"dup-free@example.com","purpose":"\\"channel\\":\\"SMS\\", channel:"}',
      key,
    );
    expect(fine.statusCode, fine.body).toBe(200);
  });
});
