import type { LineType, LookupParts } from '../../../domain/number-intelligence.js';
import {
  countryOf,
  garbage,
  isObject,
  joinUrl,
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
import type { VonageJwt } from './vonage-jwt.js';

export interface IdentityInsightsOptions {
  baseUrl: string;
  jwt: VonageJwt;
  purpose: string;
  /** The `period` of the sim_swap insight (1–2400 hours). */
  simSwapWindowHours: number;
}

/**
 * `network_type` of the carrier insights. Identity Insights writes them upper case; Number
 * Insight, whose carrier object it took over, documented `mobile`, `landline`,
 * `landline_premium`, `landline_tollfree`, `virtual`, `pager` and `unknown`: both spellings are read.
 */
const NETWORK_TYPES: Record<string, LineType | null> = {
  mobile: 'mobile',
  landline: 'landline',
  fixed: 'landline',
  landline_premium: 'premium',
  premium: 'premium',
  premium_rate: 'premium',
  landline_tollfree: 'tollFree',
  toll_free: 'tollFree',
  tollfree: 'tollFree',
  virtual: 'voip',
  voip: 'voip',
  pager: 'other',
  unknown: null,
};

/** Per-insight status codes (each insight is processed independently). */
const ANSWERED = new Set(['OK', 'PARTIAL_SUCCESS']);
/** The number is unknown to this insight: an answer, not a failure. */
const UNKNOWN = new Set(['NOT_FOUND', 'NO_COVERAGE', 'INVALID_NUMBER_FORMAT', 'UNSUPPORTED_NETWORK_TYPE']);
/** The supplier or Vonage failed this time. */
const TRANSIENT = new Set(['SUPPLIER_ERROR', 'INTERNAL_ERROR']);

/**
 * Vonage Identity Insights: `POST /identity-insights/v1/requests` with a JWT, asking the
 * `original_carrier` insight (the number range's carrier and network type), `current_carrier`
 * (the carrier after porting, mobile numbers only) and `sim_swap` with a `period`. Each insight
 * answers with its own `status.code`. Errors of the request itself are
 * `application/problem+json` `{type, title, detail, instance}` (401 bad JWT, 422, 429, 5xx).
 */
export class IdentityInsightsLookup implements LookupProvider {
  readonly name = 'vonage';
  readonly parts: LookupParts = { line: true, sim: true };

  constructor(private readonly options: IdentityInsightsOptions) {}

  async lookup(e164: string, parts: LookupParts, signal: AbortSignal): Promise<ProviderAnswer> {
    const o = this.options;
    const insights: Record<string, unknown> = {};
    if (parts.line) Object.assign(insights, { original_carrier: {}, current_carrier: {} });
    if (parts.sim) insights.sim_swap = { period: o.simSwapWindowHours };
    const result = await requestJson(this.name, {
      method: 'POST',
      url: joinUrl(o.baseUrl, '/identity-insights/v1/requests'),
      headers: { authorization: `Bearer ${o.jwt.token()}` },
      body: { phone_number: e164.replace(/^\+/, ''), purpose: o.purpose, insights },
      signal,
    });
    if (!result.ok) return result;
    const { answer } = result;
    if (answer.status < 200 || answer.status >= 300) {
      return statusFailure(
        this.name,
        answer.status,
        text((answer.json as { title?: unknown })?.title) ?? undefined,
      );
    }
    const got = isObject(answer.json) ? answer.json.insights : undefined;
    if (!isObject(got)) return garbage(this.name, answer);

    const failed = [parts.line && 'original_carrier', parts.sim && 'sim_swap']
      .filter((name): name is string => Boolean(name))
      .map((name) => ({ name, code: statusOf(got[name]) }))
      .find(({ code }) => code !== null && !ANSWERED.has(code) && !UNKNOWN.has(code));
    if (failed) {
      return {
        ok: false,
        retryable: TRANSIENT.has(failed.code ?? ''),
        error: `${this.name} answered ${failed.code} for the ${failed.name} insight`,
      };
    }
    return {
      ok: true,
      ...(parts.line ? { line: lineOf(got.original_carrier, got.current_carrier) } : {}),
      ...(parts.sim ? { sim: { lastSimChange: simOf(got.sim_swap, o.simSwapWindowHours) } } : {}),
    };
  }
}

const statusOf = (insight: unknown): string | null =>
  isObject(insight) && isObject(insight.status) ? text(insight.status.code) : null;

const answered = (insight: unknown): insight is Record<string, unknown> =>
  isObject(insight) && ANSWERED.has(statusOf(insight) ?? '');

/** "MCC + MNC" as one string (23410): the first three digits and the rest. */
function networkCode(value: unknown): { mcc: string | null; mnc: string | null } {
  const code = text(value);
  if (code === null || !/^\d{5,6}$/.test(code)) return { mcc: null, mnc: null };
  return { mcc: code.slice(0, 3), mnc: code.slice(3) };
}

function lineOf(original: unknown, current: unknown): LineFacts {
  if (!answered(original) && !answered(current)) return UNKNOWN_LINE;
  // The current carrier reflects porting; the original one knows line types beyond mobile.
  const carrier = answered(current) ? current : (original as Record<string, unknown>);
  const typed = answered(original) ? original : carrier;
  const type = text(typed.network_type)?.toLowerCase() ?? null;
  return {
    lineType: type === null ? null : type in NETWORK_TYPES ? (NETWORK_TYPES[type] ?? null) : 'other',
    carrier: text(carrier.name),
    country: countryOf(carrier.country_code),
    ...networkCode(carrier.network_code),
  };
}

function simOf(insight: unknown, period: number): AnsweredSimChange | null {
  if (!answered(insight)) return null;
  const at = timeOf(insight.latest_sim_swap_at);
  if (at !== null) return { at };
  return typeof insight.is_swapped === 'boolean'
    ? { withinHours: period, changed: insight.is_swapped }
    : null;
}
