import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { checkPhone } from '../../src/domain/phone.js';

/**
 * checkPhone asks libphonenumber for the number's type and takes a type as proof of validity
 * (asking isValid() too ran the type patterns twice): it must call valid exactly what
 * isValid() calls valid. Numbers of every calling code, of the lengths numbers have, with digits
 * from a fixed sequence (so a failure is reproducible), valid and invalid alike.
 */
describe('checkPhone: valid as libphonenumber says', () => {
  it('agrees with isValid() on numbers of every calling code', () => {
    let seed = 12345;
    const digit = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return String(seed % 10);
    };
    const callingCodes = new Set([
      ...getCountries().map((c) => getCountryCallingCode(c)),
      '800',
      '808',
      '870',
      '878',
      '881',
      '882',
      '883',
      '888',
      '979',
    ]);
    let valid = 0;
    let checked = 0;
    for (const code of callingCodes)
      for (let length = 6; length <= 12; length++)
        for (let n = 0; n < 12; n++) {
          const number = `+${code}${Array.from({ length }, digit).join('')}`;
          const parsed = parsePhoneNumberFromString(number);
          const result = checkPhone(number);
          const expected = parsed?.isValid() === true;
          // A valid premium-rate or shared-cost number is refused as unsupported, not as invalid.
          expect(result.ok || (result as { reason: string }).reason === 'unsupported', number).toBe(expected);
          if (expected) valid++;
          checked++;
        }
    // Enough of both kinds that the comparison means something.
    expect(checked).toBeGreaterThan(15_000);
    expect(valid).toBeGreaterThan(1_000);
  });
});
