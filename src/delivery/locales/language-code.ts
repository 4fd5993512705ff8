import type { Locale } from '../../domain/locales.js';

const normalised = (code: string) => code.toLowerCase().replaceAll('_', '-');
const primarySubtag = (code: string) => normalised(code).split('-', 1)[0] ?? '';

/**
 * The provider language code (such as `en_US`, `pt_BR`, `zh_TW`, `de-DE`) among `codes` for a
 * locale: the one naming the locale exactly (`pt-PT` → `pt_PT`, `zh-TW` → `zh_TW`), else the first
 * in its language (`de` → `de-DE`, `pt-PT` → `pt_BR` when that is the only Portuguese one); null
 * when none is. A deployment's own choice of regional variant is kept.
 */
export function codeForLocale(locale: Locale, codes: readonly string[]): string | null {
  const exact = codes.find((code) => normalised(code) === normalised(locale));
  if (exact !== undefined) return exact;
  const language = primarySubtag(locale);
  return codes.find((code) => primarySubtag(code) === language) ?? null;
}
