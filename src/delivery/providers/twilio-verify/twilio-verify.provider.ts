import type { SilentCheck, SilentOutcome } from '../../../domain/silent.js';
import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { type ApiAnswer, callApi, field, httpFailure, joinUrl, probe, refused, unanswered } from '../http.js';
import { basicAuth } from '../twilio/twilio.provider.js';
import type { TwilioVerifyOptions } from './twilio-verify.settings.js';

/**
 * Twilio errors of a Verification's start that refuse the number itself: 60200 invalid parameter
 * (the `To`), 60205 SMS-only landline, 60410 the prefix is blocked for fraud, 21211 an invalid
 * `To`, 21614 not a mobile number.
 */
const DESTINATION_ERRORS = new Set([60200, 60205, 60410, 21211, 21614]);

/** SNA result pending (60519): the device has not invoked the SNA URL yet, or not completed it. */
const SNA_PENDING = 60519;
/** SNA Carrier Identified Invalid Phone Number (60540): an SMS would fail too, so no fallback. */
const SNA_INVALID_NUMBER = 60540;

/** What each 605xx code of Twilio's SNA means, in a sentence for logs and answers (never a number). */
const SNA_ERRORS: Readonly<Record<number, string>> = {
  60500: 'the carrier saw another phone number on the SIM (dual SIM, or not this device)',
  60510: 'the SNA process failed (the device may be on Wi-Fi rather than mobile data)',
  60511: 'a downstream error at the carrier during SNA',
  60519: 'the SNA result is pending: the device has not completed silent.url yet',
  60520: 'the device could not invoke the SNA URL',
  60540: 'the carrier says the phone number is invalid',
};

const describe = (code: number) => SNA_ERRORS[code] ?? `Twilio SNA error ${code}`;

/** An SNA error code, as the VerificationCheck lists its attempts' codes, mapped to an outcome. */
export function snaOutcome(code: number): SilentOutcome {
  if (code === SNA_PENDING) return { kind: 'pending', reason: describe(code) };
  if (code === SNA_INVALID_NUMBER) return { kind: 'invalid_number', reason: describe(code) };
  return { kind: 'rejected', reason: describe(code) };
}

/**
 * SILENT through Twilio Verify's Silent Network Auth: a Verification with `Channel=sna` answers
 * `sna.url`, which the app invokes on the device over mobile data; a VerificationCheck (by the
 * Verification's sid, no code) then says whether the carrier proved the SIM (`approved`), and
 * why not in `sna_attempts_error_codes` (605xx).
 */
export class TwilioVerifyProvider implements ChannelProvider {
  readonly name = 'twilio-verify';
  readonly channels: readonly Channel[] = ['SILENT'];

  constructor(private readonly options: TwilioVerifyOptions) {}

  private url(path: string): string {
    const o = this.options;
    return joinUrl(o.verifyBaseUrl, `/v2/Services/${encodeURIComponent(o.serviceSid)}${path}`);
  }

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    const result = await callApi(this.name, {
      method: 'POST',
      url: this.url('/Verifications'),
      headers: { authorization: basicAuth(o) },
      body: new URLSearchParams({ To: request.to, Channel: 'sna' }),
      timeoutMs: o.timeoutMs,
    });
    return result.ok ? this.started(result.answer) : result.outcome;
  }

  private started(answer: ApiAnswer): SendOutcome {
    const sid = field(answer.json, 'sid');
    const url = field(answer.json, 'sna', 'url');
    if (answer.status >= 200 && answer.status < 300) {
      if (typeof sid === 'string' && typeof url === 'string' && /^https?:\/\//.test(url))
        return { ok: true, providerMessageId: sid, silentUrl: url };
      return httpFailure(this.name, answer.status, 'an answer without sid or sna.url');
    }
    // Twilio's error body is {code, message, more_info, status}; the message may echo the number.
    const code = Number(field(answer.json, 'code'));
    if (answer.status >= 400 && answer.status < 500 && DESTINATION_ERRORS.has(code))
      return refused(this.name, `Twilio error ${code}`);
    return httpFailure(
      this.name,
      answer.status,
      Number.isFinite(code) && code > 0 ? `error ${code}` : undefined,
    );
  }

  async checkSilent(check: SilentCheck): Promise<SilentOutcome> {
    // SNA hands the device no code: a code given is a fallback code, this service's to check.
    if (check.code !== null) return { kind: 'code' };
    const o = this.options;
    // The Verification's sid names it exactly; `To` would find the latest of the number's.
    const form = check.reference
      ? new URLSearchParams({ VerificationSid: check.reference })
      : new URLSearchParams({ To: check.to });
    const result = await callApi(this.name, {
      method: 'POST',
      url: this.url('/VerificationCheck'),
      headers: { authorization: basicAuth(o) },
      body: form,
      timeoutMs: o.timeoutMs,
    });
    if (!result.ok) return unanswered(result.outcome);
    return this.checked(result.answer);
  }

  private checked(answer: ApiAnswer): SilentOutcome {
    const { status, json } = answer;
    if (status >= 200 && status < 300) {
      const state = field(json, 'status');
      if (state === 'approved') return { kind: 'verified' };
      const codes = field(json, 'sna_attempts_error_codes');
      const last = Array.isArray(codes) ? Number(field(codes.at(-1), 'code')) : Number.NaN;
      if (Number.isFinite(last) && last > 0) return snaOutcome(last);
      if (state === 'pending') return { kind: 'pending', reason: describe(SNA_PENDING) };
      if (typeof state === 'string')
        return { kind: 'rejected', reason: `the verification is ${state.replace(/[^a-z_]/g, '')}` };
      return { kind: 'unavailable', reason: `${this.name} answered HTTP ${status} without a status` };
    }
    const code = Number(field(json, 'code'));
    if (status === 404)
      return {
        kind: 'rejected',
        reason: 'Twilio no longer has this verification (expired or already checked)',
      };
    if (code >= 60500 && code < 60600) return snaOutcome(code);
    // 60202: max check attempts reached.
    if (status === 429 && code === 60202)
      return { kind: 'rejected', reason: 'Twilio: max check attempts reached' };
    const detail = Number.isFinite(code) && code > 0 ? ` (error ${code})` : '';
    return { kind: 'unavailable', reason: `${this.name} answered HTTP ${status}${detail}` };
  }

  /** Reads the Verify service, sending nothing. */
  check() {
    const o = this.options;
    return probe(this.name, {
      url: this.url(''),
      headers: { authorization: basicAuth(o) },
      timeoutMs: o.timeoutMs,
    });
  }
}
