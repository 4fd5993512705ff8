import type { ErrorDetail } from './errors.js';
import { DEFAULT_LOCALE, type Locale, matchLocale } from './locales.js';

/**
 * Message templates of an account's branding: the languages messages are written in, the
 * placeholders a template may use, the rules a saved template must meet, and the substitution.
 * The built-in texts live in src/delivery/locales/; this is the rule both they and an account's
 * overrides follow.
 */

export { LOCALES, type Locale } from './locales.js';

export const PLACEHOLDERS = ['code', 'minutes', 'product', 'purpose'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Record<Placeholder, string>;

/** One locale's overrides: any channel may be left to the built-in text. */
export interface LocaleTemplates {
  EMAIL?: { subject: string; text: string };
  SMS?: string;
  WHATSAPP?: string;
}

/**
 * `pt`: templates saved when Portuguese was one locale. They still apply to pt-BR and pt-PT,
 * channel by channel, wherever that locale has no template of its own.
 */
export const LEGACY_TEMPLATE_KEYS = ['pt'] as const;
export type TemplateKey = Locale | (typeof LEGACY_TEMPLATE_KEYS)[number];

export type BrandingTemplates = Partial<Record<TemplateKey, LocaleTemplates>>;

/** The account's template of a locale and channel: its own, else the legacy `pt` one for Portuguese. */
export function templateOf<C extends keyof LocaleTemplates>(
  templates: BrandingTemplates | undefined,
  locale: Locale,
  channel: C,
): LocaleTemplates[C] | undefined {
  if (templates === undefined) return undefined;
  const own = templates[locale]?.[channel];
  if (own !== undefined || (locale !== 'pt-BR' && locale !== 'pt-PT')) return own;
  return templates.pt?.[channel];
}

/**
 * The supported locale of a BCP 47 tag (src/domain/locales.ts: exact, then language), else
 * English. A lookup only: it runs on every send.
 */
export function resolveLocale(tag: string | null | undefined): Locale {
  if (!tag) return DEFAULT_LOCALE;
  const match = matchLocale(tag);
  return match === null || match === 'malformed' ? DEFAULT_LOCALE : match;
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
