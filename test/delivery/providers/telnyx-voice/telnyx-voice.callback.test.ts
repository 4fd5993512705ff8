import { describe, expect, it } from 'vitest';
import {
  callEventOf,
  telnyxCallUpdate,
} from '../../../../src/delivery/providers/telnyx-voice/telnyx-voice.callback.js';

const event = (event_type: string, payload: Record<string, unknown> = {}) => ({
  data: {
    record_type: 'event',
    event_type,
    id: 'e-1',
    payload: { call_control_id: 'v3:call-1', ...payload },
  },
});

describe('Telnyx Call Control webhooks', () => {
  it('reads the event type, the call and its client_state', () => {
    expect(callEventOf(event('call.answered', { client_state: 'c3RhdGU=' }))).toEqual({
      type: 'call.answered',
      callControlId: 'v3:call-1',
      clientState: 'c3RhdGU=',
      hangupCause: null,
    });
    expect(callEventOf({ data: { event_type: 'call.answered', payload: {} } })).toBeNull();
    expect(callEventOf('garbage')).toBeNull();
  });

  it('records answered, completed on a normal hangup, and failed with the cause of any other', () => {
    const update = (type: string, cause?: string) =>
      telnyxCallUpdate(callEventOf(event(type, cause ? { hangup_cause: cause } : {}))!);
    expect(update('call.answered')).toEqual({
      provider: 'telnyx-voice',
      providerMessageId: 'v3:call-1',
      status: 'answered',
      error: null,
    });
    expect(update('call.hangup', 'normal_clearing')).toMatchObject({ status: 'completed', error: null });
    for (const cause of ['user_busy', 'timeout', 'call_rejected', 'unspecified'])
      expect(update('call.hangup', cause)).toMatchObject({
        status: 'failed',
        error: `the call ended ${cause}`,
      });
    expect(update('call.initiated')).toBeNull();
    expect(update('call.speak.ended')).toBeNull();
  });
});
