// The one place the dashboard talks to the service: same-origin calls with the session cookie,
// the CSRF token on every write. The admin token itself is sent once (sign-in) and never kept.
import type { Session } from './types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let onSignedOut: () => void = () => {};

/** Called by the app so any 401 (expired session) sends the operator back to the sign-in page. */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toError(status: number, body: unknown): ApiError {
  const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
  return new ApiError(
    status,
    error?.code ?? `HTTP_${status}`,
    error?.message ?? `The service answered ${status}.`,
    error?.details,
  );
}

export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  init: { raw?: Blob; contentType?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let payload: BodyInit | undefined;
  if (init.raw) {
    payload = init.raw;
    headers['content-type'] = init.contentType ?? init.raw.type;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  const parsed = await parse(res);
  if (!res.ok) {
    const error = toError(res.status, parsed);
    if (res.status === 401 && !path.startsWith('/dashboard/api/session')) {
      csrfToken = null;
      onSignedOut();
    }
    throw error;
  }
  return parsed as T;
}

export const get = <T>(path: string) => request<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {});
export const patch = <T>(path: string, body: unknown) => request<T>('PATCH', path, body);
export const del = <T>(path: string) => request<T>('DELETE', path);

export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export async function signIn(token: string): Promise<Session> {
  const { data } = await request<{ data: Session }>('POST', '/dashboard/api/session', { token });
  csrfToken = data.csrfToken;
  return data;
}

/** The session the cookie already holds (a reload), or null. */
export async function resumeSession(): Promise<Session | null> {
  try {
    const { data } = await request<{ data: Session }>('GET', '/dashboard/api/session');
    csrfToken = data.csrfToken;
    return data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export async function signOut(): Promise<void> {
  try {
    await request('DELETE', '/dashboard/api/session');
  } finally {
    csrfToken = null;
  }
}
