import { type Static, type TInteger, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { renderOutboxEntry } from '../../delivery/outbox/outbox-content.js';
import { ACCOUNT_LIMITS, ACCOUNT_ONLY_SETTINGS, type AccountLimitName } from '../../domain/account-limits.js';
import { checkPhone, isKnownCountry } from '../../domain/phone.js';
import { type Account, type ApiKeyRecord, CHANNELS } from '../../domain/types.js';
import { adminAuth } from '../auth.js';
import { BrandingPatch, brandingProblems, brandingView } from '../branding-schema.js';
import type { AppDeps } from '../deps.js';
import { ApiError, validationError } from '../errors.js';
import { ADMIN_SECURITY, SESSION_FORBIDDEN } from '../openapi.js';
import { ChannelSchema, errorResponses } from '../schemas.js';
import { schemaDetails } from '../validation.js';
import { brandingAdminRoutes } from './branding.js';

const ChannelList = Type.Array(
  Type.Unsafe<(typeof CHANNELS)[number]>({ type: 'string', enum: [...CHANNELS] }),
  {
    minItems: 1,
    maxItems: 3,
    uniqueItems: true,
  },
);

const nullable = <T extends ReturnType<typeof Type.Integer>>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));

/** Each per-account limit, as its one description in the domain bounds it; null restores the default. */
const limitOverrides = Object.fromEntries(
  Object.entries(ACCOUNT_LIMITS).map(([name, l]) => [
    name,
    nullable(Type.Integer({ minimum: l.min, maximum: l.max, description: l.description })),
  ]),
) as { [K in AccountLimitName]: ReturnType<typeof nullable<TInteger>> };

/** The settings only an account sets, from the same description; null restores the default. */
const accountOnlyOverrides = Object.fromEntries(
  Object.entries(ACCOUNT_ONLY_SETTINGS).map(([name, o]) => {
    const bounds = { minimum: o.min, maximum: o.max, description: o.description };
    return [
      name,
      Type.Optional(Type.Union([o.integer ? Type.Integer(bounds) : Type.Number(bounds), Type.Null()])),
    ];
  }),
) as { [K in keyof typeof ACCOUNT_ONLY_SETTINGS]: ReturnType<typeof nullable<TInteger>> };

/** Per-account overrides; null returns a setting to the deployment default. */
const AccountSettingsPatch = Type.Object(
  {
    ...limitOverrides,
    ...accountOnlyOverrides,
    allowedCountries: Type.Optional(
      Type.Union([
        Type.Array(Type.String({ pattern: '^([A-Za-z]{2}|\\*)$' }), { maxItems: 250 }),
        Type.Null(),
      ]),
    ),
    branding: Type.Optional(Type.Union([BrandingPatch, Type.Null()])),
  },
  { additionalProperties: false },
);

const AccountBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  settings: Type.Optional(AccountSettingsPatch),
});

const KeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  channels: ChannelList,
  accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  test: Type.Optional(Type.Boolean({ description: 'Test keys deliver every message to the outbox only.' })),
});

const KeyPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    channels: Type.Optional(ChannelList),
  },
  { additionalProperties: false, minProperties: 1 },
);

const OutboxQuery = Type.Object({
  to: Type.Optional(Type.String({ maxLength: 254, description: 'Email address or phone number (+…).' })),
  accountId: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: 'At most 500; default 50.' })),
});

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const adminErrors = errorResponses({
  400: 'VALIDATION_ERROR or INVALID_JSON',
  401: 'UNAUTHORIZED: missing or wrong admin token (or no live dashboard session)',
  403: SESSION_FORBIDDEN,
  404: 'NOT_FOUND',
});

/** An API key as the admin API shows it: never its secret or hash. */
const KeyView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the secret.' }),
  channels: Type.Array(ChannelSchema),
  accountId: Type.String(),
  test: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the key last authenticated a request, to within a minute; null if never.',
  }),
});

/** An outbox message as the recipient would see it; documented, and serialised by this schema. */
const OutboxMessage = Type.Object({
  id: Type.String({ description: '`msg_` and the request id without dashes.' }),
  accountId: Type.String({ description: 'The account the request belongs to.' }),
  requestId: Type.String({ format: 'uuid', description: 'The verification request it delivered.' }),
  channel: Type.Unsafe<string>({ type: 'string', enum: [...CHANNELS] }),
  to: Type.String({ description: 'The full destination.' }),
  subject: Type.Optional(Type.String({ description: 'EMAIL only.' })),
  text: Type.String({
    description: 'The message text; the code shows masked once the request has left pending.',
  }),
  html: Type.Optional(Type.String({ description: 'EMAIL only.' })),
  createdAt: Type.String({ format: 'date-time' }),
});

const Source = Type.Unsafe<'default' | 'environment' | 'account'>({
  type: 'string',
  enum: ['default', 'environment', 'account'],
  description:
    "default: the built-in value; environment: the deployment's variable (or CONFIG_FILE); account: this account's override.",
});
const numberOrNull = (description?: string) => Type.Union([Type.Number(), Type.Null()], { description });
const CountriesOrNull = Type.Union([Type.Array(Type.String()), Type.Null()], {
  description: 'ISO 3166-1 alpha-2 codes; null: every country.',
});

/** The settings an account may override, each with the value in force and where it comes from. */
const AccountLimitsView = Type.Object({
  accountId: Type.String(),
  limits: Type.Array(
    Type.Object({
      name: Type.String({ description: 'As in PATCH /v1/admin/accounts/{id}/settings.' }),
      value: numberOrNull('In force; null: off.'),
      source: Source,
      deployment: numberOrNull('What an account without an override gets.'),
      default: numberOrNull('Built in.'),
      env: Type.Union([Type.String(), Type.Null()], {
        description: 'The deployment variable; null for a setting only an account sets.',
      }),
      min: Type.Number(),
      max: Type.Number(),
      description: Type.String(),
    }),
  ),
  allowedCountries: Type.Object({
    value: CountriesOrNull,
    source: Source,
    deployment: CountriesOrNull,
  }),
});

const keyView = (k: ApiKeyRecord) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  channels: k.channels,
  accountId: k.accountId,
  test: k.test,
  createdAt: new Date(k.createdAt).toISOString(),
  revokedAt: k.revokedAt === null ? null : new Date(k.revokedAt).toISOString(),
  lastUsedAt: k.lastUsedAt === null ? null : new Date(k.lastUsedAt).toISOString(),
});

const accountView = (a: Account, publicBaseUrl?: string | null) => ({
  id: a.id,
  name: a.name,
  settings: a.settings.branding
    ? { ...a.settings, branding: brandingView(a.id, a.settings.branding, publicBaseUrl) }
    : a.settings,
  createdAt: new Date(a.createdAt).toISOString(),
});

/**
 * Schema failures of admin routes answer VALIDATION_ERROR with one detail per problem; `settings`
 * (of an account) adds the checks a schema cannot make.
 */
function rejectInvalid(
  request: { validationError?: { validation: Parameters<typeof schemaDetails>[0] } },
  settings?: { allowedCountries?: unknown; branding?: unknown } | null,
  path = '',
) {
  const found = request.validationError
    ? schemaDetails(request.validationError.validation)
    : { details: [], refused: new Set<string>() };
  found.details.push(...brandingProblems(settings?.branding, `${path}branding`));
  const countries = settings?.allowedCountries;
  if (Array.isArray(countries) && !found.refused.has('allowedCountries')) {
    const unknown = countries.filter(
      (c) => typeof c === 'string' && c !== '*' && !isKnownCountry(c.toUpperCase()),
    );
    if (unknown.length > 0) {
      found.details.push({
        field: 'allowedCountries',
        message: `allowedCountries: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a known' : 'are not known'} ISO 3166-1 alpha-2 country code${unknown.length === 1 ? '' : 's'}`,
      });
    }
  }
  if (found.details.length > 0) throw validationError(found.details);
}

/** The admin API under /v1/admin: accounts, API keys and the outbox. */
export const adminRoutes = (deps: AppDeps) => async (app: FastifyInstance) => {
  app.addHook('onRequest', adminAuth(deps.adminGate));
  // Ids are lower case; an id typed in upper case names the same record on every store.
  app.addHook('preValidation', (request, _reply, done) => {
    const params = request.params as { id?: unknown } | undefined;
    if (typeof params?.id === 'string') params.id = params.id.toLowerCase();
    done();
  });
  const common = { attachValidation: true } as const;
  const publicBaseUrl = deps.renderOptions?.publicBaseUrl;
  const doc = (summary: string, extra: Record<string, unknown> = {}) => ({
    tags: ['admin'],
    summary,
    security: ADMIN_SECURITY,
    ...extra,
  });

  app.post<{ Body: Static<typeof AccountBody> }>(
    '/accounts',
    { ...common, schema: doc('Create an account', { body: AccountBody, response: adminErrors }) },
    async (request, reply) => {
      rejectInvalid(request, request.body?.settings, 'settings.');
      const account = await deps.admin.createAccount(request.body.name);
      const settings = request.body.settings;
      const saved = settings ? await deps.admin.updateSettings(account.id, settings) : account;
      reply.code(201);
      return { data: accountView(saved ?? account, publicBaseUrl) };
    },
  );

  app.get('/accounts', { schema: doc('List accounts') }, async () => ({
    data: (await deps.admin.listAccounts()).map((a) => accountView(a, publicBaseUrl)),
  }));

  app.get<{ Params: Static<typeof IdParams> }>(
    '/accounts/:id',
    {
      schema: doc('Read an account', {
        description:
          'Its saved settings; `settings.branding.logo` is `{contentType, bytes, url}` when a logo was uploaded.',
        params: IdParams,
        response: adminErrors,
      }),
    },
    async (request) => {
      const account = await deps.admin.getAccount(request.params.id);
      if (!account) throw new ApiError('NOT_FOUND', 'No account with this id.');
      return { data: accountView(account, publicBaseUrl) };
    },
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof AccountSettingsPatch> }>(
    '/accounts/:id/settings',
    {
      ...common,
      schema: doc('Override deployment defaults for one account (null restores a default)', {
        params: IdParams,
        body: AccountSettingsPatch,
        response: adminErrors,
      }),
    },
    async (request) => {
      rejectInvalid(request, request.body);
      const account = await deps.admin.updateSettings(request.params.id, request.body);
      if (!account) throw new ApiError('NOT_FOUND', 'No account with this id.');
      return { data: accountView(account, publicBaseUrl) };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/accounts/:id/limits',
    {
      schema: doc('The limits and settings in force for an account, and where each comes from', {
        params: IdParams,
        response: { 200: Type.Object({ data: AccountLimitsView }), ...adminErrors },
      }),
    },
    async (request) => {
      const account = await deps.admin.getAccount(request.params.id);
      if (!account) throw new ApiError('NOT_FOUND', 'No account with this id.');
      return { data: { accountId: account.id, ...deps.service.settingsInForce(account.settings) } };
    },
  );

  app.post<{ Body: Static<typeof KeyBody> }>(
    '/api-keys',
    {
      ...common,
      schema: doc('Create an API key; the secret `key` is returned only here', {
        body: KeyBody,
        response: adminErrors,
      }),
    },
    async (request, reply) => {
      rejectInvalid(request);
      const created = await deps.admin.createKey(request.body);
      if (!created) throw new ApiError('NOT_FOUND', 'No account with this accountId.');
      reply.code(201);
      return { data: { ...keyView(created.record), key: created.key } };
    },
  );

  app.get<{ Querystring: { accountId?: string } }>(
    '/api-keys',
    {
      schema: doc('List API keys (without secrets)', {
        response: { 200: Type.Object({ data: Type.Array(KeyView) }), ...adminErrors },
      }),
    },
    async (request) => ({ data: (await deps.admin.listKeys(request.query.accountId)).map(keyView) }),
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof KeyPatch> }>(
    '/api-keys/:id',
    {
      ...common,
      schema: doc('Rename a live API key or change its channels (the secret stays the same)', {
        params: IdParams,
        body: KeyPatch,
        response: { 200: Type.Object({ data: KeyView }), ...adminErrors },
      }),
    },
    async (request) => {
      rejectInvalid(request);
      const key = await deps.admin.updateKey(request.params.id, request.body);
      if (!key) throw new ApiError('NOT_FOUND', 'No live API key with this id.');
      return { data: keyView(key) };
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api-keys/:id',
    { schema: doc('Revoke an API key', { params: IdParams, response: adminErrors }) },
    async (request) => {
      if (!(await deps.admin.revokeKey(request.params.id))) {
        throw new ApiError('NOT_FOUND', 'No live API key with this id.');
      }
      const key = await deps.store.getApiKey(request.params.id);
      return { data: key ? keyView(key) : { id: request.params.id } };
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api-keys/:id/rotate',
    {
      schema: doc('Issue a new secret for a key and revoke the old one', {
        params: IdParams,
        response: adminErrors,
      }),
    },
    async (request, reply) => {
      const created = await deps.admin.rotateKey(request.params.id);
      if (!created) throw new ApiError('NOT_FOUND', 'No live API key with this id.');
      reply.code(201);
      return { data: { ...keyView(created.record), key: created.key, replaces: request.params.id } };
    },
  );

  app.get<{ Querystring: Static<typeof OutboxQuery> }>(
    '/outbox',
    {
      ...common,
      schema: doc(
        'Messages kept by the built-in outbox, newest first, exactly as the recipient would see them',
        {
          querystring: OutboxQuery,
          response: { 200: Type.Object({ data: Type.Array(OutboxMessage) }), ...adminErrors },
        },
      ),
    },
    async (request) => {
      rejectInvalid(request);
      const { to, accountId, limit } = request.query;
      const messages = await deps.store.listOutbox({
        to: to ? normaliseDestination(to) : undefined,
        accountId,
        limit: Math.min(500, Math.max(1, Number(limit ?? 50))),
      });
      return {
        data: messages.map(renderOutboxEntry).map((m) => ({
          id: m.id,
          accountId: m.accountId,
          requestId: m.verificationId,
          channel: m.channel,
          to: m.to,
          ...(m.subject !== undefined ? { subject: m.subject } : {}),
          text: m.text,
          ...(m.html !== undefined ? { html: m.html } : {}),
          createdAt: new Date(m.createdAt).toISOString(),
        })),
      };
    },
  );

  // The logo upload and the preview, behind the same authentication.
  await app.register(brandingAdminRoutes(deps));
};

/** The outbox stores lower-case emails and E.164 numbers; accept what a person would type. */
function normaliseDestination(to: string): string {
  const value = to.trim();
  if (value.includes('@')) return value.toLowerCase();
  const phone = checkPhone(value.startsWith('+') ? value : `+${value.replace(/^00/, '')}`);
  return phone.ok ? phone.e164 : value;
}
