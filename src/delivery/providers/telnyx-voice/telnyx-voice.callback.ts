import type { StatusUpdate } from '../callback.js';
import { type ApiRequest, callApi, field, joinUrl } from '../http.js';

/** A Call Control webhook as the service reads it. */
export interface CallEvent {
  type: string;
  callControlId: string;
  clientState: unknown;
  hangupCause: string | null;
}

/** Reads a Call Control webhook (`data.event_type`, `data.payload`); null when it is not one. */
export function callEventOf(body: unknown): CallEvent | null {
  const type = field(body, 'data', 'event_type');
  const payload = field(body, 'data', 'payload');
  const callControlId = field(payload, 'call_control_id');
  if (typeof type !== 'string' || typeof callControlId !== 'string') return null;
  const cause = field(payload, 'hangup_cause');
  return {
    type,
    callControlId,
    clientState: field(payload, 'client_state'),
    hangupCause: typeof cause === 'string' ? cause : null,
  };
}

/**
 * What an event says of the call's delivery: answered on `call.answered`; on `call.hangup`,
 * completed when it ended normally (`normal_clearing`), else failed with its cause (user_busy,
 * timeout, call_rejected …).
 */
export function telnyxCallUpdate(event: CallEvent): StatusUpdate | null {
  const base = { provider: 'telnyx-voice', providerMessageId: event.callControlId };
  if (event.type === 'call.answered') return { ...base, status: 'answered', error: null };
  if (event.type !== 'call.hangup') return null;
  const cause = event.hangupCause ?? 'unspecified';
  return cause === 'normal_clearing'
    ? { ...base, status: 'completed', error: null }
    : { ...base, status: 'failed', error: `the call ended ${cause}` };
}

interface Commands {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
}

/**
 * A command on a live call (`POST /v2/calls/{call_control_id}/actions/<action>`): true when it
 * was taken, or when the call has ended already (nothing is left to do); false when it failed and
 * may be tried again (Telnyx delivers the webhook again when the service answers an error).
 * `command_id` makes a repeated command a no-op at Telnyx.
 */
export async function callCommand(
  o: Commands,
  callControlId: string,
  action: 'speak' | 'hangup',
  body: Record<string, unknown>,
): Promise<boolean> {
  const request: ApiRequest = {
    method: 'POST',
    url: joinUrl(o.baseUrl, `/v2/calls/${encodeURIComponent(callControlId)}/actions/${action}`),
    headers: { authorization: `Bearer ${o.apiKey}` },
    body: { ...body, command_id: `${callControlId}:${action}` },
    timeoutMs: o.timeoutMs,
  };
  const result = await callApi('telnyx-voice', request);
  if (!result.ok) return false;
  const { status } = result.answer;
  // 422: the call is no longer alive (it was hung up, or never answered): there is nothing to do.
  return (status >= 200 && status < 300) || status === 422;
}
