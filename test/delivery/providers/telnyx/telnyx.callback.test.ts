import { describe, expect, it } from 'vitest';
import {
  telnyxStatusUpdate,
  verifyTelnyxSignature,
} from '../../../../src/delivery/providers/telnyx/telnyx.callback.js';
import { telnyxKeys } from '../../support/signing.js';

describe('Telnyx webhooks', () => {
  const keys = telnyxKeys();
  const now = 1_700_000_000_000;
  const body = JSON.stringify({
    data: {
      event_type: 'message.finalized',
      payload: { id: 'msg-1', to: [{ phone_number: '+14155550123', status: 'delivered' }] },
    },
  });

  it('verifies the Ed25519 signature over "timestamp|body"', () => {
    const h = keys.headers(body, now / 1000);
    expect(
      verifyTelnyxSignature(
        keys.publicKeyBase64,
        body,
        h['telnyx-signature-ed25519'],
        h['telnyx-timestamp'],
        now,
      ),
    ).toBe(true);
  });

  it('refuses another body, another key, a stale timestamp and garbage', () => {
    const h = keys.headers(body, now / 1000);
    const sig = h['telnyx-signature-ed25519'];
    const ts = h['telnyx-timestamp'];
    expect(verifyTelnyxSignature(keys.publicKeyBase64, `${body} `, sig, ts, now)).toBe(false);
    expect(verifyTelnyxSignature(telnyxKeys().publicKeyBase64, body, sig, ts, now)).toBe(false);
    expect(verifyTelnyxSignature(keys.publicKeyBase64, body, sig, ts, now + 600_000)).toBe(false);
    expect(verifyTelnyxSignature(keys.publicKeyBase64, body, 'bm9wZQ==', ts, now)).toBe(false);
    expect(verifyTelnyxSignature('not-a-key', body, sig, ts, now)).toBe(false);
  });

  it('maps delivered and delivery_failed, and skips unconfirmed', () => {
    expect(telnyxStatusUpdate(JSON.parse(body))).toMatchObject({
      provider: 'telnyx',
      providerMessageId: 'msg-1',
      status: 'delivered',
    });
    const failed = {
      data: { payload: { id: 'm', to: [{ status: 'delivery_failed' }], errors: [{ code: '40008' }] } },
    };
    expect(telnyxStatusUpdate(failed)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('40008'),
    });
    expect(
      telnyxStatusUpdate({ data: { payload: { id: 'm', to: [{ status: 'delivery_unconfirmed' }] } } }),
    ).toBeNull();
  });
});
