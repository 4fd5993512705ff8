import { describe, expect, it } from 'vitest';
import { twilioCallUpdate } from '../../../../src/delivery/providers/twilio-voice/twilio-voice.callback.js';

describe('Twilio call status callbacks', () => {
  const m = (o: Record<string, string>) => twilioCallUpdate(new Map(Object.entries(o)));

  it('records answered (in-progress), completed, and the ways a call fails, with the reason', () => {
    expect(m({ CallSid: 'CA1', CallStatus: 'in-progress' })).toEqual({
      provider: 'twilio-voice',
      providerMessageId: 'CA1',
      status: 'answered',
      error: null,
    });
    expect(m({ CallSid: 'CA1', CallStatus: 'completed' })).toMatchObject({
      status: 'completed',
      error: null,
    });
    for (const ended of ['busy', 'no-answer', 'failed', 'canceled'])
      expect(m({ CallSid: 'CA1', CallStatus: ended })).toMatchObject({
        status: 'failed',
        error: `the call ended ${ended}`,
      });
  });

  it('skips intermediate states and what is not a call', () => {
    for (const status of ['queued', 'initiated', 'ringing', ''])
      expect(m({ CallSid: 'CA1', CallStatus: status })).toBeNull();
    expect(m({ MessageSid: 'SM1', MessageStatus: 'delivered' })).toBeNull();
  });
});
