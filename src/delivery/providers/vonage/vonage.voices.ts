import type { ProviderVoices } from '../../messages.js';

/**
 * The NCCO `talk` language of each locale on the Vonage Voice API (its TTS languages; style 0,
 * the default, in each). Vonage has no Persian voice: a fa request is spoken in English
 * (speechFor).
 */
export const VONAGE_VOICES: ProviderVoices<{ language: string; style?: number }> = {
  en: { language: 'en-US' },
  es: { language: 'es-MX' },
  fr: { language: 'fr-FR' },
  de: { language: 'de-DE' },
  'pt-BR': { language: 'pt-BR' },
  'pt-PT': { language: 'pt-PT' },
  it: { language: 'it-IT' },
  nl: { language: 'nl-NL' },
  pl: { language: 'pl-PL' },
  sv: { language: 'sv-SE' },
  da: { language: 'da-DK' },
  nb: { language: 'nb-NO' },
  fi: { language: 'fi-FI' },
  cs: { language: 'cs-CZ' },
  ro: { language: 'ro-RO' },
  hu: { language: 'hu-HU' },
  el: { language: 'el-GR' },
  tr: { language: 'tr-TR' },
  ru: { language: 'ru-RU' },
  uk: { language: 'uk-UA' },
  ar: { language: 'ar' },
  he: { language: 'he-IL' },
  hi: { language: 'hi-IN' },
  bn: { language: 'bn-IN' },
  'zh-CN': { language: 'cmn-CN' },
  'zh-TW': { language: 'cmn-TW' },
  ja: { language: 'ja-JP' },
  ko: { language: 'ko-KR' },
  th: { language: 'th-TH' },
  vi: { language: 'vi-VN' },
  id: { language: 'id-ID' },
};
