import type { SilentOutcome } from '../../domain/silent.js';
import type { ProviderState, SendOutcome } from '../interface.js';

/** A provider API's answer, with its body parsed as JSON when it is JSON. */
export interface ApiAnswer {
  status: number;
  json: unknown;
}

export interface ApiRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** A form (URLSearchParams) or a JSON value. */
  body?: URLSearchParams | unknown;
  timeoutMs: number;
}

/** The one HTTP client of the providers: global fetch with a hard timeout. */
export async function callApi(
  provider: string,
  req: ApiRequest,
): Promise<{ ok: true; answer: ApiAnswer } | { ok: false; outcome: SendOutcome }> {
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  let body: string | undefined;
  if (req.body instanceof URLSearchParams) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = req.body.toString();
  } else if (req.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: req.method,
      headers,
      body,
      signal: AbortSignal.timeout(req.timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    return { ok: false, outcome: networkFailure(provider, err, req.timeoutMs) };
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    return { ok: false, outcome: networkFailure(provider, err, req.timeoutMs) };
  }
  let json: unknown = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  return { ok: true, answer: { status: res.status, json } };
}

/** Timeouts, refused and dropped connections: another provider may well succeed. */
function networkFailure(provider: string, err: unknown, timeoutMs: number): SendOutcome {
  const e = err as { name?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    return { ok: false, retryable: true, error: `${provider} did not answer within ${timeoutMs} ms` };
  }
  const code = e?.cause?.code ?? e?.name ?? 'network error';
  return { ok: false, retryable: true, error: `${provider} could not be reached (${code})` };
}

/**
 * The failure for an HTTP status the provider did not explain as a refusal of the destination:
 * 429 and 5xx are transient, and 4xx such as bad credentials or a sender not allowed are this
 * deployment's problem with this provider, so another provider may succeed either way.
 */
export function httpFailure(provider: string, status: number, detail?: string): SendOutcome {
  const what = status === 429 ? 'is rate limiting' : `answered HTTP ${status}`;
  return { ok: false, retryable: true, error: `${provider} ${what}${detail ? ` (${detail})` : ''}` };
}

/** A refusal of the destination itself: no other provider is tried and the API answers 400. */
export function refused(provider: string, detail: string): SendOutcome {
  return { ok: false, retryable: false, error: `${provider} refused the destination: ${detail}` };
}

/** check(): an authenticated read that sends nothing; any 2xx is up. */
export async function probe(provider: string, req: Omit<ApiRequest, 'method'>): Promise<ProviderState> {
  const result = await callApi(provider, { ...req, method: 'GET' });
  return result.ok && result.answer.status >= 200 && result.answer.status < 300 ? 'up' : 'down';
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

/** Joins a configured base URL and a path without doubling or losing the slash. */
export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

/** A silent check's call that got no answer (a timeout, a refused connection): the provider is unavailable. */
export const unanswered = (outcome: SendOutcome): SilentOutcome => ({
  kind: 'unavailable',
  reason: outcome.ok ? 'no answer' : outcome.error,
});
