import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { StatusUpdate } from '../callback.js';
import type { VonageSignatureMethod } from './vonage.settings.js';

/**
 * Vonage's signed-webhook signature, as its SDKs compute it: every parameter but `sig`, sorted by
 * name, as `&name=value` with `&` and `=` inside values replaced by `_`; then either the MD5 of
 * that string followed by the secret (`md5hash`), or an HMAC of it keyed by the secret. Hex.
 */
export function vonageSignature(
  params: Record<string, string>,
  secret: string,
  method: VonageSignatureMethod,
): string {
  const query = Object.keys(params)
    .filter((k) => k !== 'sig')
    .sort()
    .map((k) => `&${k}=${String(params[k]).replace(/[&=]/g, '_')}`)
    .join('');
  if (method === 'md5hash')
    return createHash('md5')
      .update(query + secret, 'utf8')
      .digest('hex');
  return createHmac(method, secret).update(query, 'utf8').digest('hex');
}

/** True when `sig` matches (hex, either case) and the signed timestamp is within 5 minutes. */
export function verifyVonageSignature(
  params: Record<string, string>,
  secret: string,
  method: VonageSignatureMethod,
  nowMs: number,
): boolean {
  const sig = params.sig;
  if (!sig) return false;
  const timestamp = Number(params.timestamp);
  if (!Number.isFinite(timestamp) || Math.abs(nowMs / 1000 - timestamp) > 300) return false;
  const expected = Buffer.from(vonageSignature(params, secret, method).toLowerCase());
  const given = Buffer.from(sig.toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const FINAL: Record<string, 'delivered' | 'failed'> = {
  delivered: 'delivered',
  expired: 'failed',
  failed: 'failed',
  rejected: 'failed',
};

/** Reads an SMS API delivery receipt (messageId, status, err-code); accepted/buffered are skipped. */
export function vonageStatusUpdate(params: Record<string, string>): StatusUpdate | null {
  const id = params.messageId;
  const status = FINAL[params.status ?? ''];
  if (!id || !status) return null;
  const errCode = params['err-code'];
  return {
    provider: 'vonage',
    providerMessageId: id,
    status,
    error:
      status === 'failed'
        ? `Vonage reported ${params.status}${errCode ? ` (err-code ${errCode})` : ''}`
        : null,
  };
}
