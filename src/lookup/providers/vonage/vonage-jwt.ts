import { createPrivateKey, type KeyObject, randomUUID, sign } from 'node:crypto';

/** A private key as an operator pastes it into one variable: PEM, with `\n` written out or not. */
export function privateKeyOf(pem: string): KeyObject {
  return createPrivateKey(pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem);
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The JWT of Vonage's application APIs (Identity Insights, Verify v2): RS256 over
 * `{application_id, iat, jti, exp}` with the application's private key. One is made every
 * `lifetimeSeconds / 2`, so a lookup does not pay for an RSA signature.
 */
export class VonageJwt {
  private current: { token: string; renewAt: number } | null = null;

  constructor(
    private readonly applicationId: string,
    private readonly key: KeyObject,
    private readonly now: () => number,
    private readonly lifetimeSeconds = 900,
  ) {}

  token(): string {
    const now = this.now();
    if (this.current && now < this.current.renewAt) return this.current.token;
    const iat = Math.floor(now / 1000);
    const unsigned = `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url({
      application_id: this.applicationId,
      iat,
      jti: randomUUID(),
      exp: iat + this.lifetimeSeconds,
    })}`;
    const token = `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), this.key).toString('base64url')}`;
    this.current = { token, renewAt: now + (this.lifetimeSeconds * 1000) / 2 };
    return token;
  }
}
