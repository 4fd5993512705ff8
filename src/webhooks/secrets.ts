import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { WebhookStore } from '../domain/ports/webhooks.js';

/** A new signing secret as Standard Webhooks writes it: `whsec_` and base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Seals signing secrets for the database with AES-256-GCM under a key derived (HKDF) from the
 * CODE_SECRET: the service must be able to sign, so a hash would not do, and a copy of the
 * database alone does not yield the secrets. During a rotation of CODE_SECRET the box also opens
 * what was sealed under CODE_SECRET_PREVIOUS, and `resealWebhookSecrets` moves those under the
 * new key, so that the previous secret can be dropped without losing an endpoint.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly previousKeys: Buffer[];

  /** `previous`: code secrets replaced by a rotation, whose sealed secrets must still open. */
  constructor(codeSecret: Buffer, previous: readonly Buffer[] = []) {
    this.key = boxKey(codeSecret);
    this.previousKeys = previous.map(boxKey);
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), sealed]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The secret, under the current key or a previous one; throws when no key opens it. */
  open(sealed: string): string {
    return this.openWith(sealed).secret;
  }

  /**
   * The same secret sealed under the current key when it was sealed under a previous one; null
   * when it is sealed under the current key already. Throws when no key opens it.
   */
  reseal(sealed: string): string | null {
    const { secret, current } = this.openWith(sealed);
    return current ? null : this.seal(secret);
  }

  private openWith(sealed: string): { secret: string; current: boolean } {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || !data) throw new Error('not a sealed webhook secret');
    for (const [i, key] of [this.key, ...this.previousKeys].entries()) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const secret = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
        return { secret: secret.toString('utf8'), current: i === 0 };
      } catch {
        // The authentication tag did not match under this key: try the next.
      }
    }
    throw new Error('sealed under another CODE_SECRET');
  }
}

const boxKey = (codeSecret: Buffer) =>
  Buffer.from(hkdfSync('sha256', codeSecret, 'contact-verify', 'webhook-signing-secrets', 32));

/** What resealing found: endpoints moved to the current key, and those no key could open. */
export interface ResealReport {
  resealed: number;
  unreadable: string[];
}

/**
 * Seals every stored signing secret that a previous CODE_SECRET sealed again under the current
 * one. Safe on several instances at once: each replacement is conditional on the stored value.
 */
export async function resealWebhookSecrets(store: WebhookStore, box: SecretBox): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, unreadable: [] };
  for (const { id, sealedSecret } of await store.sealedSecrets()) {
    let next: string | null;
    try {
      next = box.reseal(sealedSecret);
    } catch {
      report.unreadable.push(id);
      continue;
    }
    if (next !== null && (await store.replaceSealedSecret(id, sealedSecret, next))) report.resealed++;
  }
  return report;
}
