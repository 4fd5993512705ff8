import { type TSchema, Type } from '@sinclair/typebox';
import { uploadedLogoUrl } from '../delivery/logo-url.js';
import { LOGO_TYPES, MAX_LOGO_BYTES } from '../domain/logo.js';
import { LEGACY_TEMPLATE_KEYS, LOCALES, type TemplateKey } from '../domain/templates.js';
import type { Branding } from '../domain/types.js';
import { component, ref } from './components.js';

/**
 * An account's branding in the admin API: the schema of a change (PATCH settings, the preview's
 * draft), the checks a schema cannot make, and how a saved branding is shown.
 */

const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });

/** The keys of `templates`: every locale, and `pt`, kept from when Portuguese was one locale. */
const TEMPLATE_KEYS: readonly TemplateKey[] = [...LOCALES, ...LEGACY_TEMPLATE_KEYS];
const LEGACY_NOTE =
  '`pt` (saved before Portuguese had two locales) still applies to pt-BR and pt-PT, channel by channel, where that locale has no template of its own.';

const PLACEHOLDER_NOTE =
  'Placeholders: {code}, {minutes}, {product}, {purpose}; a body must contain {code}. Values are substituted as text.';

/** One locale's overrides of the built-in texts; null restores a channel's built-in text. */
const LocaleTemplatesPatch = component(
  'LocaleTemplatesPatch',
  Type.Object(
    {
      EMAIL: nullable(
        Type.Object(
          {
            subject: text(200, 'Email subject.'),
            text: text(2000, 'Email body (plain text; escaped in the HTML part, line breaks kept).'),
          },
          { additionalProperties: false },
        ),
      ),
      SMS: nullable(text(480, 'SMS text (the WebOTP line, when configured, is added after it).')),
      WHATSAPP: nullable(
        text(1000, 'What the outbox shows for WhatsApp TEXT; Meta sends its approved template text.'),
      ),
    },
    { additionalProperties: false, description: PLACEHOLDER_NOTE },
  ),
);

/** The account's branding as PATCH settings takes it: partial, null resets a field. */
export const BrandingPatch = component(
  'BrandingPatch',
  Type.Object(
    {
      brandName: nullable(text(60, 'The sender name (email From display name).')),
      productName: nullable(text(60, 'The {product} placeholder; brandName when absent.')),
      color: nullable(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'Accent colour, #rrggbb.' })),
      logoUrl: nullable(
        Type.String({
          format: 'uri',
          pattern: '^https?://',
          maxLength: 500,
          description: 'An external logo; an uploaded logo (PUT …/logo) is used before it.',
        }),
      ),
      supportUrl: nullable(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 500 })),
      emailFooter: nullable(
        Type.String({ maxLength: 500, description: 'Plain text under every email (HTML-escaped).' }),
      ),
      templates: nullable(
        Type.Object(
          Object.fromEntries(
            TEMPLATE_KEYS.map((locale) => [locale, nullable(ref(LocaleTemplatesPatch))]),
          ) as Record<TemplateKey, ReturnType<typeof nullable<TSchema>>>,
          {
            additionalProperties: false,
            description: `Per-locale, per-channel overrides of the built-in texts, keyed by locale tag; merged per locale and channel. ${LEGACY_NOTE}`,
          },
        ),
      ),
    },
    {
      additionalProperties: false,
      description: 'A change of the branding: absent fields stay, null resets one.',
    },
  ),
);

/** An uploaded logo as the admin API shows it. */
export const Logo = component(
  'Logo',
  Type.Object({
    contentType: Type.String({ enum: [...LOGO_TYPES] }),
    bytes: Type.Integer({ minimum: 1, maximum: MAX_LOGO_BYTES }),
    url: Type.String({
      description:
        'Where it is served: absolute when PUBLIC_BASE_URL is set; `?v=` changes with each upload.',
    }),
  }),
);

/** One locale's saved texts. */
const LocaleTemplates = component(
  'LocaleTemplates',
  Type.Object(
    {
      EMAIL: Type.Optional(Type.Object({ subject: Type.String(), text: Type.String() })),
      SMS: Type.Optional(Type.String()),
      WHATSAPP: Type.Optional(Type.String()),
    },
    { description: PLACEHOLDER_NOTE },
  ),
);

/** The saved branding of an account, as brandingView shows it. */
export const BrandingSchema = component(
  'Branding',
  Type.Object(
    {
      brandName: Type.Optional(Type.String({ description: 'The sender name (email From display name).' })),
      productName: Type.Optional(
        Type.String({ description: 'The {product} placeholder; brandName when absent.' }),
      ),
      color: Type.Optional(Type.String({ description: 'Accent colour, #rrggbb.' })),
      logoUrl: Type.Optional(
        Type.String({ description: 'An external logo; an uploaded one is used before it.' }),
      ),
      supportUrl: Type.Optional(Type.String()),
      emailFooter: Type.Optional(Type.String()),
      templates: Type.Optional(
        Type.Object(
          Object.fromEntries(
            TEMPLATE_KEYS.map((locale) => [locale, Type.Optional(ref(LocaleTemplates))]),
          ) as Record<TemplateKey, TSchema>,
          { description: `Per-locale, per-channel overrides of the built-in texts. ${LEGACY_NOTE}` },
        ),
      ),
      logo: Type.Optional(
        ref(Logo, { description: 'The uploaded logo (PUT /v1/admin/accounts/{id}/logo).' }),
      ),
    },
    { description: "An account's saved branding: only what it sets; the rest is the deployment's." },
  ),
);

/** The branding as the admin API shows it: an uploaded logo with its URL, not its version. */
export function brandingView(accountId: string, branding: Partial<Branding>, publicBaseUrl?: string | null) {
  const { logo, ...rest } = branding;
  if (!logo) return rest;
  return {
    ...rest,
    logo: {
      contentType: logo.contentType,
      bytes: logo.bytes,
      url: uploadedLogoUrl(accountId, logo, publicBaseUrl),
    },
  };
}
