import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';

// The account settings of number intelligence (lookup, refuseLineTypes, simSwapHours,
// simSwapAction, lookupFailClosed) and SILENT's silentTimeoutSeconds: validated by the settings
// PATCH, kept, and shown by GET …/limits with their source.

describe('admin API: number intelligence settings', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => {
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
  };
  const inForce = async (accountId: string) => {
    const res = await call('GET', `/v1/admin/accounts/${accountId}/limits`);
    expect(res.status).toBe(200);
    return Object.fromEntries(
      (res.body.data.numberIntelligence as Array<{ name: string }>).map((s) => [s.name, s]),
    ) as Record<string, Record<string, unknown>>;
  };

  it('shows each with its default, then the account value, and null restores the default', async () => {
    const account = (await call('POST', '/v1/admin/accounts', { name: 'Lookups' })).body.data;
    const fresh = await inForce(account.id);
    expect(Object.keys(fresh)).toEqual([
      'lookup',
      'refuseLineTypes',
      'simSwapHours',
      'simSwapAction',
      'lookupFailClosed',
      'silentTimeoutSeconds',
    ]);
    expect(fresh.lookup).toMatchObject({
      value: 'off',
      source: 'default',
      default: 'off',
      allowed: ['off', 'sms_voice', 'all_phone'],
    });
    expect(fresh.refuseLineTypes).toMatchObject({
      value: [],
      source: 'default',
      allowed: ['mobile', 'landline', 'voip', 'tollFree', 'premium', 'other'],
    });
    expect(fresh.simSwapHours).toMatchObject({ value: null, source: 'default', min: 1, max: 2400 });
    expect(fresh.simSwapAction).toMatchObject({ value: 'signal', source: 'default' });
    expect(fresh.lookupFailClosed).toMatchObject({ value: false, source: 'default', allowed: null });
    expect(fresh.silentTimeoutSeconds).toMatchObject({ value: 30, source: 'default', min: 5, max: 600 });

    const patched = await call('PATCH', `/v1/admin/accounts/${account.id}/settings`, {
      lookup: 'sms_voice',
      refuseLineTypes: ['voip', 'landline'],
      simSwapHours: 48,
      simSwapAction: 'refuse',
      lookupFailClosed: true,
      silentTimeoutSeconds: 20,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.settings).toMatchObject({
      lookup: 'sms_voice',
      refuseLineTypes: ['voip', 'landline'],
      simSwapHours: 48,
      simSwapAction: 'refuse',
      lookupFailClosed: true,
      silentTimeoutSeconds: 20,
    });
    const set = await inForce(account.id);
    expect(set.lookup).toMatchObject({ value: 'sms_voice', source: 'account' });
    expect(set.refuseLineTypes).toMatchObject({ value: ['voip', 'landline'], source: 'account' });
    expect(set.simSwapHours).toMatchObject({ value: 48, source: 'account' });
    expect(set.simSwapAction).toMatchObject({ value: 'refuse', source: 'account' });
    expect(set.lookupFailClosed).toMatchObject({ value: true, source: 'account' });
    expect(set.silentTimeoutSeconds).toMatchObject({ value: 20, source: 'account' });

    const read = await call('GET', `/v1/admin/accounts/${account.id}`);
    expect(read.body.data.settings.refuseLineTypes).toEqual(['voip', 'landline']);

    await call('PATCH', `/v1/admin/accounts/${account.id}/settings`, {
      lookup: null,
      refuseLineTypes: null,
      simSwapHours: null,
      lookupFailClosed: null,
    });
    const restored = await inForce(account.id);
    expect(restored.lookup).toMatchObject({ value: 'off', source: 'default' });
    expect(restored.refuseLineTypes).toMatchObject({ value: [], source: 'default' });
    expect(restored.simSwapHours).toMatchObject({ value: null, source: 'default' });
    expect(restored.lookupFailClosed).toMatchObject({ value: false, source: 'default' });
    expect(restored.simSwapAction).toMatchObject({ value: 'refuse', source: 'account' });
  });

  it('refuses values the settings do not take, one detail per field, and keeps nothing', async () => {
    const account = (await call('POST', '/v1/admin/accounts', { name: 'Bad lookups' })).body.data;
    const res = await call('PATCH', `/v1/admin/accounts/${account.id}/settings`, {
      lookup: 'sometimes',
      refuseLineTypes: ['voip', 'satellite'],
      simSwapHours: 0,
      simSwapAction: 'block',
      lookupFailClosed: 'yes',
      silentTimeoutSeconds: 3600,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const fields = (res.body.error.details as Array<{ field: string }>).map((d) => d.field);
    for (const field of [
      'lookup',
      'refuseLineTypes',
      'simSwapHours',
      'simSwapAction',
      'lookupFailClosed',
      'silentTimeoutSeconds',
    ]) {
      expect(fields.some((f) => f === field || f.startsWith(`${field}.`) || f.startsWith(`${field}[`))).toBe(
        true,
      );
    }
    const duplicate = await call('PATCH', `/v1/admin/accounts/${account.id}/settings`, {
      refuseLineTypes: ['voip', 'voip'],
    });
    expect(duplicate.status).toBe(400);
    expect((await inForce(account.id)).lookup).toMatchObject({ value: 'off', source: 'default' });
  });

  it('accepts them when an account is created', async () => {
    const created = await call('POST', '/v1/admin/accounts', {
      name: 'Created with lookups',
      settings: { lookup: 'all_phone', refuseLineTypes: ['premium'] },
    });
    expect(created.status).toBe(201);
    const set = await inForce(created.body.data.id);
    expect(set.lookup).toMatchObject({ value: 'all_phone', source: 'account' });
    expect(set.refuseLineTypes).toMatchObject({ value: ['premium'], source: 'account' });
  });
});
