import { randomUUID } from 'node:crypto';
import { ContactVerifyError, type ErrorDetail, NoOutboxCodeError } from './errors.js';
import type { components } from './schema.js';

export {
  AuthenticationError,
  ContactVerifyError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorDetail,
  InvalidRequestError,
  NetworkError,
  NoOutboxCodeError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TooManyAttemptsError,
} from './errors.js';
/** Every type of the API document, as openapi-typescript generates them (`components['schemas']['Risk']`). */
export type { components, operations, paths } from './schema.js';

type Schemas = components['schemas'];

/** The send-code body: `channel` for one channel, `channels` for two, and every option of the API. */
export type SendCodeRequest = Schemas['SendCodeRequest'];
/** One entry of a send-code answer: `requestId`, `channel`, `status`, `expiresAt`, `to`, `risk`, … */
export type SendEntry = Schemas['SendCodeEntry'];
export type VerifyCodeRequest = Schemas['VerifyCodeRequest'];
/** `verified`, `channel`, `requestId`, `status`, `attemptsRemaining`. */
export type VerifyResult = Schemas['VerifyCodeResult'];
export type Health = Schemas['Health'];
/** A message the service's outbox keeps; `code` is set for a pending test-mode request. */
export type OutboxMessage = Schemas['OutboxMessage'];
/**
 * A verification request as it is now (`getVerification`, `cancelVerification`): `status`,
 * `verifiedAt` and `method` (only when verified), `siblingRequestId` (dual sends), `delivery`.
 */
export type Verification = Schemas['Verification'];
/** What became of the message (or call) that carries the code: `status`, `provider`, `updatedAt`. */
export type VerificationDelivery = Schemas['VerificationDelivery'];
/** send-code's `link` (EMAIL): `{}`, or `{ redirectUrl }` (an origin of the account's `linkRedirectOrigins`). */
export type SendLink = Schemas['SendLink'];
/** The code a SILENT request fell back to (send-code's `fallback`): either requestId verifies it. */
export type SilentFallback = Schemas['SilentFallback'];
/** What the provider concluded of a SILENT check (`VerifyResult.silent.outcome`); `pending`: call again. */
export type SilentOutcome = NonNullable<VerifyResult['silent']>['outcome'];

/** Fails to compile unless `T`'s values are exactly the members of the union `U`. */
type Exactly<T extends Record<string, U>, U extends string> = [Exclude<U, T[keyof T]>] extends [never]
  ? T
  : { missing: Exclude<U, T[keyof T]> };

export type Channel = Schemas['Channel'];
/** Channels, for those who prefer `Channel.EMAIL` to the string `'EMAIL'` (both are accepted). */
export const Channel = {
  EMAIL: 'EMAIL',
  SMS: 'SMS',
  WHATSAPP: 'WHATSAPP',
  VOICE: 'VOICE',
  /** Silent network authentication: open the entry's `silent.url` on the device, then `verifyCode({ requestId })`. */
  SILENT: 'SILENT',
} as const satisfies Exactly<
  { EMAIL: 'EMAIL'; SMS: 'SMS'; WHATSAPP: 'WHATSAPP'; VOICE: 'VOICE'; SILENT: 'SILENT' },
  Channel
>;
export type DeliveryType = Schemas['DeliveryType'];
/** How a WHATSAPP code is delivered: a message (`TEXT`, the default) or a call read out (`CALL`). */
export const DeliveryType = { TEXT: 'TEXT', CALL: 'CALL' } as const satisfies Exactly<
  { TEXT: 'TEXT'; CALL: 'CALL' },
  DeliveryType
>;
export type VerificationStatus = Schemas['VerificationStatus'];
/** The state of a verification request (`VerifyResult.status`). */
export const VerificationStatus = {
  PENDING: 'pending',
  VERIFIED: 'verified',
  EXPIRED: 'expired',
  FAILED: 'failed',
  CANCELED: 'canceled',
} as const satisfies Exactly<
  { PENDING: 'pending'; VERIFIED: 'verified'; EXPIRED: 'expired'; FAILED: 'failed'; CANCELED: 'canceled' },
  VerificationStatus
>;
export type VerificationMethod = Schemas['VerificationMethod'];
/**
 * How a request was verified (`Verification.method`): the code typed, the email's magic link, or
 * the mobile network. As every enum here, the values this version knows: a newer service may
 * answer another string, so give a `switch` on it a `default`.
 */
export const VerificationMethod = { CODE: 'code', LINK: 'link', SILENT: 'silent' } as const satisfies Exactly<
  { CODE: 'code'; LINK: 'link'; SILENT: 'silent' },
  VerificationMethod
>;
export type DeliveryState = Schemas['DeliveryState'];
/** Where the message (or call) that carries the code is (`Verification.delivery.status`); the last four are calls'. */
export const DeliveryState = {
  QUEUED: 'queued',
  SENT: 'sent',
  DELIVERED: 'delivered',
  UNDELIVERED: 'undelivered',
  AWAITING_PERMISSION: 'awaiting_permission',
  CALLING: 'calling',
  ANSWERED: 'answered',
  COMPLETED: 'completed',
} as const satisfies Exactly<
  {
    QUEUED: 'queued';
    SENT: 'sent';
    DELIVERED: 'delivered';
    UNDELIVERED: 'undelivered';
    AWAITING_PERMISSION: 'awaiting_permission';
    CALLING: 'calling';
    ANSWERED: 'answered';
    COMPLETED: 'completed';
  },
  DeliveryState
>;
export type FallbackReason = Schemas['FallbackReason'];
/** Why a SILENT request fell back to a code. */
export const FallbackReason = {
  PROVIDER_FAILED: 'provider_failed',
  REJECTED: 'rejected',
  TIMEOUT: 'timeout',
} as const satisfies Exactly<
  { PROVIDER_FAILED: 'provider_failed'; REJECTED: 'rejected'; TIMEOUT: 'timeout' },
  FallbackReason
>;
export type SendEntryStatus = Schemas['SendCodeEntryStatus'];
/** A send entry's status: `pending` (sent), or `undelivered` (one channel of a dual send failed). */
export const SendEntryStatus = { PENDING: 'pending', UNDELIVERED: 'undelivered' } as const satisfies Exactly<
  { PENDING: 'pending'; UNDELIVERED: 'undelivered' },
  SendEntryStatus
>;
export type RiskLevel = Schemas['RiskLevel'];
export const RiskLevel = { LOW: 'low', MEDIUM: 'medium', HIGH: 'high' } as const satisfies Exactly<
  { LOW: 'low'; MEDIUM: 'medium'; HIGH: 'high' },
  RiskLevel
>;
export type HealthStatus = Schemas['HealthStatus'];
export const HealthStatus = { OK: 'ok', DEGRADED: 'degraded', DOWN: 'down' } as const satisfies Exactly<
  { OK: 'ok'; DEGRADED: 'degraded'; DOWN: 'down' },
  HealthStatus
>;

/** The HTTP function the client calls: the global `fetch` by default. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

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
  /** Replaces the global fetch: a proxy's, a recording one in tests, undici with a custom agent. */
  fetch?: FetchLike;
}

export interface CallOptions {
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Aborts the call (every attempt and the waits between them). */
  signal?: AbortSignal;
}

export interface SendOptions extends CallOptions {
  /** Sent as `Idempotency-Key`; a random one is made per call when absent, kept across its retries. */
  idempotencyKey?: string;
}

export const VERSION = '0.2.0';

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

/** The resource's path; the id is one path segment, whatever it holds. */
const verificationPath = (requestId: string) => `/v1/contact/verifications/${encodeURIComponent(requestId)}`;

/** One HTTP exchange with the service: the parsed JSON answer, or a typed error. */
async function exchange(
  fetchImpl: FetchLike,
  url: string,
  init: { method: 'GET' | 'POST'; token: string; body?: unknown; headers?: Record<string, string> },
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  let res: Response;
  let text: string;
  // One signal for the per-attempt timeout and the caller's own (AbortSignal.any needs Node 20.3).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  const forward = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  try {
    res = await fetchImpl(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${init.token}`,
        'user-agent': `contact-verify-node/${VERSION}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: controller.signal,
    });
    text = await res.text();
  } catch (err) {
    // The caller's own abort is not a network failure: it is rethrown as is.
    if (signal?.aborted) throw err;
    throw ContactVerifyError.from(0, 'NETWORK_ERROR', `No answer from ${url}: ${String(err)}`);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
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
  throw ContactVerifyError.from(
    res.status,
    error?.code ?? (res.status === 503 ? 'UNAVAILABLE' : 'INTERNAL'),
    error?.message ?? `HTTP ${res.status}`,
    error?.details ?? [],
    Number.isFinite(retryAfter) ? retryAfter : null,
  );
}

/** A client of the contact verification API: send and verify one-time codes, read health. */
export class ContactVerify {
  private readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  }

  /**
   * Sends a code on one channel (an entry back) or on two at once (a list, in the order of
   * `channels`). Every option of the API is a member of `request`: `purpose`, `customMessage`,
   * `locale`, `deliveryType`, `country`, `link` (EMAIL: `{}` or `{ redirectUrl }`, a magic link
   * in the email) and `fallback` (SILENT: the channel of a code sent if the silent check fails);
   * the caller's `idempotencyKey` goes in `options`.
   */
  sendCode(request: SingleSendRequest, options?: SendOptions): Promise<SendEntry>;
  sendCode(request: DualSendRequest, options?: SendOptions): Promise<SendEntry[]>;
  sendCode(request: SendCodeRequest, options?: SendOptions): Promise<SendEntry | SendEntry[]>;
  async sendCode(request: SendCodeRequest, options: SendOptions = {}): Promise<SendEntry | SendEntry[]> {
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    const body = await this.call('POST', '/v1/contact/send-code', request, options, {
      'idempotency-key': idempotencyKey,
    });
    return (body as Schemas['SendCodeResponse']).data;
  }

  /**
   * Checks a code; a wrong code is `verified: false`, not an error. A SILENT request takes its
   * `requestId` alone (its provider is asked: `result.silent.outcome`), or with the `code` the
   * device received from `silent.url` when its provider hands one out.
   */
  async verifyCode(request: VerifyCodeRequest, options: CallOptions = {}): Promise<VerifyResult> {
    const body = await this.call('POST', '/v1/contact/verify-code', request, options);
    return (body as Schemas['VerifyCodeResponse']).data;
  }

  /**
   * A request as it is now: its status, how and when it was verified, its delivery. An unknown id
   * (or another account's) throws `NotFoundError`.
   */
  async getVerification(requestId: string, options: CallOptions = {}): Promise<Verification> {
    const body = await this.call('GET', verificationPath(requestId), undefined, options);
    return (body as Schemas['VerificationResponse']).data;
  }

  /**
   * Cancels a pending request and its dual sibling (their codes no longer verify) and returns it;
   * a settled request is returned as it is, so a repeated cancel is safe.
   */
  async cancelVerification(requestId: string, options: CallOptions = {}): Promise<Verification> {
    // An empty object: the cancel takes no field.
    const body = await this.call('POST', `${verificationPath(requestId)}/cancel`, {}, options);
    return (body as Schemas['VerificationResponse']).data;
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
    headers: Record<string, string> = {},
  ): Promise<unknown> {
    const maxRetries = options.maxRetries ?? this.options.maxRetries ?? 2;
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    for (let attempt = 0; ; attempt++) {
      try {
        return await exchange(
          this.fetchImpl,
          this.baseUrl + path,
          { method, token: this.options.apiKey, body, headers },
          timeoutMs,
          options.signal,
        );
      } catch (error) {
        if (!(error instanceof ContactVerifyError)) throw error;
        const wait = this.retryDelay(error, attempt);
        if (attempt >= maxRetries || wait === null) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
        options.signal?.throwIfAborted();
      }
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
}

export interface TestOutboxOptions {
  /** The service, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The service's ADMIN_TOKEN. Tests only: never give it to production code. */
  adminToken: string;
  timeoutMs?: number;
  fetch?: FetchLike;
}

/**
 * For tests only: reads the codes of test-mode sends (made with a `cvk_test_` key) from the
 * service's outbox with the admin token, so an automated test verifies without a mailbox or a
 * phone. Live requests never carry their code.
 */
export class TestOutbox {
  private readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;

  constructor(private readonly options: TestOutboxOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  }

  /** The messages the outbox holds for `to` (an address or a `+` number), newest first. */
  async messages(to: string, options: { limit?: number } = {}): Promise<OutboxMessage[]> {
    const query = new URLSearchParams({ to, ...(options.limit ? { limit: String(options.limit) } : {}) });
    const body = await exchange(
      this.fetchImpl,
      `${this.baseUrl}/v1/admin/outbox?${query}`,
      { method: 'GET', token: this.options.adminToken },
      this.options.timeoutMs ?? 10_000,
      undefined,
    );
    return (body as Schemas['OutboxMessageListResponse']).data;
  }

  /**
   * The code of the newest message to `to`. Throws `NoOutboxCodeError` when there is none, or when
   * that message carries no code (a live request, or one no longer pending).
   */
  async latestOutboxCode(to: string): Promise<string> {
    const [newest] = await this.messages(to, { limit: 1 });
    if (!newest) throw new NoOutboxCodeError(`the outbox holds no message to ${to}`);
    if (newest.code) return newest.code;
    throw new NoOutboxCodeError(
      `the newest message to ${to} carries no code: its request was not made with a test key, or it is no longer pending`,
    );
  }
}
