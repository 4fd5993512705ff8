import { field } from '../http.js';

/**
 * The calling events of a signed `whatsapp_business_account` webhook, parsed into plain values
 * (check the signature first: verifyMetaSignature in whatsapp.callback.ts). Pure: part of the
 * webhook that is not about calls yields nothing, an event with a missing id is skipped.
 */
export type CallEvent = CallConnect | CallStatus | CallTerminate | PermissionReply;

/** `calls[]` with `event: "connect"`: WhatsApp's SDP answer to the business's offer. */
export interface CallConnect {
  kind: 'connect';
  callId: string;
  /** The user's number (the callee of a business-initiated call). */
  to: string;
  sdpType: string;
  sdp: string | null;
  /** `biz_opaque_callback_data` as the connect request gave it. */
  tracking: string | null;
  at: Date | null;
}

/** `statuses[]` of type `call`: the call rings, was accepted, or was rejected. */
export interface CallStatus {
  kind: 'status';
  callId: string;
  status: 'RINGING' | 'ACCEPTED' | 'REJECTED';
  /** The user's number. */
  recipient: string;
  tracking: string | null;
  at: Date | null;
}

/** `calls[]` with `event: "terminate"`: the call ended, with its length. */
export interface CallTerminate {
  kind: 'terminate';
  callId: string;
  status: 'COMPLETED' | 'FAILED';
  to: string;
  /** Seconds the call was connected, when WhatsApp says. */
  durationSeconds: number | null;
  startedAt: Date | null;
  endedAt: Date | null;
  /** Meta's error code of a failed call, when given. */
  errorCode: string | null;
  tracking: string | null;
  at: Date | null;
}

/** `messages[]` of type `interactive` / `call_permission_reply`: the user's answer to a permission request. */
export interface PermissionReply {
  kind: 'permission_reply';
  /** The user's number. */
  from: string;
  accepted: boolean;
  /** The user granted a permanent permission (else temporary, until `expiresAt`). */
  permanent: boolean;
  expiresAt: Date | null;
  /** The id of the permission-request message this replies to (`context.id`). */
  requestMessageId: string | null;
  /** `user_action`, or `automatic` when WhatsApp answered on the user's standing choice. */
  source: string | null;
  at: Date | null;
}

const array = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** Unix seconds (as a number or a string) to a date. */
function time(v: unknown): Date | null {
  const n = Number(v);
  return v !== undefined && v !== null && v !== '' && Number.isFinite(n) && n > 0 ? new Date(n * 1000) : null;
}

export function whatsappCallEvents(body: unknown): CallEvent[] {
  const events: CallEvent[] = [];
  for (const entry of array(field(body, 'entry'))) {
    for (const change of array(field(entry, 'changes'))) {
      const value = field(change, 'value');
      for (const c of array(field(value, 'calls'))) {
        const callId = text(field(c, 'id'));
        if (!callId) continue;
        const tracking = text(field(c, 'biz_opaque_callback_data'));
        const event = field(c, 'event');
        if (event === 'connect') {
          events.push({
            kind: 'connect',
            callId,
            to: String(field(c, 'to') ?? ''),
            sdpType: String(field(c, 'session', 'sdp_type') ?? ''),
            sdp: text(field(c, 'session', 'sdp')),
            tracking,
            at: time(field(c, 'timestamp')),
          });
        } else if (event === 'terminate') {
          const status = String(field(c, 'status') ?? '').toUpperCase();
          const duration = Number(field(c, 'duration'));
          events.push({
            kind: 'terminate',
            callId,
            status: status === 'COMPLETED' ? 'COMPLETED' : 'FAILED',
            to: String(field(c, 'to') ?? ''),
            durationSeconds:
              field(c, 'duration') !== undefined && Number.isFinite(duration) ? duration : null,
            startedAt: time(field(c, 'start_time')),
            endedAt: time(field(c, 'end_time')),
            errorCode: text(String(field(c, 'errors', 0, 'code') ?? field(c, 'error_code') ?? '')),
            tracking,
            at: time(field(c, 'timestamp')),
          });
        }
      }
      for (const s of array(field(value, 'statuses'))) {
        const callId = text(field(s, 'id'));
        const status = field(s, 'status');
        if (!callId || field(s, 'type') !== 'call') continue;
        if (status !== 'RINGING' && status !== 'ACCEPTED' && status !== 'REJECTED') continue;
        events.push({
          kind: 'status',
          callId,
          status,
          recipient: String(field(s, 'recipient_id') ?? ''),
          tracking: text(field(s, 'biz_opaque_callback_data')),
          at: time(field(s, 'timestamp')),
        });
      }
      for (const m of array(field(value, 'messages'))) {
        if (field(m, 'interactive', 'type') !== 'call_permission_reply') continue;
        const reply = field(m, 'interactive', 'call_permission_reply');
        const from = text(field(m, 'from'));
        const response = field(reply, 'response');
        if (!from || (response !== 'accept' && response !== 'reject')) continue;
        events.push({
          kind: 'permission_reply',
          from,
          accepted: response === 'accept',
          permanent: field(reply, 'is_permanent') === true,
          expiresAt: response === 'accept' ? time(field(reply, 'expiration_timestamp')) : null,
          requestMessageId: text(field(m, 'context', 'id')),
          source: text(field(reply, 'response_source')),
          at: time(field(m, 'timestamp')),
        });
      }
    }
  }
  return events;
}
