import { ADMIN_TOKEN, type TestService } from '../../support/app.js';

export const SEND = '/v1/contact/send-code';

/** PATCHes an account's settings through the admin API. */
export async function patchSettings(svc: TestService, accountId: string, settings: Record<string, unknown>) {
  const res = await svc.app.inject({
    method: 'PATCH',
    url: `/v1/admin/accounts/${accountId}/settings`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    payload: JSON.stringify(settings),
  });
  if (res.statusCode !== 200) throw new Error(`settings refused: ${res.body}`);
}

/** A new account with `settings` and a live key for every channel: its id and the key. */
export async function accountWith(
  svc: TestService,
  settings: Record<string, unknown>,
  options: { test?: boolean } = {},
): Promise<{ accountId: string; key: string }> {
  const created = await svc.post('/v1/admin/accounts', { name: `lookups ${Math.random()}` }, ADMIN_TOKEN);
  const accountId = created.body.data.id as string;
  await patchSettings(svc, accountId, settings);
  const key = await svc.createKey({ accountId, test: options.test });
  return { accountId, key };
}

let counter = 0;
/**
 * A fresh GB mobile number (+44 7400 1xxxxx, valid for libphonenumber), different in every call of
 * one test file: live keys' sends go to the outbox and the fake provider, never to anyone.
 */
export function freshNumber(): string {
  counter += 1;
  return `+4474001${String(counter).padStart(5, '0')}`;
}
