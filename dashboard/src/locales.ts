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

/** The locales and their names, in the service's order. */
export const LOCALE_OPTIONS: ReadonlyArray<readonly [Locale, string]> = LOCALES.map((l) => [
  l,
  localeName(l),
]);
