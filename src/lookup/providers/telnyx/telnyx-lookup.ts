import type { LineType, LookupParts } from '../../../domain/number-intelligence.js';
import {
  countryOf,
  field,
  garbage,
  isObject,
  joinUrl,
  networkCodes,
  requestJson,
  statusFailure,
  text,
} from '../../http.js';
import { type LookupProvider, type ProviderAnswer, UNKNOWN_LINE } from '../../interface.js';

export interface TelnyxLookupOptions {
  apiKey: string;
  baseUrl: string;
}

/**
 * `carrier.type` of Telnyx Number Lookup. "fixed line or mobile" is a range that may be either (as
 * libphonenumber says of US numbers): it tells nothing; shared-cost numbers are billed like premium.
 */
const CARRIER_TYPES: Record<string, LineType | null> = {
  mobile: 'mobile',
  'fixed line': 'landline',
  voip: 'voip',
  'toll free': 'tollFree',
  'premium rate': 'premium',
  'shared cost': 'premium',
  'personal number': 'other',
  pager: 'other',
  uan: 'other',
  voicemail: 'other',
  'fixed line or mobile': null,
  unknown: null,
};

/**
 * Telnyx Number Lookup: `GET /v2/number_lookup/{phone_number}?type=carrier` with the API key as a
 * Bearer token; the answer is `{data: {country_code, carrier: {name, type, mobile_country_code,
 * mobile_network_code, normalized_carrier}, portability, …}}`. It knows no SIM changes. Errors are
 * `{errors: [{code, title, detail}]}`; a Canadian number on an account not enabled for them is 422,
 * an unknown one 404: the number is unknown to it, which is an answer.
 */
export class TelnyxLookup implements LookupProvider {
  readonly name = 'telnyx';
  readonly parts: LookupParts = { line: true, sim: false };

  constructor(private readonly options: TelnyxLookupOptions) {}

  async lookup(e164: string, parts: LookupParts, signal: AbortSignal): Promise<ProviderAnswer> {
    if (!parts.line) return { ok: true };
    const result = await requestJson(this.name, {
      method: 'GET',
      url: joinUrl(this.options.baseUrl, `/v2/number_lookup/${encodeURIComponent(e164)}?type=carrier`),
      headers: { authorization: `Bearer ${this.options.apiKey}` },
      signal,
    });
    if (!result.ok) return result;
    const { answer } = result;
    if (answer.status === 404 || answer.status === 422) return { ok: true, line: UNKNOWN_LINE };
    if (answer.status < 200 || answer.status >= 300) {
      const code = text(field(answer.json, 'errors', 0, 'code'));
      return statusFailure(this.name, answer.status, code ? `error ${code}` : undefined);
    }
    const data = field(answer.json, 'data');
    if (!isObject(data)) return garbage(this.name, answer);
    const carrier = isObject(data.carrier) ? data.carrier : {};
    const type = text(carrier.type)?.toLowerCase() ?? null;
    return {
      ok: true,
      line: {
        lineType: type === null ? null : type in CARRIER_TYPES ? (CARRIER_TYPES[type] ?? null) : 'other',
        carrier: text(carrier.normalized_carrier) ?? text(carrier.name),
        country: countryOf(data.country_code),
        // Telnyx documents a region code here for some numbers: only real codes are kept.
        ...networkCodes(carrier.mobile_country_code, carrier.mobile_network_code),
      },
    };
  }
}
