import type { Clock } from '../../../domain/clock.js';
import { field, requestJson, statusFailure, text } from '../../http.js';
import type { ProviderAnswer } from '../../interface.js';

export interface ClientCredentials {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
}

type Failure = Extract<ProviderAnswer, { ok: false }>;

/** Renew a token this long before the token endpoint says it expires. */
const MARGIN_MS = 30_000;

/**
 * An OAuth 2.0 access token by the client credentials grant (RFC 6749 §4.4, the client
 * authenticated with HTTP Basic, §2.3.1), kept until shortly before `expires_in` says it ends.
 * Concurrent lookups wait for one token request; a token the API refused is forgotten.
 */
export class ClientCredentialsToken {
  private current: { token: string; renewAt: number } | null = null;
  private pending: Promise<{ ok: true; token: string } | Failure> | null = null;

  constructor(
    private readonly provider: string,
    private readonly credentials: ClientCredentials,
    private readonly clock: Clock,
  ) {}

  async get(signal: AbortSignal): Promise<{ ok: true; token: string } | Failure> {
    if (this.current && this.clock.now() < this.current.renewAt)
      return { ok: true, token: this.current.token };
    this.pending ??= this.fetch(signal).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** Forgets the token (the API answered 401 to it). */
  invalidate(): void {
    this.current = null;
  }

  private async fetch(signal: AbortSignal): Promise<{ ok: true; token: string } | Failure> {
    const c = this.credentials;
    const basic = Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`);
    const result = await requestJson(this.provider, {
      method: 'POST',
      url: c.tokenUrl,
      headers: { authorization: `Basic ${basic.toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: c.scope }),
      signal,
    });
    if (!result.ok) return { ...result, error: `${result.error} (token endpoint)` };
    const { answer } = result;
    if (answer.status < 200 || answer.status >= 300) {
      // RFC 6749 §5.2: {error: invalid_client | invalid_scope | …}.
      const failure = statusFailure(
        this.provider,
        answer.status,
        text(field(answer.json, 'error')) ?? undefined,
      );
      return { ...failure, error: `${failure.error} at its token endpoint` };
    }
    const token = text(field(answer.json, 'access_token'));
    const expiresIn = field(answer.json, 'expires_in');
    if (token === null) {
      return {
        ok: false,
        retryable: true,
        error: `${this.provider}'s token endpoint answered without an access_token`,
      };
    }
    const lifetimeMs = (typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : 300) * 1000;
    this.current = { token, renewAt: this.clock.now() + Math.max(lifetimeMs - MARGIN_MS, lifetimeMs / 2) };
    return { ok: true, token };
  }
}
