import { randomUUID } from 'node:crypto';
import type { LookupParts } from '../../../domain/number-intelligence.js';
import { field, garbage, isObject, joinUrl, requestJson, statusFailure, text, timeOf } from '../../http.js';
import type { AnsweredSimChange, LookupProvider, ProviderAnswer } from '../../interface.js';
import type { ClientCredentialsToken } from './oauth.js';

export interface CamaraSimSwapOptions {
  /** CAMARA_BASE_URL with CAMARA_SIM_SWAP_PATH. */
  apiUrl: string;
  operation: 'retrieve-date' | 'check';
  token: ClientCredentialsToken;
  /** `maxAge` of `check` (1–2400 hours). */
  maxAgeHours: number;
}

/** Answers that say the operator cannot tell of this number: not its subscriber, or not applicable. */
const NOT_KNOWN = new Set(['IDENTIFIER_NOT_FOUND', 'NOT_FOUND', 'SERVICE_NOT_APPLICABLE']);

/**
 * The GSMA CAMARA SIM Swap API (camaraproject/SimSwap, v2): `POST {apiRoot}/sim-swap/v2/retrieve-date`
 * `{phoneNumber}` → `{latestSimChange, monitoredPeriod?}` (a null date with a monitored period:
 * no change within that many days), or `POST …/check` `{phoneNumber, maxAge}` → `{swapped}`.
 * Two-legged: the phone number is in the body and the access token is the client's. Errors are
 * `{status, code, message}`: 400 INVALID_ARGUMENT or OUT_OF_RANGE (a maxAge past the operator's
 * policy), 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404 IDENTIFIER_NOT_FOUND, 422
 * SERVICE_NOT_APPLICABLE, 429 QUOTA_EXCEEDED or TOO_MANY_REQUESTS.
 */
export class CamaraSimSwap implements LookupProvider {
  readonly name = 'camara';
  readonly parts: LookupParts = { line: false, sim: true };

  constructor(private readonly options: CamaraSimSwapOptions) {}

  async lookup(e164: string, parts: LookupParts, signal: AbortSignal): Promise<ProviderAnswer> {
    if (!parts.sim) return { ok: true };
    const o = this.options;
    const token = await o.token.get(signal);
    if (!token.ok) return token;
    const check = o.operation === 'check';
    const result = await requestJson(this.name, {
      method: 'POST',
      url: joinUrl(o.apiUrl, `/${o.operation}`),
      headers: { authorization: `Bearer ${token.token}`, 'x-correlator': randomUUID() },
      body: check ? { phoneNumber: e164, maxAge: o.maxAgeHours } : { phoneNumber: e164 },
      signal,
    });
    if (!result.ok) return result;
    const { answer } = result;
    const code = text(field(answer.json, 'code'));
    if ((answer.status === 404 || answer.status === 422) && (code === null || NOT_KNOWN.has(code)))
      return { ok: true, sim: { lastSimChange: null } };
    if (answer.status === 401) o.token.invalidate();
    if (answer.status < 200 || answer.status >= 300)
      return statusFailure(this.name, answer.status, code ?? undefined);
    if (!isObject(answer.json)) return garbage(this.name, answer);
    const change = check ? checked(answer.json, o.maxAgeHours) : retrieved(answer.json);
    return change === undefined ? garbage(this.name, answer) : { ok: true, sim: { lastSimChange: change } };
  }
}

/** retrieve-date's answer; undefined when it is not one. */
function retrieved(json: Record<string, unknown>): AnsweredSimChange | null | undefined {
  if (!('latestSimChange' in json)) return undefined;
  const at = timeOf(json.latestSimChange);
  if (at !== null) return { at };
  if (json.latestSimChange !== null) return undefined;
  // No date: none kept past the operator's monitored period, in days, if it says one.
  const days = json.monitoredPeriod;
  return typeof days === 'number' && days > 0 ? { withinHours: days * 24, changed: false } : null;
}

function checked(json: Record<string, unknown>, maxAgeHours: number): AnsweredSimChange | undefined {
  return typeof json.swapped === 'boolean' ? { withinHours: maxAgeHours, changed: json.swapped } : undefined;
}
