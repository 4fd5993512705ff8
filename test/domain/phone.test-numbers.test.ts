import { describe, expect, it } from 'vitest';
import { checkPhone } from '../../src/domain/phone.js';
import { TEST_NUMBERS } from '../../src/lookup/test-numbers.js';

// The carrier lookups' test numbers are in Ofcom's drama range, which libphonenumber calls invalid:
// send-code must accept them, or integrators could not test the lookups' refusals with them.

describe('checkPhone: the lookup test numbers', () => {
  it('accepts every documented test number as a GB mobile', () => {
    for (const number of [...Object.keys(TEST_NUMBERS), '+447700900000', '+447700900099'])
      expect(checkPhone(number)).toEqual({
        ok: true,
        e164: number,
        subscriber: number,
        country: 'GB',
        type: 'MOBILE',
      });
  });

  it('keeps the rest of the drama range, and anything near it, invalid', () => {
    for (const number of ['+447700900100', '+447700900999', '+4477009000123', '+44770090000'])
      expect(checkPhone(number)).toMatchObject({ ok: false, reason: 'invalid' });
  });
});
