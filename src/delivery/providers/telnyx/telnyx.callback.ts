import { createPublicKey, verify } from 'node:crypto';
import type { StatusUpdate } from '../callback.js';
import { field } from '../http.js';

/** DER prefix that turns a raw 32-byte Ed25519 key into an SPKI document node:crypto accepts. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Telnyx signs each webhook with Ed25519 over `${telnyx-timestamp}|${raw body}`; the signature is
 * base64 in `telnyx-signature-ed25519`. Timestamps older than 5 minutes are refused (replays).
 */
export function verifyTelnyxSignature(
  publicKeyBase64: string,
  rawBody: string,
  signature: string | undefined,
  timestamp: string | undefined,
  nowMs: number,
): boolean {
  if (!signature || !timestamp) return false;
  const seconds = Number(timestamp);
  if (!Number.isFinite(seconds) || Math.abs(nowMs / 1000 - seconds) > 300) return false;
  try {
    const raw = Buffer.from(publicKeyBase64, 'base64');
    const key = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, raw]),
      format: 'der',
      type: 'spki',
    });
    return verify(
      null,
      Buffer.from(`${timestamp}|${rawBody}`, 'utf8'),
      key,
      Buffer.from(signature, 'base64'),
    );
  } catch {
    return false;
  }
}

const FINAL: Record<string, 'delivered' | 'failed'> = {
  delivered: 'delivered',
  delivery_failed: 'failed',
  sending_failed: 'failed',
};

/** Reads a `message.finalized` (or `message.sent`) event; only final recipient states count. */
export function telnyxStatusUpdate(event: unknown): StatusUpdate | null {
  const payload = field(event, 'data', 'payload');
  const id = field(payload, 'id');
  const recipientStatus = String(field(payload, 'to', 0, 'status') ?? '');
  const status = FINAL[recipientStatus];
  if (typeof id !== 'string' || !status) return null;
  const code = field(payload, 'errors', 0, 'code');
  return {
    provider: 'telnyx',
    providerMessageId: id,
    status,
    error:
      status === 'failed'
        ? `Telnyx reported ${recipientStatus}${code ? ` (error ${String(code)})` : ''}`
        : null,
  };
}
