import type { ProviderVoices } from '../../messages.js';

/**
 * The `<Say>` language and voice of each locale on Twilio Programmable Voice: an Amazon Polly
 * voice where Twilio offers one for the language, else a Google one (Twilio's text-to-speech
 * list). Twilio has no Persian voice: a fa request is spoken in English (speechFor).
 */
export const TWILIO_VOICES: ProviderVoices<{ language: string; voice: string }> = {
  en: { language: 'en-US', voice: 'Polly.Joanna' },
  es: { language: 'es-MX', voice: 'Polly.Mia' },
  fr: { language: 'fr-FR', voice: 'Polly.Lea' },
  de: { language: 'de-DE', voice: 'Polly.Vicki' },
  'pt-BR': { language: 'pt-BR', voice: 'Polly.Camila' },
  'pt-PT': { language: 'pt-PT', voice: 'Polly.Ines' },
  it: { language: 'it-IT', voice: 'Polly.Bianca' },
  nl: { language: 'nl-NL', voice: 'Polly.Lotte' },
  pl: { language: 'pl-PL', voice: 'Polly.Ewa' },
  sv: { language: 'sv-SE', voice: 'Polly.Astrid' },
  da: { language: 'da-DK', voice: 'Polly.Naja' },
  nb: { language: 'nb-NO', voice: 'Polly.Liv' },
  fi: { language: 'fi-FI', voice: 'Google.fi-FI-Standard-A' },
  cs: { language: 'cs-CZ', voice: 'Google.cs-CZ-Standard-A' },
  ro: { language: 'ro-RO', voice: 'Polly.Carmen' },
  hu: { language: 'hu-HU', voice: 'Google.hu-HU-Standard-A' },
  el: { language: 'el-GR', voice: 'Google.el-GR-Standard-A' },
  tr: { language: 'tr-TR', voice: 'Polly.Filiz' },
  ru: { language: 'ru-RU', voice: 'Polly.Tatyana' },
  uk: { language: 'uk-UA', voice: 'Google.uk-UA-Standard-A' },
  ar: { language: 'ar-XA', voice: 'Google.ar-XA-Standard-A' },
  he: { language: 'he-IL', voice: 'Google.he-IL-Standard-A' },
  hi: { language: 'hi-IN', voice: 'Google.hi-IN-Standard-A' },
  bn: { language: 'bn-IN', voice: 'Google.bn-IN-Standard-C' },
  'zh-CN': { language: 'cmn-CN', voice: 'Google.cmn-CN-Standard-A' },
  'zh-TW': { language: 'cmn-TW', voice: 'Google.cmn-TW-Standard-A' },
  ja: { language: 'ja-JP', voice: 'Polly.Mizuki' },
  ko: { language: 'ko-KR', voice: 'Polly.Seoyeon' },
  th: { language: 'th-TH', voice: 'Google.th-TH-Standard-A' },
  vi: { language: 'vi-VN', voice: 'Google.vi-VN-Standard-A' },
  id: { language: 'id-ID', voice: 'Google.id-ID-Standard-A' },
};
