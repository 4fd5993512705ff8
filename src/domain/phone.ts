import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';

export type PhoneCheck =
  | { ok: true; e164: string; country: string | null; type: string | null }
  | { ok: false; reason: 'format' | 'invalid' | 'unsupported'; message: string };

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
  const parsed = parsePhoneNumberFromString(value);
  if (!parsed?.isValid()) {
    return { ok: false, reason: 'invalid', message: 'is not a valid phone number' };
  }
  const type = parsed.getType();
  if (type === 'PREMIUM_RATE' || type === 'SHARED_COST') {
    return {
      ok: false,
      reason: 'unsupported',
      message: `is a ${type === 'PREMIUM_RATE' ? 'premium-rate' : 'shared-cost'} number, which cannot receive codes`,
    };
  }
  return { ok: true, e164: parsed.number, country: parsed.country ?? null, type: type ?? null };
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
