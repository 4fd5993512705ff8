import { LOCALES, type Locale } from './types';

/**
 * How the dashboard names a locale: its English name and, where it differs, its own
 * ("Arabic · العربية"), from the browser's Intl.DisplayNames; the tag when the browser knows none.
 */
export function localeName(locale: Locale): string {
  const name = (inLocale: string) => {
    try {
      return new Intl.DisplayNames([inLocale], { type: 'language' }).of(locale) ?? locale;
    } catch {
      return locale;
    }
  };
  const english = name('en');
  const own = name(locale);
  return own === english ? english : `${english} · ${own}`;
}

/** Scripts written right to left (Unicode's RTL scripts a locale may be written in). */
const RIGHT_TO_LEFT_SCRIPTS = new Set(['Arab', 'Hebr', 'Syrc', 'Thaa', 'Nkoo', 'Adlm', 'Rohg']);

/**
 * The writing direction of a locale, from the script CLDR says it is written in: what the template
 * fields take, so a template opening with `{code}` still runs right to left in Arabic.
 */
export function localeDirection(locale: string): 'ltr' | 'rtl' {
  try {
    return RIGHT_TO_LEFT_SCRIPTS.has(new Intl.Locale(locale).maximize().script ?? '') ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}

/** The locales and their names, in the service's order. */
export const LOCALE_OPTIONS: ReadonlyArray<readonly [Locale, string]> = LOCALES.map((l) => [
  l,
  localeName(l),
]);
