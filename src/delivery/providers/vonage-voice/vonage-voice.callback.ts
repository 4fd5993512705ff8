import type { StatusUpdate } from '../callback.js';
import { field } from '../http.js';

/** A call's event as recorded; started, ringing and the others are not recorded. */
const CALL_STATUS: Record<string, StatusUpdate['status']> = {
  answered: 'answered',
  completed: 'completed',
  busy: 'failed',
  cancelled: 'failed',
  failed: 'failed',
  rejected: 'failed',
  timeout: 'failed',
  unanswered: 'failed',
};

/** Reads a Voice API event (`uuid`, `status`): answered, completed, or failed with its reason. */
export function vonageCallUpdate(event: unknown): StatusUpdate | null {
  const uuid = field(event, 'uuid');
  const callStatus = String(field(event, 'status') ?? '');
  const status = CALL_STATUS[callStatus];
  if (typeof uuid !== 'string' || !status) return null;
  return {
    provider: 'vonage-voice',
    providerMessageId: uuid,
    status,
    error: status === 'failed' ? `the call ended ${callStatus}` : null,
  };
}
