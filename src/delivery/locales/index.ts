import type { Locale } from '../../domain/locales.js';
import { ar } from './ar.js';
import { bn } from './bn.js';
import { cs } from './cs.js';
import { da } from './da.js';
import { de } from './de.js';
import { el } from './el.js';
import { en } from './en.js';
import { es } from './es.js';
import { fa } from './fa.js';
import { fi } from './fi.js';
import { fr } from './fr.js';
import { he } from './he.js';
import { hi } from './hi.js';
import { hu } from './hu.js';
import { id } from './id.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { ko } from './ko.js';
import { nb } from './nb.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { ptBR } from './pt-BR.js';
import { ptPT } from './pt-PT.js';
import { ro } from './ro.js';
import { ru } from './ru.js';
import { sv } from './sv.js';
import type { LocaleTexts } from './texts.js';
import { th } from './th.js';
import { tr } from './tr.js';
import { uk } from './uk.js';
import { vi } from './vi.js';
import { zhCN } from './zh-CN.js';
import { zhTW } from './zh-TW.js';

export { textDirection } from '../../domain/locales.js';
export type { LocaleTexts, PluralTexts } from './texts.js';

/** Every built-in text, by locale: the one place they are kept (a type error when a locale lacks one). */
export const LOCALE_TEXTS: Readonly<Record<Locale, LocaleTexts>> = {
  en,
  es,
  fr,
  de,
  'pt-BR': ptBR,
  'pt-PT': ptPT,
  it,
  nl,
  pl,
  sv,
  da,
  nb,
  fi,
  cs,
  ro,
  hu,
  el,
  tr,
  ru,
  uk,
  ar,
  he,
  fa,
  hi,
  bn,
  'zh-CN': zhCN,
  'zh-TW': zhTW,
  ja,
  ko,
  th,
  vi,
  id,
};
