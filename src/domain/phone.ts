import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';

export type PhoneCheck =
  | {
      ok: true;
      /** The number as given, in E.164: where a message goes. */
      e164: string;
      /** The subscriber it reaches (canonicalPhone): what contacts, blocks and limits key. */
      subscriber: string;
      country: string | null;
      type: string | null;
    }
  | { ok: false; reason: 'format' | 'invalid' | 'unsupported'; message: string };

/** +44 7700 9000xx: the carrier lookups' test numbers, GB mobiles of Ofcom's drama range. */
const LOOKUP_TEST_NUMBER = /^\+4477009000\d\d$/;

/**
 * Parses an international phone number with the full metadata (`/max`), which is what knows
 * number types: premium-rate and shared-cost numbers are refused because they are the numbers
 * SMS-pumping fraud sends to.
 */
export function checkPhone(raw: string): PhoneCheck {
  const value = raw.trim();
  if (!value.startsWith('+')) {
    return {
      ok: false,
      reason: 'format',
      message: 'must be in international format: a leading + and the country code',
    };
  }
  // The carrier lookups' test numbers (src/lookup/test-numbers.ts, docs/lookup.md): Ofcom keeps
  // +44 7700 900xxx for drama, so they reach no one, and libphonenumber calls them invalid; a send
  // must accept them for integrators to test the lookups' refusals with a test key.
  if (LOOKUP_TEST_NUMBER.test(value))
    return { ok: true, e164: value, subscriber: value, country: 'GB', type: 'MOBILE' };
  const parsed = parsePhoneNumberFromString(value);
  // A number with a type is valid: with the full metadata isValid() is getType() !== undefined, so
  // asking both runs the type's patterns twice (about 6 of the 21 µs a GB mobile took).
  // isValid() is still asked where there is no type (a plan without type patterns).
  const type = parsed?.getType();
  if (!parsed || (type === undefined && !parsed.isValid())) {
    return { ok: false, reason: 'invalid', message: 'is not a valid phone number' };
  }
  if (type === 'PREMIUM_RATE' || type === 'SHARED_COST') {
    return {
      ok: false,
      reason: 'unsupported',
      message: `is a ${type === 'PREMIUM_RATE' ? 'premium-rate' : 'shared-cost'} number, which cannot receive codes`,
    };
  }
  const e164 = parsed.number;
  return {
    ok: true,
    e164,
    subscriber: canonicalPhone(e164, type),
    country: parsed.country ?? null,
    type: type ?? null,
  };
}

/**
 * One subscriber, dialled two ways. An Argentine mobile is `+54 9 <area> <number>` in E.164, but
 * the same ten digits without the 9 (`+54 11 1234-5678`) are a valid fixed-line number, and an SMS
 * to them reaches the same phone: a block of `+5491112345678` was passed by `+541112345678`. A
 * fixed-line Argentine number whose form with the 9 is a mobile number is keyed by that form
 * (fixed and mobile numbers share one ten-digit plan there, so the two never name two lines).
 * Every other number is its own subscriber. Like the canonical mailbox, this is only the key:
 * the message goes to the number as given.
 */
export function canonicalPhone(e164: string, type: string | undefined | null): string {
  if (!e164.startsWith('+54') || e164.startsWith('+549') || type !== 'FIXED_LINE') return e164;
  const mobile = parsePhoneNumberFromString(`+549${e164.slice(3)}`);
  return mobile?.isValid() && mobile.getType() === 'MOBILE' ? mobile.number : e164;
}

/** True when `country` (upper-case ISO 3166-1 alpha-2) is a region that number belongs to. */
export function numberBelongsToCountry(e164: string, country: string): boolean {
  if (!isSupportedCountry(country)) return false;
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return false;
  // Regions that share a calling code (+1, +7, +44 …) tell numbers apart by their ranges.
  return parsed.country === country || parsed.getPossibleCountries().includes(country as CountryCode);
}

export function isKnownCountry(country: string): boolean {
  return isSupportedCountry(country);
}
