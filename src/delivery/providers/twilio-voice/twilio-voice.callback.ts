import type { StatusUpdate } from '../callback.js';

/** A call's status as recorded: answered (in progress), completed, or failed with its reason. */
const CALL_STATUS: Record<string, StatusUpdate['status']> = {
  'in-progress': 'answered',
  completed: 'completed',
  busy: 'failed',
  'no-answer': 'failed',
  failed: 'failed',
  canceled: 'failed',
};

/**
 * Reads a call status callback (CallSid, CallStatus): `in-progress` (the answered event) is
 * recorded as answered, `completed` as completed, `busy`, `no-answer`, `failed` and `canceled` as
 * failed with the reason; queued, initiated and ringing are not recorded.
 */
export function twilioCallUpdate(params: Map<string, string>): StatusUpdate | null {
  const callSid = params.get('CallSid');
  const callStatus = params.get('CallStatus') ?? '';
  const status = CALL_STATUS[callStatus];
  if (!callSid || !status) return null;
  return {
    provider: 'twilio-voice',
    providerMessageId: callSid,
    status,
    error: status === 'failed' ? `the call ended ${callStatus}` : null,
  };
}
