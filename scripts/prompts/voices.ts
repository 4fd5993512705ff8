/**
 * What the code-call prompts say, per language, and the espeak-ng voice that says it: read by
 * scripts/render-prompts.ts, which renders the ten digits and these two phrases once per language.
 * No brand name: a product name cannot be rendered ahead of time. Phrases carry no comma, so that
 * a clip is one stretch of speech (the renderer refuses a clip with a long pause inside).
 */
export interface PromptVoice {
  /** `espeak-ng -v` voice (`espeak-ng --voices`). */
  voice: string;
  /** Spoken before the first reading of the code. */
  intro: string;
  /** Spoken before the second reading. */
  again: string;
}

export const PROMPT_VOICES: Record<string, PromptVoice> = {
  en: { voice: 'en-us', intro: 'Your verification code is', again: 'Again your code is' },
  es: { voice: 'es', intro: 'Tu código de verificación es', again: 'Repito tu código es' },
  fr: { voice: 'fr', intro: 'Votre code de vérification est', again: 'Je répète votre code est' },
  de: { voice: 'de', intro: 'Ihr Bestätigungscode lautet', again: 'Noch einmal Ihr Code lautet' },
  pt: { voice: 'pt-br', intro: 'O seu código de verificação é', again: 'Repetindo o seu código é' },
};
