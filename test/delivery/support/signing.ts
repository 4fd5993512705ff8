import { createHash, createHmac, generateKeyPairSync, sign, verify } from 'node:crypto';

/** An Ed25519 key pair as Telnyx hands out the public half: raw 32 bytes, base64. */
export function telnyxKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = (publicKey.export({ format: 'der', type: 'spki' }) as Buffer).subarray(-32);
  return {
    publicKeyBase64: raw.toString('base64'),
    /** The headers Telnyx sends with `body`. */
    headers(body: string, timestampSeconds: number) {
      const signature = sign(null, Buffer.from(`${timestampSeconds}|${body}`), privateKey).toString('base64');
      return { 'telnyx-signature-ed25519': signature, 'telnyx-timestamp': String(timestampSeconds) };
    },
  };
}

/** Meta's X-Hub-Signature-256 of a webhook body. */
export const metaSignature = (appSecret: string, body: string) =>
  `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;

export const VONAGE_APPLICATION_ID = 'aaaaaaaa-bbbb-cccc-dddd-0123456789ab';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A Vonage application's key pair (its private key as VONAGE_PRIVATE_KEY holds it, line breaks as
 * `\n`), what the Voice API checks of a request's JWT, and the account's signed webhooks.
 */
export const vonageKeys = (() => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return {
    privateKeyEnv: pem.trim().replace(/\n/g, '\\n'),
    /** True for `Bearer <JWT>` signed RS256 by the application's key, naming it, not expired. */
    authorizes(authorization: string | string[] | undefined): boolean {
      const token = /^Bearer (.+)$/.exec(String(authorization ?? ''))?.[1];
      const [header = '', claims = '', signature = ''] = token?.split('.') ?? [];
      if (
        !verify(
          'RSA-SHA256',
          Buffer.from(`${header}.${claims}`),
          publicKey,
          Buffer.from(signature, 'base64url'),
        )
      )
        return false;
      const { alg } = JSON.parse(Buffer.from(header, 'base64url').toString());
      const c = JSON.parse(Buffer.from(claims, 'base64url').toString());
      return (
        alg === 'RS256' &&
        c.application_id === VONAGE_APPLICATION_ID &&
        typeof c.jti === 'string' &&
        c.exp > Date.now() / 1000
      );
    },
    /** The Authorization header of a signed webhook: HS256 under the signature secret, with the body's hash. */
    webhookAuthorization(secret: string, body: string, iatSeconds: number): string {
      const unsigned = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({
        iat: iatSeconds,
        jti: `${iatSeconds}-jti`,
        iss: 'Vonage',
        payload_hash: createHash('sha256').update(body).digest('hex'),
        api_key: 'vonage-key',
        application_id: VONAGE_APPLICATION_ID,
      })}`;
      return `Bearer ${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
    },
  };
})();
