import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StatusUpdate } from '../callback.js';
import { field } from '../http.js';

/** Meta signs each webhook POST: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>`. */
export function verifyMetaSignature(appSecret: string, rawBody: string, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex'));
  const given = Buffer.from(header.slice('sha256='.length).toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const FINAL: Record<string, 'delivered' | 'failed'> = {
  delivered: 'delivered',
  read: 'delivered',
  failed: 'failed',
};

/** The message statuses of a `whatsapp_business_account` webhook (entry[].changes[].value.statuses[]). */
export function whatsappStatusUpdates(body: unknown): StatusUpdate[] {
  const updates: StatusUpdate[] = [];
  const entries = field(body, 'entry');
  for (const entry of Array.isArray(entries) ? entries : []) {
    const changes = field(entry, 'changes');
    for (const change of Array.isArray(changes) ? changes : []) {
      const statuses = field(change, 'value', 'statuses');
      for (const s of Array.isArray(statuses) ? statuses : []) {
        const id = field(s, 'id');
        const raw = String(field(s, 'status') ?? '');
        const status = FINAL[raw];
        if (typeof id !== 'string' || !status) continue;
        const code = field(s, 'errors', 0, 'code');
        updates.push({
          provider: 'whatsapp',
          providerMessageId: id,
          status,
          error:
            status === 'failed' ? `WhatsApp reported failed${code ? ` (error ${String(code)})` : ''}` : null,
        });
      }
    }
  }
  return updates;
}
