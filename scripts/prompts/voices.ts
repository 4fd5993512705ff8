import { LOCALE_TEXTS } from '../../src/delivery/locales/index.js';
import { LOCALES, type Locale } from '../../src/domain/locales.js';

/**
 * What the code-call prompts say, per locale, and the espeak-ng voice that says it: read by
 * scripts/render-prompts.ts, which renders the ten digits and two phrases once per locale. The
 * phrases are the locale's own `voice` sentences (src/delivery/locales/<tag>.ts; their
 * `whatsappCall.espeakScript` spelling where the voice needs one), cut before `{code}` and without
 * the product name, which cannot be rendered ahead of time.
 */
export interface PromptVoice {
  /** `espeak-ng -v` voice (`espeak-ng --voices`). */
  voice: string;
  /** Spoken before the first reading of the code. */
  intro: string;
  /** Spoken before the second reading. */
  again: string;
  /** The ten digits as the voice is given them: `0`–`9`, or words where it reads no digits. */
  digits: readonly string[];
}

/**
 * The words that go with `{product}` in a locale's first sentence and leave with it ("de
 * {product}" in Spanish); any other locale loses `{product}` alone.
 */
const WITH_PRODUCT: Partial<Record<Locale, string>> = {
  es: 'de {product}',
  de: 'für {product}',
  nl: 'voor {product}',
  sv: 'för {product}',
  da: 'til {product}',
  nb: 'for {product}',
  fi: 'Palvelun {product}',
  cs: 'pro {product}',
  ar: 'في {product}',
  fa: 'در {product}',
  he: 'לֶ-{product}',
  ja: '{product} の',
};

/** A sentence up to its code, without the product: what a prompt says. */
export function promptPhrase(locale: Locale, sentence: string): string {
  const before = sentence.split('{code}')[0] ?? sentence;
  return before
    .replace(WITH_PRODUCT[locale] ?? '{product}', '')
    .replace('{product}', '')
    .replace(/\s+/g, ' ')
    .replace(/[\s:：,，]+$/u, '')
    .trim();
}

/** The prompts of one locale. */
export function promptVoice(locale: Locale): PromptVoice {
  const texts = LOCALE_TEXTS[locale];
  const [first, second] = texts.whatsappCall.espeakScript ?? texts.voice;
  return {
    voice: texts.whatsappCall.espeakVoice,
    intro: promptPhrase(locale, first),
    again: promptPhrase(locale, second),
    digits: texts.whatsappCall.espeakDigits ?? ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'],
  };
}

/** Every locale the service writes, each with its prompts. */
export const PROMPT_VOICES: Record<string, PromptVoice> = Object.fromEntries(
  LOCALES.map((l) => [l, promptVoice(l)]),
);
