import type { Locale } from '../../domain/templates.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { pt } from './pt.js';
import type { LocaleTexts } from './texts.js';

export type { LocaleTexts } from './texts.js';

/** Every built-in text, by language: the one place they are kept. */
export const LOCALE_TEXTS: Record<Locale, LocaleTexts> = { en, es, fr, de, pt };
