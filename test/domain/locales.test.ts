import { describe, expect, it } from 'vitest';
import {
  COUNTRY_LOCALES,
  countriesOf,
  LOCALES,
  localeTagProblems,
  matchLocale,
  matchTag,
  negotiateLocale,
  textDirection,
} from '../../src/domain/locales.js';
import { isKnownCountry } from '../../src/domain/phone.js';

describe('the supported locales', () => {
  it('are at least the 31 of the issue, as BCP 47 tags Intl keeps as they are', () => {
    expect(LOCALES.length).toBeGreaterThanOrEqual(31);
    for (const locale of LOCALES) expect(Intl.getCanonicalLocales(locale)).toEqual([locale]);
    expect(new Set(LOCALES).size).toBe(LOCALES.length);
    expect(LOCALES[0]).toBe('en');
  });

  it('are written right to left exactly for Arabic, Hebrew and Persian', () => {
    expect(LOCALES.filter((l) => textDirection(l) === 'rtl')).toEqual(['ar', 'he', 'fa']);
  });
});

describe('matching a BCP 47 tag', () => {
  it.each([
    // Exact, in any case and with _ for -.
    ['en', 'en'],
    ['pt-BR', 'pt-BR'],
    ['PT_br', 'pt-BR'],
    ['zh-tw', 'zh-TW'],
    // The language, with script or region where it has two of our locales.
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-PT'],
    ['pt-AO', 'pt-PT'],
    ['pt-MZ', 'pt-PT'],
    ['pt-US', 'pt-BR'],
    ['zh', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-Hant', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh-Hans-HK', 'zh-CN'],
    ['zh-Hant-TW', 'zh-TW'],
    ['cmn', 'zh-CN'],
    ['yue', 'zh-TW'],
    // The language alone.
    ['fr-CA', 'fr'],
    ['es-419', 'es'],
    ['de-CH-1996', 'de'],
    ['en-US-u-ca-gregory', 'en'],
    ['no', 'nb'],
    ['nn', 'nb'],
    ['nb-NO', 'nb'],
    // Deprecated codes, as CLDR maps them.
    ['iw', 'he'],
    ['in', 'id'],
    ['mo', 'ro'],
    ['pes', 'fa'],
    ['prs', 'fa'],
    ['arb', 'ar'],
    ['ar-EG', 'ar'],
    // Well formed, but no language of ours.
    ['xx', null],
    ['sw-KE', null],
    ['und', null],
    ['qaa', null],
    // Malformed.
    ['en-a', 'malformed'],
    ['root', 'malformed'],
    ['i-klingon', 'malformed'],
    ['abcdefghi', 'malformed'],
    ['en--US', 'malformed'],
  ])('%s → %s', (tag, expected) => {
    expect(matchTag(tag)).toBe(expected);
    expect(matchLocale(tag)).toBe(expected);
    // Asked again: the kept answer.
    expect(matchLocale(tag)).toBe(expected);
  });

  it('names a malformed tag in a VALIDATION_ERROR detail, and nothing else', () => {
    expect(localeTagProblems('en-a')).toEqual([
      { field: 'locale', message: expect.stringMatching(/^locale must be a BCP 47 language tag/) },
    ]);
    expect(localeTagProblems('xx')).toEqual([]);
    expect(localeTagProblems(undefined)).toEqual([]);
  });

  it('keeps a bounded number of answers however many tags arrive', () => {
    for (let i = 0; i < 10_000; i++) matchLocale(`x-${i}`.replace('x-', 'en-x-'));
    expect(matchLocale('pt-AO')).toBe('pt-PT');
  });
});

describe('the country table', () => {
  it('names real countries, each once', () => {
    const listed = LOCALES.flatMap((l) => countriesOf(l));
    expect(new Set(listed).size).toBe(listed.length);
    for (const country of listed) expect(isKnownCountry(country), country).toBe(true);
    expect(COUNTRY_LOCALES.size).toBe(listed.length);
  });

  it.each([
    ['JP', 'ja'],
    ['BR', 'pt-BR'],
    ['PT', 'pt-PT'],
    ['AO', 'pt-PT'],
    ['IL', 'he'],
    ['EG', 'ar'],
    ['IR', 'fa'],
    ['TW', 'zh-TW'],
    ['HK', 'zh-TW'],
    ['CN', 'zh-CN'],
    ['MX', 'es'],
    ['AT', 'de'],
    ['UA', 'uk'],
    ['BD', 'bn'],
    ['NO', 'nb'],
  ])('%s → %s', (country, locale) => {
    expect(COUNTRY_LOCALES.get(country)).toBe(locale);
  });

  it('leaves out countries split between two of our languages, and those whose codes go in English', () => {
    for (const country of ['BE', 'CA', 'IN', 'PK', 'SG', 'PH', 'NG', 'US', 'GB']) {
      expect(COUNTRY_LOCALES.get(country), country).toBeUndefined();
    }
  });

  it('gives every locale a country, but Hindi (India goes in English)', () => {
    expect(LOCALES.filter((l) => countriesOf(l).length === 0)).toEqual(['en', 'hi']);
  });
});

describe('negotiation', () => {
  const none = { requested: null, accountDefault: null, phoneCountry: null };
  it('takes the request, then the account default, then the phone country, then English', () => {
    expect(negotiateLocale({ requested: 'fr', accountDefault: 'de', phoneCountry: 'JP' })).toBe('fr');
    expect(negotiateLocale({ ...none, accountDefault: 'de', phoneCountry: 'JP' })).toBe('de');
    expect(negotiateLocale({ ...none, phoneCountry: 'JP' })).toBe('ja');
    expect(negotiateLocale({ ...none, phoneCountry: 'US' })).toBe('en');
    expect(negotiateLocale(none)).toBe('en');
  });
});
