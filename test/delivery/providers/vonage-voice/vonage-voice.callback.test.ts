import { describe, expect, it } from 'vitest';
import { vonageCallUpdate } from '../../../../src/delivery/providers/vonage-voice/vonage-voice.callback.js';
import { verifyVonageWebhook } from '../../../../src/delivery/providers/vonage-voice/vonage-voice.jwt.js';
import { vonageKeys } from '../../support/signing.js';

describe('Vonage Voice events', () => {
  const secret = 'vonage-sig-secret';
  const now = 1_700_000_000_000;
  const body = JSON.stringify({ uuid: 'u-1', status: 'answered', conversation_uuid: 'CON-1' });

  it('accepts a JWT signed HS256 with the signature secret over the body it came with', () => {
    expect(
      verifyVonageWebhook(vonageKeys.webhookAuthorization(secret, body, now / 1000), secret, body, now),
    ).toBe(true);
  });

  it('refuses another secret, another body, an old token, and no token at all', () => {
    const auth = vonageKeys.webhookAuthorization(secret, body, now / 1000);
    expect(verifyVonageWebhook(auth, 'another-secret', body, now)).toBe(false);
    expect(verifyVonageWebhook(auth, secret, body.replace('answered', 'completed'), now)).toBe(false);
    expect(verifyVonageWebhook(auth, secret, body, now + 10 * 60_000)).toBe(false);
    expect(verifyVonageWebhook(undefined, secret, body, now)).toBe(false);
    expect(verifyVonageWebhook('Bearer not.a.jwt', secret, body, now)).toBe(false);
    // An unsigned token (alg none) is not a signature.
    const [, claims] = auth.slice(7).split('.');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${claims}.`;
    expect(verifyVonageWebhook(`Bearer ${none}`, secret, body, now)).toBe(false);
  });

  it('records answered, completed, and the ways a call fails with the reason; skips the rest', () => {
    expect(vonageCallUpdate({ uuid: 'u-1', status: 'answered' })).toEqual({
      provider: 'vonage-voice',
      providerMessageId: 'u-1',
      status: 'answered',
      error: null,
    });
    expect(vonageCallUpdate({ uuid: 'u-1', status: 'completed' })).toMatchObject({ status: 'completed' });
    for (const ended of ['busy', 'cancelled', 'failed', 'rejected', 'timeout', 'unanswered'])
      expect(vonageCallUpdate({ uuid: 'u-1', status: ended })).toMatchObject({
        status: 'failed',
        error: `the call ended ${ended}`,
      });
    for (const event of [
      { uuid: 'u-1', status: 'started' },
      { uuid: 'u-1', status: 'ringing' },
      { status: 'answered' },
      null,
    ])
      expect(vonageCallUpdate(event)).toBeNull();
  });
});
