import { randomUUID } from 'node:crypto';
import type { components } from './schema.js';

type Schemas = components['schemas'];

/** The send-code body: `channel` for one channel, `channels` for two (see the API reference). */
export type SendCodeRequest = Schemas['SendCodeRequest'];
type SendData = Schemas['SendCodeResponse']['data'];
/** One entry of a send-code answer: `requestId`, `channel`, `status`, `expiresAt`, `to`, … */
export type SendEntry = Schemas['SendCodeEntry'];
export type VerifyCodeRequest = Schemas['VerifyCodeRequest'];
/** `verified`, `channel`, `requestId`, `status`, `attemptsRemaining`. */
export type VerifyResult = Schemas['VerifyCodeResult'];
export type Health = Schemas['Health'];
export type Channel = Schemas['Channel'];

/**
 * The closed list of error codes the service answers with (`error.code`), as the API document's
 * `ErrorCode` enum lists them (a test compares the two; the type check below fails on a code missing
 * here).
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'INVALID_DESTINATION',
  'UNSUPPORTED_NUMBER',
  'UNAUTHORIZED',
  /** A dashboard-session request without its CSRF token, or from another site (admin API only). */
  'FORBIDDEN',
  'CHANNEL_NOT_ENABLED',
  'CONTACT_BLOCKED',
  'RISK_TOO_HIGH',
  'NOT_FOUND',
  'REQUEST_TIMEOUT',
  'IDEMPOTENCY_KEY_IN_USE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'TOO_MANY_ATTEMPTS',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
  'DELIVERY_FAILED',
  'UNAVAILABLE',
  /** 503 that a retry does not cure: no provider for the channel (LIVE_OUTBOX=refuse); never retried. */
  'CHANNEL_UNAVAILABLE',
] as const satisfies ReadonlyArray<Schemas['ErrorCode']>;

// Fails to compile when the document's ErrorCode has a code ERROR_CODES lacks.
const everyCode: [Exclude<Schemas['ErrorCode'], (typeof ERROR_CODES)[number]>] extends [never]
  ? true
  : never = true;
void everyCode;

/** A code of the service, or `NETWORK_ERROR`: no answer at all (network failure or timeout, `status` 0). */
export type ErrorCode = (typeof ERROR_CODES)[number] | 'NETWORK_ERROR';

export interface ErrorDetail {
  field: string;
  message: string;
  channel?: string;
}

/** Every failure of a call: the service's error body, with the HTTP status and `Retry-After`. */
export class ContactVerifyError extends Error {
  override readonly name = 'ContactVerifyError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Seconds to wait before a retry can succeed (`Retry-After`), when the service said so. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** The service, e.g. `https://verify.example.com`. */
  baseUrl: string;
  /** A server-side API key (`cvk_live_…` or `cvk_test_…`). Never ship it to a browser or app. */
  apiKey: string;
  /** Per-attempt timeout in milliseconds (default 10,000). */
  timeoutMs?: number;
  /** Retries on 503 (but CHANNEL_UNAVAILABLE) and on 429 RATE_LIMITED with `Retry-After` (default 2). */
  maxRetries?: number;
  /** A `Retry-After` longer than this (seconds) is not waited for: the error is thrown (default 10). */
  maxRetryAfterSeconds?: number;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
}

export interface SendOptions extends CallOptions {
  /** Sent as `Idempotency-Key`; a random one is made per call when absent, kept across its retries. */
  idempotencyKey?: string;
}

export const VERSION = '0.1.0';

/** A send on one channel: answered with one entry. */
export type SingleSendRequest = Omit<SendCodeRequest, 'channel' | 'channels'> & {
  channel: Channel;
  channels?: never;
};
/** A send on two channels at once: answered with one entry per channel, in this order. */
export type DualSendRequest = Omit<SendCodeRequest, 'channel' | 'channels'> & {
  channels: [Channel, Channel];
  channel?: never;
};

/** A client of the contact verification API: send and verify one-time codes, read health. */
export class ContactVerify {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  /** Sends a code on one channel (an entry back) or on two at once (a list, in the order of `channels`). */
  sendCode(request: SingleSendRequest, options?: SendOptions): Promise<SendEntry>;
  sendCode(request: DualSendRequest, options?: SendOptions): Promise<SendEntry[]>;
  sendCode(request: SendCodeRequest, options?: SendOptions): Promise<SendEntry | SendEntry[]>;
  async sendCode(request: SendCodeRequest, options: SendOptions = {}): Promise<SendEntry | SendEntry[]> {
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    const body = await this.call('POST', '/v1/contact/send-code', request, options, {
      'idempotency-key': idempotencyKey,
    });
    return (body as { data: SendData }).data;
  }

  /** Checks a code; a wrong code is `verified: false`, not an error. */
  async verifyCode(request: VerifyCodeRequest, options: CallOptions = {}): Promise<VerifyResult> {
    const body = await this.call('POST', '/v1/contact/verify-code', request, options);
    return (body as { data: VerifyResult }).data;
  }

  /** The service's health (no key needed). */
  async health(options: CallOptions = {}): Promise<Health> {
    return (await this.call('GET', '/health', undefined, options)) as Health;
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    options: CallOptions,
    extraHeaders: Record<string, string> = {},
  ): Promise<unknown> {
    const maxRetries = options.maxRetries ?? this.options.maxRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      const error = await this.once(method, path, body, extraHeaders).then(
        (answer) => answer,
        (err: unknown) => err,
      );
      if (!(error instanceof ContactVerifyError)) return error;
      const wait = this.retryDelay(error, attempt);
      if (attempt >= maxRetries || wait === null) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Milliseconds to wait before retrying `error`, or null when it must not be retried. */
  private retryDelay(error: ContactVerifyError, attempt: number): number | null {
    const cap = this.options.maxRetryAfterSeconds ?? 10;
    // The operator must configure a provider first: retrying only delays the answer.
    if (error.code === 'CHANNEL_UNAVAILABLE') return null;
    if (error.status === 503) {
      return error.retryAfter !== null ? Math.min(error.retryAfter, cap) * 1000 : 250 * 2 ** attempt;
    }
    if (error.status === 429 && error.code === 'RATE_LIMITED' && error.retryAfter !== null) {
      return error.retryAfter <= cap ? error.retryAfter * 1000 : null;
    }
    return null;
  }

  private async once(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    extraHeaders: Record<string, string>,
  ): Promise<unknown> {
    let res: Response;
    try {
      res = await this.fetchImpl(this.baseUrl + path, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${this.options.apiKey}`,
          'user-agent': `contact-verify-node/${VERSION}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...extraHeaders,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new ContactVerifyError(0, 'NETWORK_ERROR', `No answer from ${this.baseUrl}: ${String(err)}`);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // A proxy's HTML page: reported below with the status.
    }
    if (res.ok) return parsed;
    const retryAfter = Number.parseInt(res.headers.get('retry-after') ?? '', 10);
    const error = (parsed as { error?: { code?: string; message?: string; details?: ErrorDetail[] } } | null)
      ?.error;
    throw new ContactVerifyError(
      res.status,
      error?.code ?? (res.status === 503 ? 'UNAVAILABLE' : 'INTERNAL'),
      error?.message ?? `HTTP ${res.status}`,
      error?.details ?? [],
      Number.isFinite(retryAfter) ? retryAfter : null,
    );
  }
}
