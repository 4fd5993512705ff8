import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { allBuiltInTemplates } from '../../delivery/built-in-templates.js';
import type { DeliveryRequest } from '../../delivery/interface.js';
import { uploadedLogoUrl } from '../../delivery/logo-url.js';
import { renderMessage } from '../../delivery/messages.js';
import { smsSegments } from '../../delivery/sms-segments.js';
import { mergeBranding } from '../../domain/branding.js';
import { localeTagProblems, textDirection } from '../../domain/locales.js';
import { isLogoType, LOGO_TYPES, MAX_LOGO_BYTES, sniffImageType } from '../../domain/logo.js';
import { brandingProblems } from '../../domain/settings-request.js';
import { resolveLocale } from '../../domain/templates.js';
import type { AccountSettings } from '../../domain/types.js';
import { BrandingPatch, Logo } from '../branding-schema.js';
import { component, envelope, ref } from '../components.js';
import type { AppDeps } from '../deps.js';
import { ApiError, validationError } from '../errors.js';
import { openToAnyone } from '../openapi.js';
import { answer, errorResponses, Locale, LocaleTag } from '../schemas.js';
import { validatedBody } from '../validation.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const LogoResponse = envelope('LogoResponse', ref(Logo));

const PreviewBody = component(
  'BrandingPreviewRequest',
  Type.Object(
    {
      branding: Type.Optional(ref(BrandingPatch)),
      locale: Type.Optional(LocaleTag),
      purpose: Type.Optional(Type.String({ maxLength: 100 })),
    },
    {
      additionalProperties: false,
      description:
        'A draft branding, merged over the saved one and validated as PATCH settings validates it.',
      examples: [
        {
          branding: { productName: 'Acme Pay', templates: { es: { SMS: '{code}: tu código de {product}' } } },
          locale: 'es-MX',
        },
      ],
    },
  ),
);

const BrandingPreview = component(
  'BrandingPreview',
  Type.Object(
    {
      locale: ref(Locale, { description: 'The locale the messages are written in.' }),
      direction: Type.String({
        enum: ['ltr', 'rtl'],
        description: "The locale's writing direction: how the SMS and WhatsApp texts are shown.",
      }),
      EMAIL: Type.Object({ subject: Type.String(), text: Type.String(), html: Type.String() }),
      SMS: Type.Object({
        text: Type.String(),
        segments: Type.Integer({
          minimum: 0,
          description:
            "How many SMS it costs. Built-in texts fit one with any code length (the product name is cut to fit); an account's template or the one-tap lines (webOtpHost, appHash) may take more.",
        }),
        encoding: Type.String({ enum: ['GSM-7', 'UCS-2'] }),
        characters: Type.Integer({
          minimum: 0,
          description:
            'Length in the encoding: GSM-7 septets (€ [ ] and the like count 2) or UTF-16 units (an emoji counts 2).',
        }),
      }),
      WHATSAPP: Type.Object({ text: Type.String() }),
    },
    { description: "Every channel's message as a recipient would see it, with the sample code 123456." },
  ),
);

const PreviewResponse = envelope('BrandingPreviewResponse', ref(BrandingPreview));

const BuiltInTemplates = component(
  'BuiltInTemplates',
  Type.Object(
    {
      locale: ref(Locale),
      EMAIL: Type.Object({
        subject: Type.String(),
        text: Type.String({
          description:
            "The code line and the expiry sentence: an account's email text replaces both, and the purpose line the built-in email adds when a request gives a purpose.",
        }),
      }),
      SMS: Type.String({ description: 'Without the WebOTP line, which is added after any SMS text.' }),
      WHATSAPP: Type.String(),
    },
    {
      description:
        "One language's built-in texts written as `branding.templates` takes them, placeholders unfilled: what an account's template starts from.",
    },
  ),
);

const BuiltInTemplatesResponse = envelope('BuiltInTemplatesResponse', Type.Array(ref(BuiltInTemplates)));

/** The sample code of every preview. */
const SAMPLE_CODE = '123456';

const errors = (extra: Record<number, string> = {}) =>
  errorResponses({
    400: 'VALIDATION_ERROR',
    401: 'UNAUTHORIZED: missing or wrong admin token',
    404: 'NOT_FOUND',
    ...extra,
  });

const notFound = () => new ApiError('NOT_FOUND', 'No account with this id.');

const LOGO_TYPE_LIST = LOGO_TYPES.join(', ');

/**
 * Branding routes under /v1/admin (registered inside the admin plugin, so behind its
 * authentication): the logo upload and the message preview.
 */
export const brandingAdminRoutes = (deps: AppDeps) => async (app: FastifyInstance) => {
  const doc = (operationId: string, summary: string, extra: Record<string, unknown> = {}) => ({
    tags: ['admin'],
    operationId,
    summary,
    security: [{ adminToken: [] }],
    ...extra,
  });

  await app.register(async (logo) => {
    // Images only in this scope, as raw bytes, up to the logo's bound (the app's is 16 KiB).
    logo.addContentTypeParser(
      [...LOGO_TYPES],
      { parseAs: 'buffer', bodyLimit: MAX_LOGO_BYTES },
      (_r, body, done) => done(null, body),
    );
    // Anything else, JSON included, is refused at once rather than parsed.
    logo.removeContentTypeParser('application/json');
    logo.addContentTypeParser('*', (_request, _payload, done) => done(unsupportedType()));

    logo.put<{ Params: Static<typeof IdParams> }>(
      '/accounts/:id/logo',
      {
        bodyLimit: MAX_LOGO_BYTES,
        schema: doc(
          'uploadAccountLogo',
          "Upload the account's logo (the raw image as the body); emails use it before logoUrl",
          {
            params: IdParams,
            consumes: [...LOGO_TYPES],
            body: Type.Unsafe({
              type: 'string',
              format: 'binary',
              description: `${LOGO_TYPE_LIST}; at most 100 KiB.`,
            }),
            response: {
              200: answer(LogoResponse, 'Saved.'),
              ...errors({
                413: 'PAYLOAD_TOO_LARGE: more than 100 KiB',
                415: `UNSUPPORTED_MEDIA_TYPE: not ${LOGO_TYPE_LIST}`,
              }),
            },
          },
        ),
        // The body is bytes: the schema above documents it, the handler checks it.
        validatorCompiler: () => () => true,
      },
      async (request) => {
        const type = (request.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
        if (!isLogoType(type)) throw unsupportedType();
        const data = request.body;
        if (!Buffer.isBuffer(data) || data.length === 0) {
          throw validationError([{ field: 'body', message: 'the body must be the image' }]);
        }
        const actual = sniffImageType(data);
        if (actual !== type) {
          throw validationError([
            {
              field: 'body',
              message: actual
                ? `the body is ${actual}, not the ${type} its Content-Type says`
                : `the body is not a ${type} image`,
            },
          ]);
        }
        const account = await deps.admin.setLogo(request.params.id, { contentType: type, data });
        const saved = account?.settings.branding?.logo;
        if (!account || !saved) throw notFound();
        const url = uploadedLogoUrl(account.id, saved, deps.renderOptions?.publicBaseUrl);
        return { data: { contentType: saved.contentType, bytes: saved.bytes, url } };
      },
    );
  });

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/accounts/:id/logo',
    {
      schema: doc('deleteAccountLogo', "Remove the account's uploaded logo (emails use logoUrl again)", {
        params: IdParams,
        response: { 204: Type.Null({ description: 'Removed, or there was none.' }), ...errors() },
      }),
    },
    async (request, reply) => {
      if (!(await deps.admin.deleteLogo(request.params.id))) throw notFound();
      return reply.code(204).send();
    },
  );

  app.get(
    '/branding/templates',
    {
      schema: doc(
        'listBuiltInTemplates',
        "The built-in texts of every language, as templates: what an account's templates replace",
        {
          response: {
            200: answer(BuiltInTemplatesResponse, 'One entry per language, the fallback (en) first.'),
            ...errors(),
          },
        },
      ),
    },
    async () => ({ data: allBuiltInTemplates() }),
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof PreviewBody> }>(
    '/accounts/:id/branding/preview',
    {
      attachValidation: true,
      schema: doc(
        'previewBranding',
        "Every channel's message with a draft branding, as a recipient would see it (code 123456)",
        {
          params: IdParams,
          body: ref(PreviewBody),
          response: { 200: answer(PreviewResponse, 'The messages.'), ...errors() },
        },
      ),
    },
    async (request) => {
      const body = validatedBody<Static<typeof PreviewBody>>(request, (b) => [
        ...brandingProblems(b.branding, 'branding'),
        ...localeTagProblems(b.locale),
      ]);
      const account = await deps.admin.getAccount(request.params.id);
      if (!account) throw notFound();
      const draft = mergeBranding(
        account.settings.branding,
        (body.branding ?? {}) as Record<string, unknown>,
      );
      const { branding: _saved, ...rest } = account.settings;
      const settings = deps.service.settingsOf(
        (draft ? { ...rest, branding: draft } : rest) as AccountSettings,
      );
      const locale = resolveLocale(body.locale ?? settings.locale);
      const sample: DeliveryRequest = {
        verificationId: '00000000-0000-7000-8000-000000000000',
        accountId: account.id,
        channel: 'EMAIL',
        to: '',
        code: SAMPLE_CODE,
        codeTtlSeconds: settings.codeTtlSeconds,
        deliveryType: 'TEXT',
        country: null,
        purpose: body.purpose ?? null,
        customMessage: null,
        branding: settings.branding,
        locale,
        ...(settings.webOtpHost !== null ? { webOtpHost: settings.webOtpHost } : {}),
        ...(settings.appHash !== null ? { appHash: settings.appHash } : {}),
      };
      const options = deps.renderOptions ?? {};
      const email = renderMessage({ ...sample, channel: 'EMAIL', to: 'jane@example.com' }, options);
      const sms = renderMessage({ ...sample, channel: 'SMS', to: '+14155552671' }, options);
      const whatsapp = renderMessage({ ...sample, channel: 'WHATSAPP', to: '+14155552671' }, options);
      return {
        data: {
          locale,
          direction: textDirection(locale),
          EMAIL: { subject: email.subject, text: email.text, html: email.html },
          SMS: { text: sms.text, ...smsSegments(sms.text) },
          WHATSAPP: { text: whatsapp.text },
        },
      };
    },
  );
};

const unsupportedType = () =>
  new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Send the logo as the raw image with Content-Type ${LOGO_TYPE_LIST}.`,
  );

/** The public image of an account's logo: what emails link to. */
export const publicLogoRoute = (deps: AppDeps) => async (app: FastifyInstance) => {
  app.get<{ Params: { accountId: string } }>(
    '/v1/branding/:accountId/logo',
    {
      schema: {
        tags: ['branding'],
        operationId: 'getAccountLogo',
        summary: "An account's uploaded logo (public: emails link to it)",
        ...openToAnyone('Emails link to it, so mail clients load it without credentials.'),
        params: Type.Object({ accountId: Type.String({ maxLength: 64 }) }),
        response: {
          200: {
            description: 'The image, as uploaded.',
            content: Object.fromEntries(
              LOGO_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
            ),
          },
          ...errorResponses({ 404: 'NOT_FOUND: no such account or no logo' }),
        },
      },
    },
    async (request, reply) => {
      const logo = await deps.admin.getLogo(request.params.accountId);
      if (!logo) throw new ApiError('NOT_FOUND', 'This account has no uploaded logo.');
      // An image, never a document: no sniffing, no scripts even when opened directly.
      return reply
        .header('content-type', logo.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=86400')
        .send(logo.data);
    },
  );
};
