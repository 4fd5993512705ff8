import { describe, expect, it } from 'vitest';
import {
  twilioSignature,
  twilioStatusUpdate,
  verifyTwilioSignature,
} from '../../../../src/delivery/providers/twilio/twilio.callback.js';

describe('Twilio status callbacks', () => {
  // The example of Twilio's "Validating requests" documentation.
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params: Array<[string, string]> = [
    ['CallSid', 'CA1234567890ABCDE'],
    ['Caller', '+12349013030'],
    ['Digits', '1234'],
    ['From', '+12349013030'],
    ['To', '+18005551212'],
  ];

  it('computes the documented X-Twilio-Signature', () => {
    expect(twilioSignature('12345', url, params)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
    expect(verifyTwilioSignature('12345', url, [...params].reverse(), '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(
      true,
    );
  });

  it('refuses a missing or altered signature, another URL or another token', () => {
    expect(verifyTwilioSignature('12345', url, params, undefined)).toBe(false);
    expect(verifyTwilioSignature('12345', url, params, '1/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(false);
    expect(verifyTwilioSignature('12345', `${url}&x=1`, params, '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(false);
    expect(verifyTwilioSignature('54321', url, params, '0/KCTR6DLpKmkAf8muzZqo1nDgQ=')).toBe(false);
  });

  it('maps final message states, and skips intermediate ones and calls', () => {
    const m = (o: Record<string, string>) => twilioStatusUpdate(new Map(Object.entries(o)));
    expect(m({ MessageSid: 'SM1', MessageStatus: 'delivered' })).toMatchObject({
      provider: 'twilio',
      providerMessageId: 'SM1',
      status: 'delivered',
    });
    expect(m({ MessageSid: 'SM1', MessageStatus: 'undelivered', ErrorCode: '30006' })).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('30006'),
    });
    expect(m({ MessageSid: 'SM1', MessageStatus: 'sent' })).toBeNull();
    // Calls report to the voice provider's route.
    expect(m({ CallSid: 'CA1', CallStatus: 'completed' })).toBeNull();
  });
});
