import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// The application's JWT is described once, beside the application's settings.
export { applicationJwt } from '../vonage/vonage-application.js';

const claimsOf = (token: string): Record<string, unknown> | null => {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? claims : null;
  } catch {
    return null;
  }
};

/**
 * A signed webhook of the Voice API: `Authorization: Bearer <JWT>`, HS256 under the account's
 * signature secret, issued within 5 minutes (`iat`), and when it carries `payload_hash`, that is
 * the SHA-256 (hex) of the body it came with.
 */
export function verifyVonageWebhook(
  authorization: string | undefined,
  signatureSecret: string,
  rawBody: string,
  nowMs: number,
): boolean {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const parts = token?.split('.');
  if (!token || parts?.length !== 3) return false;
  const [header, payload, signature] = parts as [string, string, string];
  try {
    if (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')).alg !== 'HS256') return false;
  } catch {
    return false;
  }
  const expected = createHmac('sha256', signatureSecret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  const claims = claimsOf(token);
  const iat = Number(claims?.iat);
  if (!Number.isFinite(iat) || Math.abs(nowMs / 1000 - iat) > 300) return false;
  if (typeof claims?.exp === 'number' && claims.exp < nowMs / 1000) return false;
  const hash = claims?.payload_hash;
  return hash === undefined || hash === createHash('sha256').update(rawBody, 'utf8').digest('hex');
}
