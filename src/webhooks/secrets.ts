import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A new signing secret as Standard Webhooks writes it: `whsec_` and base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Seals signing secrets for the database with AES-256-GCM under a key derived (HKDF) from the
 * CODE_SECRET: the service must be able to sign, so a hash would not do, and a copy of the
 * database alone does not yield the secrets. Rotating CODE_SECRET makes the sealed secrets
 * unreadable (their endpoints must be created again), as it invalidates pending codes.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(codeSecret: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', codeSecret, 'contact-verify', 'webhook-signing-secrets', 32));
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), sealed]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || !data) throw new Error('not a sealed webhook secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
