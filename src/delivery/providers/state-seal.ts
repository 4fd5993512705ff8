import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * State a provider carries through its own API and gets back in a webhook (the script of a call
 * that is spoken once answered), sealed so that it reads as noise on the way (no code in a provider's
 * or a proxy's logs) and cannot be made up: AES-256-GCM under a key derived from CODE_SECRET
 * for this use only. What a previous secret sealed still opens during a rotation.
 */
export interface StateSeal {
  /** base64url of nonce, ciphertext and tag. */
  seal(plain: string): string;
  /** The plain text, or null when `sealed` is not something this service sealed. */
  open(sealed: string): string | null;
}

const NONCE = 12;
const TAG = 16;

/** The seal keyed by the code secrets (the current one seals; every one opens). */
export function stateSeal(codeSecrets: readonly Buffer[]): StateSeal {
  const keys = codeSecrets.map((secret) =>
    Buffer.from(hkdfSync('sha256', secret, 'contact-verify', 'provider-state', 32)),
  );
  const [current] = keys;
  if (!current) throw new Error('a state seal needs a key');
  return {
    seal(plain) {
      const nonce = randomBytes(NONCE);
      const cipher = createCipheriv('aes-256-gcm', current, nonce);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
    },
    open(sealed) {
      const bytes = Buffer.from(sealed, 'base64url');
      if (bytes.length < NONCE + TAG) return null;
      for (const key of keys) {
        try {
          const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE));
          decipher.setAuthTag(bytes.subarray(bytes.length - TAG));
          return Buffer.concat([
            decipher.update(bytes.subarray(NONCE, bytes.length - TAG)),
            decipher.final(),
          ]).toString('utf8');
        } catch {
          // Another key, or not ours.
        }
      }
      return null;
    },
  };
}

/** A seal of this process only (tests, and tools that build providers without the service's secret). */
export const processStateSeal = (): StateSeal => stateSeal([randomBytes(32)]);
