import type { Locale } from '../../domain/templates.js';

const primarySubtag = (code: string) => (code.split(/[-_]/, 1)[0] ?? '').toLowerCase();

/**
 * The first of `codes` (provider language codes such as `en_US`, `pt_BR`, `de-DE`) in the
 * locale's language; null when none is. A deployment's own choice of regional variant is kept.
 */
export function codeForLocale(locale: Locale, codes: readonly string[]): string | null {
  return codes.find((code) => primarySubtag(code) === locale) ?? null;
}
