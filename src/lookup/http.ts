import type { ProviderAnswer } from './interface.js';

/** A lookup API's answer: its status and its body as JSON (null when it is not JSON). */
export interface JsonAnswer {
  status: number;
  json: unknown;
  /** The body's media type as the answer declared it, lower case, without parameters. */
  contentType: string;
}

export interface JsonRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** A form (URLSearchParams) or a JSON value. */
  body?: URLSearchParams | unknown;
  signal: AbortSignal;
}

type Failure = Extract<ProviderAnswer, { ok: false }>;

/**
 * The one HTTP client of the lookup providers: global fetch, bounded by the lookup's signal (which
 * covers reading the body too, so a server that sends headers and then stalls is cut off as well).
 */
export async function requestJson(
  provider: string,
  req: JsonRequest,
): Promise<{ ok: true; answer: JsonAnswer } | Failure> {
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  let body: string | undefined;
  if (req.body instanceof URLSearchParams) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = req.body.toString();
  } else if (req.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers,
      body,
      signal: req.signal,
      redirect: 'error',
    });
    const text = await res.text();
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    return { ok: true, answer: { status: res.status, json: parseJson(text, contentType), contentType } };
  } catch (err) {
    return networkFailure(provider, err, req.signal);
  }
}

/** JSON only when the answer says it is JSON (`application/json`, `application/problem+json` …). */
function parseJson(text: string, contentType: string): unknown {
  if (!text || !/^application\/([\w.-]+\+)?json$/.test(contentType)) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function networkFailure(provider: string, err: unknown, signal: AbortSignal): Failure {
  if (signal.aborted) return { ok: false, retryable: true, error: `${provider} did not answer in time` };
  const e = err as { name?: string; cause?: { code?: string } };
  return {
    ok: false,
    retryable: true,
    error: `${provider} could not be reached (${e?.cause?.code ?? e?.name ?? 'network error'})`,
  };
}

/**
 * The failure for an error status: 429 and 5xx are transient; 401 and 403 are this deployment's
 * credentials or permissions, which no retry mends. `detail` is the provider's error code, never its
 * message (which may echo the number).
 */
export function statusFailure(provider: string, status: number, detail?: string): Failure {
  const what = status === 429 ? 'is rate limiting' : `answered HTTP ${status}`;
  return {
    ok: false,
    retryable: status === 429 || status >= 500 || status === 408,
    error: `${provider} ${what}${detail ? ` (${detail})` : ''}`,
  };
}

/** A success status whose body is not the JSON object the API documents. */
export function garbage(provider: string, answer: JsonAnswer): Failure {
  const what =
    answer.json === null
      ? `a body that is not JSON (${answer.contentType || 'no content type'})`
      : 'JSON of an unexpected shape';
  return { ok: false, retryable: true, error: `${provider} answered ${answer.status} with ${what}` };
}

/** Reads a nested field of an untyped JSON answer. */
export function field(json: unknown, ...path: Array<string | number>): unknown {
  let value: unknown = json;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** A field that is a non-empty string, else null. */
export const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** An RFC 3339 time as epoch ms, else null. */
export function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** True for a JSON object (not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Joins a configured base URL and a path without doubling or losing the slash. */
export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

/** Mobile country and network codes, when they look like them (3 digits, 2 or 3 digits). */
export function networkCodes(mcc: unknown, mnc: unknown): { mcc: string | null; mnc: string | null } {
  const c = typeof mcc === 'number' ? String(mcc) : text(mcc);
  const n = typeof mnc === 'number' ? String(mnc) : text(mnc);
  const okMcc = c !== null && /^\d{3}$/.test(c) ? c : null;
  return { mcc: okMcc, mnc: okMcc !== null && n !== null && /^\d{2,3}$/.test(n) ? n : null };
}

/** An ISO 3166-1 alpha-2 code, upper case, else null. */
export function countryOf(value: unknown): string | null {
  const c = text(value);
  return c !== null && /^[A-Za-z]{2}$/.test(c) ? c.toUpperCase() : null;
}
