import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VonageVerifyProvider } from '../../../../src/delivery/providers/vonage-verify/vonage-verify.provider.js';
import {
  type VonageVerifyOptions,
  vonageVerifyOptions,
} from '../../../../src/delivery/providers/vonage-verify/vonage-verify.settings.js';
import { testConfig } from '../../../support/app.js';
import { refusedUrl } from '../../support/fake-api.js';
import { type FakeSilent, startFakeSilent, vonageSilentEnv } from '../../support/fake-silent.js';
import { deliveryRequest } from '../../support/request.js';
import { vonageKeys } from '../../support/signing.js';

const start = (to = '+447911123456') => deliveryRequest({ channel: 'SILENT', to });

describe('Vonage Verify v2 (a silent_auth workflow, its check_url, the code check)', () => {
  let fake: FakeSilent;
  let options: VonageVerifyOptions;
  beforeAll(async () => {
    fake = await startFakeSilent();
    const configured = vonageVerifyOptions(testConfig(vonageSilentEnv(fake)));
    if (!configured) throw new Error('Vonage Verify not configured');
    options = { ...configured, timeoutMs: 1000 };
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("starts a silent_auth workflow with the application's JWT and checks the device's code", async () => {
    const p = new VonageVerifyProvider(options);
    const outcome = await p.send(start());
    expect(outcome).toMatchObject({ ok: true });
    const request = fake.vonage.sends().at(-1);
    expect(vonageKeys.authorizes(request?.headers.authorization)).toBe(true);
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      brand: expect.any(String),
      workflow: [{ channel: 'silent_auth', to: '447911123456' }],
    });
    const reference = outcome.ok ? outcome.providerMessageId : null;
    expect(outcome.ok && outcome.silentUrl).toBe(
      `https://api-eu-3.vonage.com/v2/verify/${reference}/silent-auth/redirect`,
    );
    const check = { provider: 'vonage-verify', reference, to: '+447911123456' };
    expect(await p.checkSilent({ ...check, code: null })).toEqual({ kind: 'needs_code' });
    expect(await p.checkSilent({ ...check, code: 'wrong0' })).toMatchObject({ kind: 'rejected' });
    fake.proves('+447911123456', 'nothing');
    expect(await p.checkSilent({ ...check, code: fake.vonageCode('+447911123456') })).toMatchObject({
      kind: 'pending',
    });
    fake.proves('+447911123456', 'approved');
    expect(await p.checkSilent({ ...check, code: fake.vonageCode('+447911123456') })).toEqual({
      kind: 'verified',
    });
    expect(fake.vonage.sends().at(-1)?.path).toBe(`/v2/verify/${reference}`);
    // Completed: Vonage no longer knows it.
    expect(await p.checkSilent({ ...check, code: fake.vonageCode('+447911123456') })).toMatchObject({
      kind: 'rejected',
    });
  });

  it('a start that fails: 422 naming `to` refuses the number; 401, 409, 429, 5xx, garbage, a hang are retryable', async () => {
    const p = new VonageVerifyProvider(options);
    expect(await p.send(start('+4479'))).toMatchObject({ ok: false, retryable: false });
    for (const answer of [
      { status: 401, json: { title: 'Unauthorized' } },
      {
        status: 409,
        json: { title: 'Conflict', detail: 'Concurrent verifications to the same number are not allowed.' },
      },
      {
        status: 422,
        json: { title: 'Invalid params', invalid_parameters: [{ name: 'brand', reason: 'too long' }] },
      },
      { status: 429, json: { title: 'Rate Limit Hit' } },
      { status: 500, json: {} },
      { status: 202, text: 'garbage' },
      { status: 202, text: '' },
      { status: 202, json: { request_id: 'x' } },
      { status: 202, hang: true },
    ]) {
      fake.vonage.answer(() => answer);
      expect(await p.send(start()), JSON.stringify(answer)).toMatchObject({ ok: false, retryable: true });
    }
  });

  it('a check that gets 410, 5xx, garbage or no answer', async () => {
    const p = new VonageVerifyProvider(options);
    const check = {
      provider: 'vonage-verify',
      reference: 'c11236f4-00bf-4b89-84ba-000000000000',
      to: '+447911123456',
      code: 'abc123',
    };
    fake.vonage.answer(() => ({
      status: 410,
      json: { title: 'Invalid Code', detail: 'An incorrect code has been provided too many times.' },
    }));
    expect(await p.checkSilent(check)).toMatchObject({ kind: 'rejected' });
    for (const answer of [
      { status: 500, json: {} },
      { status: 200, text: 'garbage' },
      { status: 200, hang: true },
    ]) {
      fake.vonage.answer(() => answer);
      expect(await p.checkSilent(check), JSON.stringify(answer)).toMatchObject({ kind: 'unavailable' });
    }
    expect(
      await new VonageVerifyProvider({ ...options, baseUrl: await refusedUrl() }).checkSilent(check),
    ).toMatchObject({
      kind: 'unavailable',
    });
  });

  it('reports its state by listing the Verify templates', async () => {
    expect(await new VonageVerifyProvider(options).check()).toBe('up');
    expect(await new VonageVerifyProvider({ ...options, baseUrl: await refusedUrl() }).check()).toBe('down');
  });
});
