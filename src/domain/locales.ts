import type { ErrorDetail } from './errors.js';

/**
 * The languages messages are written in, and which one a send uses. The built-in texts live in
 * src/delivery/locales/ (one file per locale); this is the list and the rule of choice.
 *
 * Negotiation (every send): the request's `locale` when it matches a supported locale (exactly,
 * then by its language and script or region), else the account's default `locale`, else the
 * language of the phone number's country (`COUNTRY_LOCALES`), else English. Tables are built at
 * load and every answer for a given tag is kept, so a send pays one map lookup.
 */

/** The supported locales, as BCP 47 tags; the first is the fallback. */
export const LOCALES = [
  'en',
  'es',
  'fr',
  'de',
  'pt-BR',
  'pt-PT',
  'it',
  'nl',
  'pl',
  'sv',
  'da',
  'nb',
  'fi',
  'cs',
  'ro',
  'hu',
  'el',
  'tr',
  'ru',
  'uk',
  'ar',
  'he',
  'fa',
  'hi',
  'bn',
  'zh-CN',
  'zh-TW',
  'ja',
  'ko',
  'th',
  'vi',
  'id',
] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set(['ar', 'he', 'fa']);

/** The direction a locale's script is written in: what `dir` an HTML page or email sets. */
export const textDirection = (locale: Locale): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr');

const BY_LOWER_CASE = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));

/** A supported locale tag, matched without regard to case or `_` for `-`. */
export function asLocale(tag: string): Locale | null {
  return BY_LOWER_CASE.get(tag.toLowerCase().replaceAll('_', '-')) ?? null;
}

export const isLocale = (value: string): value is Locale => (LOCALES as readonly string[]).includes(value);

/**
 * Regions whose Portuguese is the European norm (CLDR's pt-PT parents): Portugal, the African
 * countries where Portuguese is official, Timor-Leste and Macao. Every other `pt` is Brazilian,
 * as CLDR's `pt` is.
 */
const EUROPEAN_PORTUGUESE = new Set(['PT', 'AO', 'MZ', 'CV', 'GW', 'ST', 'TL', 'MO', 'GQ', 'LU', 'CH']);

/**
 * The supported locale of each language whose speakers read one of ours: the language itself, a
 * macrolanguage's member (Norwegian), or a language whose speakers read the same script and
 * standard (Nynorsk readers read Bokmål; Cantonese is written in traditional Chinese).
 */
const LANGUAGE_LOCALES: Readonly<Record<string, Locale>> = {
  ...Object.fromEntries(LOCALES.filter((l) => !l.includes('-')).map((l) => [l, l])),
  pt: 'pt-BR',
  zh: 'zh-CN',
  yue: 'zh-TW',
  no: 'nb',
  nn: 'nb',
};

/** What a tag resolves to: a supported locale, none (well formed, but no language of ours), or malformed. */
export type TagMatch = Locale | null | 'malformed';

/**
 * The supported locale of a BCP 47 tag: exact first (`pt-BR`, `zh-TW`), then by its language,
 * taking the script or region into account where a language has two of our locales (`zh-Hant`,
 * `zh-HK` → zh-TW; `pt-AO` → pt-PT), then the language alone (`fr-CA` → fr, `es-419` → es,
 * `nn` → nb). `_` is read as `-`. Tags that are not BCP 47 (`en-a`, `root`) are malformed.
 */
export function matchTag(tag: string): TagMatch {
  const exact = asLocale(tag);
  if (exact) return exact;
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag.replaceAll('_', '-'))[0] ?? '';
  } catch {
    return 'malformed';
  }
  const again = asLocale(canonical);
  if (again) return again;
  const parsed = new Intl.Locale(canonical);
  const language = parsed.language;
  if (language === 'zh' || language === 'yue') {
    // CLDR's likely script: zh-HK, zh-MO and yue are written in traditional characters, zh-SG not.
    return (parsed.script ?? parsed.maximize().script) === 'Hant' ? 'zh-TW' : 'zh-CN';
  }
  if (language === 'pt') return EUROPEAN_PORTUGUESE.has(parsed.region ?? '') ? 'pt-PT' : 'pt-BR';
  return LANGUAGE_LOCALES[language] ?? null;
}

/** Answers kept per tag as given; bounded, since tags come from requests. */
const matches = new Map<string, TagMatch>();
const MAX_KEPT = 4096;

/** matchTag, kept: the first send with a tag pays the parse, the others one lookup. */
export function matchLocale(tag: string): TagMatch {
  let found = matches.get(tag);
  if (found === undefined) {
    found = matchTag(tag);
    if (matches.size >= MAX_KEPT) matches.clear();
    matches.set(tag, found);
  }
  return found;
}

/** A locale tag as a validation message names it. */
export const LOCALE_TAG_PROBLEM =
  'must be a BCP 47 language tag, for example en, pt-BR, zh-Hant-TW or es-419';

/** The problem of a malformed tag (none for a well-formed one, supported or not). */
export function localeTagProblems(tag: string | undefined, field = 'locale'): ErrorDetail[] {
  return tag !== undefined && matchLocale(tag) === 'malformed'
    ? [{ field, message: `${field} ${LOCALE_TAG_PROBLEM}` }]
    : [];
}

/**
 * The language of each country (ISO 3166-1 alpha-2) whose people read one of our locales: where
 * most of them read it, and it is what official and commercial messages there are written in.
 * Left out on purpose (English, unless the account sets a default): countries split between two
 * of our languages with no clear majority (BE, CA), and India, Pakistan, Singapore, the
 * Philippines and Nigeria, where verification messages are written in English.
 */
const COUNTRIES_BY_LOCALE: Readonly<Partial<Record<Locale, readonly string[]>>> = {
  es: [
    ...['ES', 'MX', 'AR', 'CO', 'PE', 'VE', 'CL', 'EC', 'GT', 'CU', 'BO', 'DO', 'HN', 'PY', 'SV', 'NI'],
    ...['CR', 'PA', 'UY', 'PR', 'GQ'],
  ],
  fr: [
    ...['FR', 'MC', 'LU', 'SN', 'CI', 'ML', 'BF', 'NE', 'TG', 'BJ', 'GN', 'CD', 'CG', 'GA', 'CM', 'MG'],
    ...['HT', 'RE', 'GP', 'MQ', 'GF', 'YT', 'PF', 'NC', 'PM', 'WF', 'BL', 'MF', 'BI', 'DJ', 'KM', 'TD'],
    'CF',
  ],
  de: ['DE', 'AT', 'CH', 'LI'],
  'pt-BR': ['BR'],
  'pt-PT': ['PT', 'AO', 'MZ', 'CV', 'GW', 'ST', 'TL'],
  it: ['IT', 'SM', 'VA'],
  nl: ['NL', 'SR', 'AW', 'CW', 'SX', 'BQ'],
  pl: ['PL'],
  sv: ['SE', 'AX'],
  da: ['DK', 'GL', 'FO'],
  nb: ['NO', 'SJ'],
  fi: ['FI'],
  cs: ['CZ'],
  ro: ['RO', 'MD'],
  hu: ['HU'],
  el: ['GR', 'CY'],
  tr: ['TR'],
  ru: ['RU', 'BY', 'KZ', 'KG'],
  uk: ['UA'],
  ar: [
    ...['EG', 'SA', 'AE', 'IQ', 'JO', 'KW', 'LB', 'LY', 'MA', 'OM', 'QA', 'SY', 'TN', 'YE', 'BH', 'DZ'],
    ...['PS', 'SD', 'MR'],
  ],
  he: ['IL'],
  fa: ['IR', 'AF'],
  bn: ['BD'],
  'zh-CN': ['CN'],
  'zh-TW': ['TW', 'HK', 'MO'],
  ja: ['JP'],
  ko: ['KR'],
  th: ['TH'],
  vi: ['VN'],
  id: ['ID'],
};

/** Country → locale, from the table above (a country is listed once; a test checks it). */
export const COUNTRY_LOCALES: ReadonlyMap<string, Locale> = new Map(
  Object.entries(COUNTRIES_BY_LOCALE).flatMap(([locale, countries]) =>
    (countries ?? []).map((c) => [c, locale as Locale] as const),
  ),
);

/** The countries whose default is `locale` (the docs' table). */
export const countriesOf = (locale: Locale): readonly string[] => COUNTRIES_BY_LOCALE[locale] ?? [];

/** What a send knows when it picks its language. */
export interface LocaleChoice {
  /** The request's `locale`, matched (null: absent, or no language of ours). */
  requested: Locale | null;
  /** The account's default `locale` setting. */
  accountDefault: Locale | null;
  /** The destination phone number's country (null for an email-only request). */
  phoneCountry: string | null;
}

/** The locale of a send: requested, else the account's default, else the phone's country, else English. */
export function negotiateLocale(choice: LocaleChoice): Locale {
  return (
    choice.requested ??
    choice.accountDefault ??
    (choice.phoneCountry === null ? undefined : COUNTRY_LOCALES.get(choice.phoneCountry)) ??
    DEFAULT_LOCALE
  );
}
