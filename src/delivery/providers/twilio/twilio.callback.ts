import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StatusUpdate } from '../callback.js';

/**
 * Twilio's request signature: HMAC-SHA1 keyed with the Auth Token over the full URL Twilio called
 * followed by every POST parameter, sorted by name, as name and value with no separators; base64.
 */
export function twilioSignature(authToken: string, url: string, params: Array<[string, string]>): string {
  const sorted = [...params].sort(([a, av], [b, bv]) =>
    a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0,
  );
  const data = url + sorted.map(([k, v]) => k + v).join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Compares the X-Twilio-Signature header in constant time. */
export function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: Array<[string, string]>,
  header: string | undefined,
): boolean {
  if (!header) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const MESSAGE_FINAL: Record<string, 'delivered' | 'failed'> = {
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'failed',
  failed: 'failed',
};
/**
 * Reads a message status callback (MessageSid, MessageStatus, ErrorCode); intermediate states
 * (queued, sent …) are not recorded. Calls report to the voice provider's own route.
 */
export function twilioStatusUpdate(params: Map<string, string>): StatusUpdate | null {
  const messageSid = params.get('MessageSid') ?? params.get('SmsSid');
  if (messageSid) {
    const status = MESSAGE_FINAL[params.get('MessageStatus') ?? params.get('SmsStatus') ?? ''];
    if (!status) return null;
    const code = params.get('ErrorCode');
    return {
      provider: 'twilio',
      providerMessageId: messageSid,
      status,
      error:
        status === 'failed'
          ? `Twilio reported ${params.get('MessageStatus')}${code ? ` (error ${code})` : ''}`
          : null,
    };
  }
  return null;
}
