import { randomBytes } from 'node:crypto';
import { type Answer, type FakeApi, type Received, startFakeApi } from './fake-api.js';
import { TWILIO_SID } from './providers.js';
import { vonageKeys } from './signing.js';

/**
 * Loopback fakes of the two silent network authentication APIs, answering as their documentation
 * shows (Twilio Verify v2 SNA: the Verification and VerificationCheck resources and their 605xx
 * codes; Vonage Verify v2: a silent_auth workflow, its check_url and the code check), with what
 * the device proved set per number by the test: `proves(number, outcome)`.
 */

export const TWILIO_VERIFY_SERVICE = 'VA0123456789abcdef0123456789abcdef';

/** What the device's visit to the URL proved, as each provider reports it. */
export type DeviceResult =
  | 'approved'
  /** Twilio 605xx of the check's attempt (60519 pending, 60500 mismatch, 60540 invalid number …). */
  | { snaError: number }
  /** Nothing reached the device yet (Twilio pending with no attempt; Vonage 409). */
  | 'nothing';

export interface FakeSilent {
  twilio: FakeApi;
  vonage: FakeApi;
  /** What a check of `number` finds from now on (default: approved). */
  proves(number: string, result: DeviceResult): void;
  /** The code Vonage handed the device of `number` at its check_url (the last request's). */
  vonageCode(number: string): string;
  /** Back to the documented successful answers. */
  reset(): void;
  env: Record<string, string>;
  close(): Promise<void>;
}

const hex = (n: number) => randomBytes(n).toString('hex');

export async function startFakeSilent(): Promise<FakeSilent> {
  const results = new Map<string, DeviceResult>();
  const twilioSids = new Map<string, string>(); // sid → number
  const vonageRequests = new Map<string, { number: string; code: string; done: boolean }>();
  const basic = `Basic ${Buffer.from(`${TWILIO_SID}:twilio-token`).toString('base64')}`;

  const twilioAnswer = (r: Received): Answer => {
    if (r.headers.authorization !== basic)
      return { status: 401, json: { code: 20003, message: 'Authenticate', status: 401 } };
    const form = new URLSearchParams(r.body);
    const base = `/v2/Services/${TWILIO_VERIFY_SERVICE}`;
    if (r.path === `${base}/Verifications`) {
      const to = form.get('To') ?? '';
      if (form.get('Channel') !== 'sna')
        return { status: 400, json: { code: 60200, message: 'Invalid parameter', status: 400 } };
      if (!/^\+\d{8,15}$/.test(to))
        return { status: 400, json: { code: 60200, message: 'Invalid parameter `To`', status: 400 } };
      const sid = `VE${hex(16)}`;
      twilioSids.set(sid, to);
      // As documented: 201 with the Verification, its `sna.url` for the device.
      return {
        status: 201,
        json: {
          sid,
          service_sid: TWILIO_VERIFY_SERVICE,
          account_sid: TWILIO_SID,
          to,
          channel: 'sna',
          status: 'pending',
          valid: false,
          sna: { url: `https://mi.dnlsrv.com/m/id/${hex(4)}?data=${hex(16)}` },
          url: `https://verify.twilio.com${base}/Verifications/${sid}`,
        },
      };
    }
    if (r.path === `${base}/VerificationCheck`) {
      const sid = form.get('VerificationSid');
      const to = sid ? twilioSids.get(sid) : form.get('To');
      if (!to)
        return {
          status: 404,
          json: { code: 20404, message: 'The requested resource was not found', status: 404 },
        };
      const result = results.get(to) ?? 'approved';
      const attempt = (code: number) => [{ attempt_sid: `VL${hex(16)}`, code }];
      const body = (status: string, codes: Array<{ attempt_sid: string; code: number }>) => ({
        sid,
        service_sid: TWILIO_VERIFY_SERVICE,
        to,
        channel: 'sna',
        status,
        valid: status === 'approved',
        sna_attempts_error_codes: codes,
      });
      if (result === 'approved') {
        twilioSids.delete(sid ?? '');
        return { status: 200, json: body('approved', []) };
      }
      if (result === 'nothing') return { status: 200, json: body('pending', []) };
      return { status: 200, json: body('pending', attempt(result.snaError)) };
    }
    return { status: 404, json: { code: 20404, message: 'not found', status: 404 } };
  };

  const vonageAnswer = (r: Received): Answer => {
    if (!vonageKeys.authorizes(r.headers.authorization))
      return {
        status: 401,
        json: { type: 'https://developer.nexmo.com/api-errors#unauthorized', title: 'Unauthorized' },
      };
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(r.body || '{}');
    } catch {
      return { status: 400, json: { title: 'Bad Request' } };
    }
    if (r.path === '/v2/verify') {
      const step = (body.workflow as Array<{ channel: string; to: string }> | undefined)?.[0];
      if (!body.brand || step?.channel !== 'silent_auth')
        return {
          status: 422,
          json: { title: 'Invalid params', invalid_parameters: [{ name: 'workflow', reason: 'invalid' }] },
        };
      if (!/^\d{8,15}$/.test(step.to))
        return {
          status: 422,
          json: {
            title: 'Invalid params',
            invalid_parameters: [{ name: 'workflow[0].to', reason: 'Invalid phone number' }],
          },
        };
      const id = `c11236f4-00bf-4b89-84ba-${hex(6)}`;
      // The code Vonage hands the device at check_url (letters and digits).
      vonageRequests.set(id, { number: `+${step.to}`, code: `si${hex(3)}`, done: false });
      return {
        status: 202,
        json: {
          request_id: id,
          check_url: `https://api-eu-3.vonage.com/v2/verify/${id}/silent-auth/redirect`,
        },
      };
    }
    const m = /^\/v2\/verify\/([^/]+)$/.exec(r.path);
    const request = m ? vonageRequests.get(m[1] ?? '') : undefined;
    if (!request || request.done)
      return { status: 404, json: { title: 'Not Found', detail: 'Request not found or already completed' } };
    const result = results.get(request.number) ?? 'approved';
    if (result === 'nothing')
      return {
        status: 409,
        json: { title: 'Conflict', detail: 'The current Verify workflow step does not support a code.' },
      };
    if (result !== 'approved' || body.code !== request.code)
      return {
        status: 400,
        json: { title: 'Invalid Code', detail: 'The code you provided does not match the expected value.' },
      };
    request.done = true;
    return { status: 200, json: { request_id: m?.[1], status: 'completed' } };
  };

  const [twilio, vonage] = await Promise.all([startFakeApi(twilioAnswer), startFakeApi(vonageAnswer)]);
  return {
    twilio,
    vonage,
    proves: (number, result) => void results.set(number, result),
    vonageCode(number) {
      const last = [...vonageRequests.values()].filter((r) => r.number === number).at(-1);
      if (!last) throw new Error(`Vonage never started a request for ${number}`);
      return last.code;
    },
    reset() {
      results.clear();
      twilio.answer(twilioAnswer);
      vonage.answer(vonageAnswer);
    },
    env: {},
    close: async () => {
      await Promise.all([twilio.close(), vonage.close()]);
    },
  };
}

/** The settings that point the Twilio silent provider at the fake. */
export const twilioSilentEnv = (fake: FakeSilent): Record<string, string> => ({
  SILENT_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: TWILIO_SID,
  TWILIO_AUTH_TOKEN: 'twilio-token',
  TWILIO_VERIFY_SERVICE_SID: TWILIO_VERIFY_SERVICE,
  TWILIO_VERIFY_BASE_URL: fake.twilio.url,
  TWILIO_TIMEOUT_MS: '1500',
});

/** The settings that point the Vonage silent provider at the fake. */
export const vonageSilentEnv = (fake: FakeSilent): Record<string, string> => ({
  SILENT_PROVIDER: 'vonage',
  VONAGE_APPLICATION_ID: 'aaaaaaaa-bbbb-cccc-dddd-0123456789ab',
  VONAGE_PRIVATE_KEY: vonageKeys.privateKeyEnv,
  VONAGE_API_BASE_URL: fake.vonage.url,
  VONAGE_VERIFY_TIMEOUT_MS: '1500',
});
