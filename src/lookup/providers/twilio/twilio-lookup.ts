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
  timeOf,
} from '../../http.js';
import {
  type AnsweredSimChange,
  type LineFacts,
  type LookupProvider,
  type ProviderAnswer,
  UNKNOWN_LINE,
} from '../../interface.js';

export interface TwilioLookupOptions {
  accountSid: string;
  authToken: string;
  baseUrl: string;
}

/**
 * `line_type_intelligence.type` (Twilio's Line Type Intelligence page): fixed and non-fixed VoIP
 * are VoIP; shared-cost numbers are billed like premium ones (the numbers SMS pumping sends to);
 * personal, UAN, voicemail and pager numbers are other; `unknown` says nothing.
 */
const LINE_TYPES: Record<string, LineType | null> = {
  mobile: 'mobile',
  landline: 'landline',
  fixedVoip: 'voip',
  nonFixedVoip: 'voip',
  tollFree: 'tollFree',
  premium: 'premium',
  sharedCost: 'premium',
  personal: 'other',
  uan: 'other',
  voicemail: 'other',
  pager: 'other',
  unknown: null,
};

/** Hours of an ISO 8601 duration as Twilio writes `swapped_period` (PT24H, PT15282H33M44S, P2D). */
export function durationHours(value: unknown): number | null {
  const m =
    typeof value === 'string'
      ? /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value)
      : null;
  if (!m || value === 'P' || value === 'PT') return null;
  const [, d = '0', h = '0', min = '0', s = '0'] = m;
  return Number(d) * 24 + Number(h) + Number(min) / 60 + Number(s) / 3600;
}

/**
 * Twilio Lookup v2: `GET /v2/PhoneNumbers/{PhoneNumber}?Fields=line_type_intelligence,sim_swap`,
 * HTTP Basic with the Account SID and Auth Token. Each package answers in its own object with its
 * own `error_code` (60600 unprovisioned or out of coverage, 60601 a Canadian number without
 * access, 60620 incomplete SIM swap data): the number is then unknown to it, which is an answer.
 * An invalid number is `valid: false` with HTTP 200. Errors are `{code, message, more_info,
 * status}`: 20003 (401) bad credentials, 20404 (404) not found, 20429 (429) too many concurrent
 * requests.
 */
export class TwilioLookup implements LookupProvider {
  readonly name = 'twilio';
  readonly parts: LookupParts = { line: true, sim: true };

  constructor(private readonly options: TwilioLookupOptions) {}

  async lookup(e164: string, parts: LookupParts, signal: AbortSignal): Promise<ProviderAnswer> {
    const o = this.options;
    const fields = [parts.line && 'line_type_intelligence', parts.sim && 'sim_swap']
      .filter(Boolean)
      .join(',');
    const result = await requestJson(this.name, {
      method: 'GET',
      url: joinUrl(o.baseUrl, `/v2/PhoneNumbers/${encodeURIComponent(e164)}?Fields=${fields}`),
      headers: { authorization: `Basic ${Buffer.from(`${o.accountSid}:${o.authToken}`).toString('base64')}` },
      signal,
    });
    if (!result.ok) return result;
    const { answer } = result;
    if (answer.status === 404) return unknownNumber(parts);
    if (answer.status < 200 || answer.status >= 300) {
      const code = field(answer.json, 'code');
      return statusFailure(this.name, answer.status, typeof code === 'number' ? `error ${code}` : undefined);
    }
    const json = answer.json;
    if (!isObject(json)) return garbage(this.name, answer);
    if (json.valid === false) return unknownNumber(parts);
    return {
      ok: true,
      ...(parts.line ? { line: lineOf(json) } : {}),
      ...(parts.sim ? { sim: { lastSimChange: simOf(json.sim_swap) } } : {}),
    };
  }
}

const unknownNumber = (parts: LookupParts): ProviderAnswer => ({
  ok: true,
  ...(parts.line ? { line: UNKNOWN_LINE } : {}),
  ...(parts.sim ? { sim: { lastSimChange: null } } : {}),
});

function lineOf(json: Record<string, unknown>): LineFacts {
  const lti = json.line_type_intelligence;
  const country = countryOf(json.country_code);
  if (!isObject(lti) || lti.error_code != null) return { ...UNKNOWN_LINE, country };
  const type = text(lti.type);
  return {
    lineType: type === null ? null : type in LINE_TYPES ? (LINE_TYPES[type] ?? null) : 'other',
    carrier: text(lti.carrier_name),
    country,
    ...networkCodes(lti.mobile_country_code, lti.mobile_network_code),
  };
}

function simOf(simSwap: unknown): AnsweredSimChange | null {
  if (!isObject(simSwap) || simSwap.error_code != null) return null;
  const last = simSwap.last_sim_swap;
  if (!isObject(last)) return null;
  const at = timeOf(last.last_sim_swap_date);
  if (at !== null) return { at };
  // Countries whose carriers give no date: whether it changed within the period set at onboarding.
  const hours = durationHours(last.swapped_period);
  if (hours === null || typeof last.swapped_in_period !== 'boolean') return null;
  return { withinHours: hours, changed: last.swapped_in_period };
}
