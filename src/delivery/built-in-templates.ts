import { LOCALES, type Locale } from '../domain/templates.js';
import { LOCALE_TEXTS } from './locales/index.js';

/**
 * The built-in texts of a language written as an account's templates (branding.templates): what
 * the branding editor starts from, so an operator edits the service's words instead of a blank.
 */
export interface BuiltInTemplates {
  locale: Locale;
  EMAIL: { subject: string; text: string };
  SMS: string;
  WHATSAPP: string;
}

/**
 * An account's email text replaces the built-in code line, purpose line and expiry sentence
 * (src/delivery/messages.ts), so the text offered is the code line and the expiry sentence; the
 * purpose line, shown only when a request gives a purpose, is left for the operator to add.
 */
export function builtInTemplates(locale: Locale): BuiltInTemplates {
  const { email, sms, whatsapp } = LOCALE_TEXTS[locale];
  return {
    locale,
    EMAIL: { subject: email.subject, text: `${email.text}\n\n${email.expires.other}` },
    SMS: sms,
    WHATSAPP: whatsapp,
  };
}

/** Every language's, in the order of LOCALES. */
export const allBuiltInTemplates = (): BuiltInTemplates[] => LOCALES.map(builtInTemplates);
