import { createHmac, generateKeyPairSync, sign } from 'node:crypto';

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
