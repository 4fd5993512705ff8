import http from 'node:http';
import https from 'node:https';
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
 * Keep-alive connections to the providers, pooled per origin with no bound on their number: each
 * of N concurrent lookups gets a connection of its own at once (none queues behind another), and
 * the next lookup reuses one instead of a TCP and TLS handshake. An idle one closes after 4 s,
 * sooner when the provider's Keep-Alive header says so.
 */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, timeout: 4000, maxFreeSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, timeout: 4000, maxFreeSockets: 256 }),
} as const;

/** What `fetch` with `redirect: 'error'` refused: a redirect is not followed but fails. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The one HTTP client of the lookup providers, bounded by the lookup's signal (which covers reading
 * the body too, so a server that sends headers and then stalls is cut off as well). node:http on
 * pooled connections rather than global fetch: a cold send waits on this request, and fetch cost
 * about three times its CPU per request (and its first call loads undici), which 50 concurrent
 * lookups pay one after another on the event loop.
 */
export async function requestJson(
  provider: string,
  req: JsonRequest,
): Promise<{ ok: true; answer: JsonAnswer } | Failure> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': 'contact-verify',
    ...req.headers,
  };
  let body: string | undefined;
  if (req.body instanceof URLSearchParams) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = req.body.toString();
  } else if (req.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  try {
    const res = await exchange(req, headers, body);
    if (REDIRECTS.has(res.status))
      return { ok: false, retryable: true, error: `${provider} could not be reached (redirect)` };
    const contentType = res.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    return { ok: true, answer: { status: res.status, json: parseJson(res.text, contentType), contentType } };
  } catch (err) {
    return networkFailure(provider, err, req.signal);
  }
}

interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * One request and its whole body. A pooled connection the server closed while it sat idle fails
 * before any answer: the request is then made once more, on a new connection.
 */
async function exchange(
  req: JsonRequest,
  headers: Record<string, string>,
  body?: string,
): Promise<RawAnswer> {
  try {
    return await attempt(req, headers, body);
  } catch (err) {
    if (!(err as { reusedSocket?: boolean }).reusedSocket || req.signal.aborted) throw err;
    return attempt(req, headers, body);
  }
}

function attempt(req: JsonRequest, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    const { signal } = req;
    if (signal.aborted) return reject(signal.reason);
    const url = new URL(req.url);
    const agent = url.protocol === 'https:' ? AGENTS['https:'] : AGENTS['http:'];
    const client = url.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (err: unknown, answer?: RawAnswer) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (answer) resolve(answer);
      else reject(err);
    };
    const request = client.request(url, { method: req.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        finish(null, {
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          // As fetch's text(): UTF-8, a byte order mark dropped.
          text: Buffer.concat(chunks)
            .toString('utf8')
            .replace(/^\uFEFF/, ''),
        }),
      );
      res.on('error', (err) => finish(err));
      // Closed before its end: the connection was cut mid-answer. After 'end' the answer has
      // settled already, and no Error is made (its stack trace cost 20 µs a lookup, bench:lookup).
      res.on('close', () => {
        if (!settled) finish(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }));
      });
    });
    // The budget's end leaves the connection unusable: it is closed, not pooled.
    const onAbort = () => {
      finish(signal.reason);
      request.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (err) => {
      const reused = request.reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET';
      finish(reused ? Object.assign(err, { reusedSocket: true }) : err);
    });
    request.end(body);
  });
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
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  return {
    ok: false,
    retryable: true,
    error: `${provider} could not be reached (${e?.code ?? e?.cause?.code ?? e?.name ?? 'network error'})`,
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
