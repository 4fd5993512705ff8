import { LOCALES, type Locale } from '../domain/templates.js';
import { LOCALE_TEXTS } from './locales/index.js';
import { expiresSentence } from './messages.js';

/** The lifetime whose plural form a template's expiry sentence takes: the default CODE_TTL_SECONDS. */
const TEMPLATE_MINUTES = 10;

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
 * purpose line, shown only when a request gives a purpose, is left for the operator to add. A
 * template has one expiry sentence for every lifetime: the plural form of 10 minutes (the default
 * lifetime), which languages with several forms (ru, pl, ar …) need for the common case.
 */
export function builtInTemplates(locale: Locale): BuiltInTemplates {
  const { email, sms, whatsapp } = LOCALE_TEXTS[locale];
  return {
    locale,
    EMAIL: { subject: email.subject, text: `${email.text}\n\n${expiresSentence(locale, TEMPLATE_MINUTES)}` },
    SMS: sms,
    WHATSAPP: whatsapp,
  };
}

/** Every language's, in the order of LOCALES. */
export const allBuiltInTemplates = (): BuiltInTemplates[] => LOCALES.map(builtInTemplates);
