import { describe, expect, it } from 'vitest';
import {
  verifyVonageSignature,
  vonageSignature,
  vonageStatusUpdate,
} from '../../../../src/delivery/providers/vonage/vonage.callback.js';

describe('Vonage delivery receipts', () => {
  it('computes the md5hash signature of the Vonage SDK test vector', () => {
    expect(vonageSignature({ a: '1', b: '2', timestamp: '1461605396' }, 'secret', 'md5hash')).toBe(
      '6af838ef94998832dbfc29020b564830',
    );
  });

  it('verifies HMAC signatures, refuses altered ones and stale timestamps', () => {
    const now = 1_700_000_000_000;
    const params: Record<string, string> = {
      messageId: '0A0000001',
      status: 'delivered',
      'api-key': 'abc123',
      timestamp: String(now / 1000),
      nonce: 'n=1&x',
    };
    const sig = vonageSignature(params, 'sig-secret', 'sha256').toUpperCase();
    expect(verifyVonageSignature({ ...params, sig }, 'sig-secret', 'sha256', now)).toBe(true);
    expect(verifyVonageSignature({ ...params, sig, status: 'failed' }, 'sig-secret', 'sha256', now)).toBe(
      false,
    );
    expect(verifyVonageSignature({ ...params, sig }, 'other', 'sha256', now)).toBe(false);
    expect(verifyVonageSignature(params, 'sig-secret', 'sha256', now)).toBe(false);
    expect(verifyVonageSignature({ ...params, sig }, 'sig-secret', 'sha256', now + 10 * 60_000)).toBe(false);
  });

  it('maps delivered and failed receipts and skips accepted ones', () => {
    expect(vonageStatusUpdate({ messageId: 'X', status: 'delivered' })).toMatchObject({
      status: 'delivered',
    });
    expect(vonageStatusUpdate({ messageId: 'X', status: 'rejected', 'err-code': '6' })).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('err-code 6'),
    });
    expect(vonageStatusUpdate({ messageId: 'X', status: 'accepted' })).toBeNull();
  });
});
