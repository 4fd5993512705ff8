import { createPrivateKey, createSign, type KeyObject, randomUUID } from 'node:crypto';

/**
 * A Vonage application's credentials at work: its private key as configured, and the JWT of its
 * API requests. Vonage Voice places calls with it and Vonage Verify v2 starts and checks silent
 * authentications with it: described once, here.
 */

/** The PEM as configured: an environment variable may carry its line breaks as `\n`. */
const pemOf = (value: string) => value.replace(/\\n/g, '\n');

/** The private key, or null when the setting is not a PEM private key. */
export function vonagePrivateKey(value: string): KeyObject | null {
  try {
    return createPrivateKey(pemOf(value));
  } catch {
    return null;
  }
}

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The JWT of a Voice API request, as Vonage documents it: RS256 under the application's private
 * key, with `application_id`, `iat`, `exp` and a unique `jti`.
 */
export function applicationJwt(applicationId: string, privateKey: KeyObject, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const unsigned = `${segment({ alg: 'RS256', typ: 'JWT' })}.${segment({
    application_id: applicationId,
    iat,
    exp: iat + 300,
    jti: randomUUID(),
  })}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(privateKey, 'base64url');
  return `${unsigned}.${signature}`;
}
