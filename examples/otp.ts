/**
 * What every example shares: one client for the service, and what to tell a user for each error
 * of the contract. In your project, import from '@contact-verify/client' instead.
 *
 * Environment: CV_BASE_URL (where the service answers, http://127.0.0.1:8080 by default: the
 * service's own default HOST and PORT), CV_API_KEY, and CV_ADMIN_TOKEN for codeFromOutbox only.
 */
import { ContactVerify, ContactVerifyError } from '../clients/typescript/src/index.js';

const BASE_URL = process.env.CV_BASE_URL ?? 'http://127.0.0.1:8080';

export const verify = new ContactVerify({ baseUrl: BASE_URL, apiKey: process.env.CV_API_KEY ?? '' });

/** An HTTP status and a message for the user, for a failed call to the service. */
export function userFacing(err: unknown): { status: number; message: string } {
  if (!(err instanceof ContactVerifyError)) throw err;
  switch (err.code) {
    case 'RATE_LIMITED':
      return { status: 429, message: `Too many codes requested. Try again in ${err.retryAfter ?? 30} s.` };
    case 'TOO_MANY_ATTEMPTS':
      return { status: 429, message: 'Too many wrong codes. Ask for a new code.' };
    case 'VALIDATION_ERROR':
    case 'INVALID_DESTINATION':
    case 'UNSUPPORTED_NUMBER':
      return { status: 400, message: err.details[0]?.message ?? err.message };
    case 'NOT_FOUND':
      return { status: 400, message: 'This code request is unknown. Ask for a new code.' };
    default:
      // UNAUTHORIZED, CHANNEL_NOT_ENABLED, 5xx: the integration's problem, not the user's.
      return { status: 502, message: 'Verification is unavailable right now.' };
  }
}

/**
 * Development only: the code of the newest message to `to` in the service's outbox (no provider
 * configured, or a test key). Production reads the code from the user, never from here.
 */
export async function codeFromOutbox(to: string): Promise<string> {
  const res = await fetch(`${BASE_URL}/v1/admin/outbox?to=${encodeURIComponent(to)}`, {
    headers: { authorization: `Bearer ${process.env.CV_ADMIN_TOKEN ?? ''}` },
  });
  const { data } = (await res.json()) as { data: Array<{ text: string }> };
  const code = /\b(\d{4,10})\b/.exec(data[0]?.text ?? '')?.[1];
  if (!code) throw new Error(`no message to ${to} in the outbox`);
  return code;
}
