import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TwilioVerifyProvider } from '../../../../src/delivery/providers/twilio-verify/twilio-verify.provider.js';
import {
  type TwilioVerifyOptions,
  twilioVerifyOptions,
} from '../../../../src/delivery/providers/twilio-verify/twilio-verify.settings.js';
import { testConfig } from '../../../support/app.js';
import { refusedUrl } from '../../support/fake-api.js';
import {
  type FakeSilent,
  startFakeSilent,
  TWILIO_VERIFY_SERVICE,
  twilioSilentEnv,
} from '../../support/fake-silent.js';
import { deliveryRequest } from '../../support/request.js';

const start = (to = '+14155550123') => deliveryRequest({ channel: 'SILENT', to });

describe('Twilio Verify SNA (Verifications with Channel=sna, VerificationCheck)', () => {
  let fake: FakeSilent;
  let options: TwilioVerifyOptions;
  beforeAll(async () => {
    fake = await startFakeSilent();
    const configured = twilioVerifyOptions(testConfig(twilioSilentEnv(fake)));
    if (!configured) throw new Error('Twilio Verify not configured');
    options = { ...configured, timeoutMs: 1000 };
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('starts with To and Channel=sna, answers sna.url, and checks by the verification sid', async () => {
    const p = new TwilioVerifyProvider(options);
    const outcome = await p.send(start());
    expect(outcome).toMatchObject({ ok: true, providerMessageId: expect.stringMatching(/^VE[0-9a-f]{32}$/) });
    expect(outcome.ok && outcome.silentUrl).toMatch(/^https:\/\/mi\.dnlsrv\.com\//);
    const sent = fake.twilio.sends().at(-1);
    expect(sent?.path).toBe(`/v2/Services/${TWILIO_VERIFY_SERVICE}/Verifications`);
    expect(sent?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const reference = outcome.ok ? outcome.providerMessageId : null;
    const check = { provider: 'twilio-verify', reference, to: '+14155550123', code: null };
    expect(await p.checkSilent(check)).toEqual({ kind: 'verified' });
    // Twilio forgets an approved verification: asked again, it is gone (404 20404).
    expect(await p.checkSilent(check)).toMatchObject({ kind: 'rejected' });
    // A code is never SNA's: it is handed back to be checked as any code, without a call.
    const calls = fake.twilio.sends().length;
    expect(await p.checkSilent({ ...check, code: '123456' })).toEqual({ kind: 'code' });
    expect(fake.twilio.sends().length).toBe(calls);
  });

  it('maps the 605xx codes of the check to outcomes', async () => {
    const p = new TwilioVerifyProvider(options);
    const cases: Array<[number, string]> = [
      [60519, 'pending'],
      [60500, 'rejected'],
      [60510, 'rejected'],
      [60511, 'rejected'],
      [60520, 'rejected'],
      [60599, 'rejected'],
      [60540, 'invalid_number'],
    ];
    for (const [code, kind] of cases) {
      const to = `+1415555${String(code).slice(-4)}`;
      const started = await p.send(start(to));
      fake.proves(to, { snaError: code });
      const reference = started.ok ? started.providerMessageId : null;
      const outcome = await p.checkSilent({ provider: 'twilio-verify', reference, to, code: null });
      expect(outcome, String(code)).toMatchObject({ kind });
      // The reason is a sentence, never the number.
      if ('reason' in outcome) expect(outcome.reason).not.toContain(to);
    }
    fake.proves('+14155550999', 'nothing');
    const started = await p.send(start('+14155550999'));
    expect(
      await p.checkSilent({
        provider: 'twilio-verify',
        reference: started.ok ? started.providerMessageId : null,
        to: '+14155550999',
        code: null,
      }),
    ).toMatchObject({ kind: 'pending' });
  });

  it('an error answer of the check: 605xx in the body is mapped, 5xx/garbage/hang are unavailable', async () => {
    const p = new TwilioVerifyProvider(options);
    const check = {
      provider: 'twilio-verify',
      reference: `VE${'0'.repeat(32)}`,
      to: '+14155550123',
      code: null,
    };
    fake.twilio.answer(() => ({
      status: 400,
      json: { code: 60540, message: 'SNA Carrier Identified Invalid Phone Number', status: 400 },
    }));
    expect(await p.checkSilent(check)).toMatchObject({ kind: 'invalid_number' });
    fake.twilio.answer(() => ({
      status: 429,
      json: { code: 60202, message: 'Max check attempts reached', status: 429 },
    }));
    expect(await p.checkSilent(check)).toMatchObject({ kind: 'rejected' });
    for (const answer of [
      { status: 500, json: {} },
      { status: 503, text: '<html>down</html>' },
      { status: 200, text: 'garbage' },
      { status: 200, text: '' },
      { status: 200, hang: true },
    ]) {
      fake.twilio.answer(() => answer);
      expect(await p.checkSilent(check), JSON.stringify(answer)).toMatchObject({ kind: 'unavailable' });
    }
    const gone = new TwilioVerifyProvider({ ...options, verifyBaseUrl: await refusedUrl() });
    expect(await gone.checkSilent(check)).toMatchObject({ kind: 'unavailable' });
  });

  it('a start that fails: 60200 refuses the number, anything else is retryable', async () => {
    const p = new TwilioVerifyProvider(options);
    fake.twilio.answer(() => ({
      status: 400,
      json: { code: 60200, message: 'Invalid parameter `To`', status: 400 },
    }));
    expect(await p.send(start())).toMatchObject({ ok: false, retryable: false });
    for (const answer of [
      { status: 401, json: { code: 20003, message: 'Authenticate', status: 401 } },
      { status: 429, json: { code: 60203, message: 'Max send attempts reached', status: 429 } },
      { status: 500, json: {} },
      { status: 201, text: 'not json' },
      { status: 201, text: '' },
      { status: 201, json: { sid: 'VE1', status: 'pending' } },
      { status: 201, hang: true },
    ]) {
      fake.twilio.answer(() => answer);
      const outcome = await p.send(start());
      expect(outcome, JSON.stringify(answer)).toMatchObject({ ok: false, retryable: true });
    }
  });

  it('reports its state by reading the Verify service', async () => {
    expect(await new TwilioVerifyProvider(options).check()).toBe('up');
    expect(await new TwilioVerifyProvider({ ...options, verifyBaseUrl: await refusedUrl() }).check()).toBe(
      'down',
    );
  });
});
