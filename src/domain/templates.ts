import type { ErrorDetail } from './errors.js';

/**
 * Message templates of an account's branding: the languages messages are written in, the
 * placeholders a template may use, the rules a saved template must meet, and the substitution.
 * The built-in texts live in src/delivery/locales/; this is the rule both they and an account's
 * overrides follow.
 */

/** The languages with built-in texts; the first is the fallback. */
export const LOCALES = ['en', 'es', 'fr', 'de', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];

export const PLACEHOLDERS = ['code', 'minutes', 'product', 'purpose'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Record<Placeholder, string>;

/** One locale's overrides: any channel may be left to the built-in text. */
export interface LocaleTemplates {
  EMAIL?: { subject: string; text: string };
  SMS?: string;
  WHATSAPP?: string;
}

export type BrandingTemplates = Partial<Record<Locale, LocaleTemplates>>;

const isLocale = (value: string): value is Locale => (LOCALES as readonly string[]).includes(value);

/**
 * The supported language of a BCP 47 tag's primary subtag (`pt-BR` → `pt`, `de-AT` → `de`), else
 * English. A lookup only: it runs on every send.
 */
export function resolveLocale(tag: string | null | undefined): Locale {
  if (!tag) return 'en';
  const primary = tag.split(/[-_]/, 1)[0]?.toLowerCase() ?? '';
  return isLocale(primary) ? primary : 'en';
}

/** `{name}`: what a template author types; any other brace pair is refused when saved. */
const PLACEHOLDER_PATTERN = /\{([^{}]*)\}/g;

/** Replaces each placeholder once, as text: a value that itself holds `{code}` stays as it is. */
export function fillTemplate(template: string, values: PlaceholderValues): string {
  return template.replace(PLACEHOLDER_PATTERN, (whole, name: string) =>
    (PLACEHOLDERS as readonly string[]).includes(name) ? values[name as Placeholder] : whole,
  );
}

/** The problems of one template text: unknown placeholders, and a body without `{code}`. */
export function templateTextProblems(text: string, field: string, isBody: boolean): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const unknown = [...text.matchAll(PLACEHOLDER_PATTERN)]
    .map((m) => m[1] as string)
    .filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    problems.push({
      field,
      message: `${field} uses ${[...new Set(unknown)].map((n) => `{${n}}`).join(', ')}; the placeholders are {code}, {minutes}, {product} and {purpose}`,
    });
  }
  if (isBody && !text.includes('{code}')) {
    problems.push({ field, message: `${field} must contain {code}` });
  }
  return problems;
}

/**
 * The problems of a templates object as a settings change gives it (its shape already checked by
 * the schema; null entries reset and are skipped). `path` prefixes each detail's field.
 */
export function templatesProblems(templates: unknown, path = 'branding.templates'): ErrorDetail[] {
  if (templates === null || typeof templates !== 'object') return [];
  const problems: ErrorDetail[] = [];
  for (const [locale, channels] of Object.entries(templates)) {
    if (channels === null || typeof channels !== 'object') continue;
    const at = `${path}.${locale}`;
    const { EMAIL, SMS, WHATSAPP } = channels as Record<string, unknown>;
    if (EMAIL !== null && typeof EMAIL === 'object') {
      const { subject, text } = EMAIL as Record<string, unknown>;
      if (typeof subject === 'string')
        problems.push(...templateTextProblems(subject, `${at}.EMAIL.subject`, false));
      if (typeof text === 'string') problems.push(...templateTextProblems(text, `${at}.EMAIL.text`, true));
    }
    if (typeof SMS === 'string') problems.push(...templateTextProblems(SMS, `${at}.SMS`, true));
    if (typeof WHATSAPP === 'string')
      problems.push(...templateTextProblems(WHATSAPP, `${at}.WHATSAPP`, true));
  }
  return problems;
}

/**
 * Merges a templates change onto the saved templates: per locale and per channel, a null entry
 * removes the override (the built-in text is used again).
 */
export function mergeTemplates(
  saved: BrandingTemplates | undefined,
  change: unknown,
): BrandingTemplates | undefined {
  if (change === null) return undefined;
  if (change === undefined || typeof change !== 'object') return saved;
  const merged: Record<string, Record<string, unknown>> = {};
  for (const [locale, channels] of Object.entries(saved ?? {})) merged[locale] = { ...channels };
  for (const [locale, channels] of Object.entries(change as Record<string, unknown>)) {
    if (channels === null) {
      delete merged[locale];
      continue;
    }
    const next = { ...(merged[locale] ?? {}) };
    for (const [channel, value] of Object.entries(channels as Record<string, unknown>)) {
      if (value === null) delete next[channel];
      else next[channel] = value;
    }
    if (Object.keys(next).length > 0) merged[locale] = next;
    else delete merged[locale];
  }
  return Object.keys(merged).length > 0 ? (merged as BrandingTemplates) : undefined;
}
