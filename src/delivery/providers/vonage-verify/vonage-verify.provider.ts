import type { SilentCheck, SilentOutcome } from '../../../domain/silent.js';
import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { type ApiAnswer, callApi, field, httpFailure, joinUrl, probe, refused, unanswered } from '../http.js';
import { applicationJwt } from '../vonage/vonage-application.js';
import type { VonageVerifyOptions } from './vonage-verify.settings.js';

/** Vonage's problem bodies (RFC 7807) name a parameter in `invalid_parameters[].name`. */
const namesTheNumber = (json: unknown): boolean => {
  const params = field(json, 'invalid_parameters');
  return Array.isArray(params) && params.some((p) => /(^|\.)to$/.test(String(field(p, 'name'))));
};

/**
 * SILENT through Vonage Verify v2: a request whose workflow is one `silent_auth` step answers
 * `check_url`, which the app opens on the device over mobile data; Vonage answers the device a
 * `code`, which the app posts with verify-code, and the service checks it with
 * `POST /v2/verify/{request_id}`. A fallback code is this service's own (send-code `fallback`), so
 * the workflow has no second step to move to (`next_workflow`).
 */
export class VonageVerifyProvider implements ChannelProvider {
  readonly name = 'vonage-verify';
  readonly channels: readonly Channel[] = ['SILENT'];

  constructor(
    private readonly options: VonageVerifyOptions,
    private readonly now: () => number = Date.now,
  ) {}

  private headers() {
    const o = this.options;
    return { authorization: `Bearer ${applicationJwt(o.applicationId, o.privateKey, this.now())}` };
  }

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const o = this.options;
    const result = await callApi(this.name, {
      method: 'POST',
      url: joinUrl(o.baseUrl, '/v2/verify'),
      headers: this.headers(),
      body: {
        // Shown to the user by Vonage's own channels only; silent_auth sends nothing.
        brand: request.branding.brandName.slice(0, 16),
        workflow: [{ channel: 'silent_auth', to: request.to.replace(/^\+/, '') }],
      },
      timeoutMs: o.timeoutMs,
    });
    return result.ok ? this.started(result.answer) : result.outcome;
  }

  private started(answer: ApiAnswer): SendOutcome {
    const { status, json } = answer;
    const id = field(json, 'request_id');
    const url = field(json, 'check_url');
    if (status >= 200 && status < 300) {
      if (typeof id === 'string' && typeof url === 'string' && /^https?:\/\//.test(url))
        return { ok: true, providerMessageId: id, silentUrl: url };
      return httpFailure(this.name, status, 'an answer without request_id or check_url');
    }
    // 422 naming `to`: the number itself is refused; anything else is this deployment's or Vonage's.
    if (status === 422 && namesTheNumber(json)) return refused(this.name, 'Vonage refused the number (422)');
    const title = field(json, 'title');
    return httpFailure(this.name, status, typeof title === 'string' ? title.slice(0, 80) : undefined);
  }

  async checkSilent(check: SilentCheck): Promise<SilentOutcome> {
    if (!check.reference) return { kind: 'rejected', reason: 'Vonage never started this verification' };
    // Vonage hands the device a code at check_url; nothing else proves what the device did.
    if (check.code === null) return { kind: 'needs_code' };
    const o = this.options;
    const result = await callApi(this.name, {
      method: 'POST',
      url: joinUrl(o.baseUrl, `/v2/verify/${encodeURIComponent(check.reference)}`),
      headers: this.headers(),
      body: { code: check.code },
      timeoutMs: o.timeoutMs,
    });
    if (!result.ok) return unanswered(result.outcome);
    return this.checked(result.answer);
  }

  private checked({ status, json }: ApiAnswer): SilentOutcome {
    if (status >= 200 && status < 300) {
      if (field(json, 'status') === 'completed') return { kind: 'verified' };
      return { kind: 'unavailable', reason: `${this.name} answered HTTP ${status} without status completed` };
    }
    switch (status) {
      case 400:
        return { kind: 'rejected', reason: 'Vonage: the code does not match' };
      case 404:
        return { kind: 'rejected', reason: 'Vonage no longer has this request (expired or completed)' };
      case 409:
        return { kind: 'pending', reason: 'Vonage: the silent_auth step has not completed yet' };
      case 410:
        return { kind: 'rejected', reason: 'Vonage: too many wrong codes' };
      default:
        return { kind: 'unavailable', reason: `${this.name} answered HTTP ${status}` };
    }
  }

  /** Lists the application's Verify templates: an authenticated read that starts nothing. */
  check() {
    const o = this.options;
    return probe(this.name, {
      url: joinUrl(o.baseUrl, '/v2/verify/templates'),
      headers: this.headers(),
      timeoutMs: o.timeoutMs,
    });
  }
}
