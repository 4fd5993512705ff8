import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { renderOutboxEntry, testCodeOf } from '../../delivery/outbox/outbox-content.js';
import { settingsProblems } from '../../domain/settings-request.js';
import { type Account, type ApiKeyRecord, modeOf } from '../../domain/types.js';
import {
  AccountLimitsResponse,
  AccountListResponse,
  AccountResponse,
  AccountSettingsPatch,
  ApiKeyListResponse,
  ApiKeyResponse,
  CreateAccountRequest,
  CreateApiKeyRequest,
  CreatedApiKeyResponse,
  OutboxMessageListResponse,
  UpdateApiKeyRequest,
} from '../admin-schemas.js';
import { adminAuth } from '../auth.js';
import { brandingView } from '../branding-schema.js';
import { ref } from '../components.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { ADMIN_SECURITY, SESSION_FORBIDDEN } from '../openapi.js';
import { PageCursor, PageLimit, page, pageLimit, readCursor } from '../paging.js';
import { answer, errorResponses, Mode, NoFields, noFieldsBody } from '../schemas.js';
import { validatedBody } from '../validation.js';
import { brandingAdminRoutes } from './branding.js';

const OutboxQuery = Type.Object({
  to: Type.Optional(Type.String({ maxLength: 254, description: 'Email address or phone number (+…).' })),
  requestId: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        "The message of this verification request only (none when the outbox did not take it, or it is another account's or mode's than asked).",
    }),
  ),
  accountId: Type.Optional(Type.String({ maxLength: 64 })),
  mode: Type.Optional(ref(Mode, { description: 'Messages of live keys or of test keys; absent: both.' })),
  limit: PageLimit,
  cursor: PageCursor,
});

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const adminErrors = errorResponses({
  400: 'VALIDATION_ERROR or INVALID_JSON',
  401: 'UNAUTHORIZED: missing or wrong admin token (or no live dashboard session)',
  403: SESSION_FORBIDDEN,
  404: 'NOT_FOUND',
});

const keyView = (k: ApiKeyRecord) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  channels: k.channels,
  accountId: k.accountId,
  test: k.mode === 'test',
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

/** The admin API under /v1/admin: accounts, API keys and the outbox. */
export const adminRoutes = (deps: AppDeps) => async (app: FastifyInstance) => {
  app.addHook('onRequest', adminAuth(deps.adminGate));
  // Ids are lower case; an id typed in upper case names the same record on every store.
  app.addHook('preValidation', (request, _reply, done) => {
    const params = request.params as { id?: unknown } | undefined;
    if (typeof params?.id === 'string') params.id = params.id.toLowerCase();
    done();
  });
  const publicBaseUrl = deps.renderOptions?.publicBaseUrl;
  const doc = (operationId: string, summary: string, extra: Record<string, unknown> = {}) => ({
    tags: ['admin'],
    operationId,
    summary,
    security: ADMIN_SECURITY,
    ...extra,
  });

  app.post<{ Body: Static<typeof CreateAccountRequest> }>(
    '/accounts',
    {
      // The domain's checks of the settings answer in the same VALIDATION_ERROR as the schema.
      attachValidation: true,
      schema: doc('createAccount', 'Create an account', {
        body: ref(CreateAccountRequest),
        response: { 201: answer(AccountResponse, 'Created.'), ...adminErrors },
      }),
    },
    async (request, reply) => {
      const body = validatedBody<Static<typeof CreateAccountRequest>>(request, (b, refused) =>
        settingsProblems(b.settings, refused, 'settings.'),
      );
      const account = await deps.admin.createAccount(body.name);
      const settings = body.settings;
      const saved = settings ? await deps.admin.updateSettings(account.id, settings) : account;
      reply.code(201);
      return { data: accountView(saved ?? account, publicBaseUrl) };
    },
  );

  app.get(
    '/accounts',
    {
      schema: doc('listAccounts', 'List accounts', {
        response: { 200: answer(AccountListResponse, 'Every account, oldest first.'), ...adminErrors },
      }),
    },
    async () => ({
      data: (await deps.admin.listAccounts()).map((a) => accountView(a, publicBaseUrl)),
    }),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/accounts/:id',
    {
      schema: doc('getAccount', 'Read an account', {
        description:
          'Its saved settings; `settings.branding.logo` is `{contentType, bytes, url}` when a logo was uploaded.',
        params: IdParams,
        response: { 200: answer(AccountResponse, 'The account.'), ...adminErrors },
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
      // The domain's checks of the settings answer in the same VALIDATION_ERROR as the schema.
      attachValidation: true,
      schema: doc(
        'updateAccountSettings',
        'Override deployment defaults for one account (null restores a default)',
        {
          params: IdParams,
          body: ref(AccountSettingsPatch),
          response: { 200: answer(AccountResponse, 'The account with its settings now.'), ...adminErrors },
        },
      ),
    },
    async (request) => {
      const body = validatedBody<Static<typeof AccountSettingsPatch>>(request, (b, refused) =>
        settingsProblems(b, refused),
      );
      const account = await deps.admin.updateSettings(request.params.id, body);
      if (!account) throw new ApiError('NOT_FOUND', 'No account with this id.');
      return { data: accountView(account, publicBaseUrl) };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/accounts/:id/limits',
    {
      schema: doc(
        'getAccountLimits',
        'The limits and settings in force for an account, and where each comes from',
        {
          params: IdParams,
          response: {
            200: answer(AccountLimitsResponse, 'Each setting with its value in force and source.'),
            ...adminErrors,
          },
        },
      ),
    },
    async (request) => {
      const account = await deps.admin.getAccount(request.params.id);
      if (!account) throw new ApiError('NOT_FOUND', 'No account with this id.');
      return { data: { accountId: account.id, ...deps.service.settingsInForce(account.settings) } };
    },
  );

  app.post<{ Body: Static<typeof CreateApiKeyRequest> }>(
    '/api-keys',
    {
      schema: doc('createApiKey', 'Create an API key; the secret `key` is returned only here', {
        body: ref(CreateApiKeyRequest),
        response: {
          201: answer(CreatedApiKeyResponse, 'Created: `key` is the secret, shown only here.'),
          ...adminErrors,
        },
      }),
    },
    async (request, reply) => {
      const { name, channels, accountId, test } = request.body;
      const created = await deps.admin.createKey({ name, channels, accountId, mode: modeOf(test) });
      if (!created) throw new ApiError('NOT_FOUND', 'No account with this accountId.');
      reply.code(201);
      return { data: { ...keyView(created.record), key: created.key } };
    },
  );

  app.get<{ Querystring: { accountId?: string } }>(
    '/api-keys',
    {
      schema: doc('listApiKeys', 'List API keys (without secrets)', {
        querystring: Type.Object({ accountId: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: { 200: answer(ApiKeyListResponse, 'Every key, revoked ones included.'), ...adminErrors },
      }),
    },
    async (request) => ({ data: (await deps.admin.listKeys(request.query.accountId)).map(keyView) }),
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateApiKeyRequest> }>(
    '/api-keys/:id',
    {
      schema: doc(
        'updateApiKey',
        'Rename a live API key or change its channels (the secret stays the same)',
        {
          params: IdParams,
          body: ref(UpdateApiKeyRequest),
          response: { 200: answer(ApiKeyResponse, 'The key now.'), ...adminErrors },
        },
      ),
    },
    async (request) => {
      const key = await deps.admin.updateKey(request.params.id, request.body);
      if (!key) throw new ApiError('NOT_FOUND', 'No live API key with this id.');
      return { data: keyView(key) };
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api-keys/:id',
    {
      schema: doc('revokeApiKey', 'Revoke an API key', {
        params: IdParams,
        response: { 200: answer(ApiKeyResponse, 'The key, revoked (`revokedAt` set).'), ...adminErrors },
      }),
    },
    async (request) => {
      const key = await deps.admin.revokeKey(request.params.id);
      if (!key) throw new ApiError('NOT_FOUND', 'No live API key with this id.');
      return { data: keyView(key) };
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api-keys/:id/rotate',
    {
      schema: doc('rotateApiKey', 'Issue a new secret for a key and revoke the old one', {
        params: IdParams,
        body: ref(NoFields),
        response: {
          201: answer(
            CreatedApiKeyResponse,
            'A new key with its secret; `replaces` names the key it revoked.',
          ),
          ...adminErrors,
        },
      }),
      ...noFieldsBody,
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
      schema: doc(
        'listOutboxMessages',
        'Messages kept by the built-in outbox, newest first, exactly as the recipient would see them',
        {
          description:
            'A page at a time: `limit` rows, then `nextCursor` passed as `cursor` for the next page (null on the last).',
          querystring: OutboxQuery,
          response: {
            200: answer(OutboxMessageListResponse, 'One page of messages, newest first.'),
            ...adminErrors,
          },
        },
      ),
    },
    async (request) => {
      const { to, requestId, accountId, mode } = request.query;
      const limit = pageLimit(request.query.limit);
      const [before] = readCursor(request.query.cursor, ['string'] as const) ?? [];
      const rows = await deps.service.outbox({
        to,
        requestId,
        accountId,
        before,
        mode,
        limit: limit + 1,
      });
      const { data: messages, nextCursor } = page(rows, limit, (last) => [last.verificationId]);
      return {
        nextCursor,
        data: messages.map((entry) => {
          const m = renderOutboxEntry(entry);
          const code = testCodeOf(entry);
          return {
            id: m.id,
            accountId: m.accountId,
            requestId: m.verificationId,
            groupId: entry.groupId,
            ...(entry.siblingRequestId !== null ? { siblingRequestId: entry.siblingRequestId } : {}),
            status: entry.status,
            ...(entry.verifiedAt !== null ? { verifiedAt: new Date(entry.verifiedAt).toISOString() } : {}),
            ...(entry.method !== null ? { method: entry.method } : {}),
            channel: m.channel,
            to: m.to,
            ...(m.subject !== undefined ? { subject: m.subject } : {}),
            text: m.text,
            ...(m.html !== undefined ? { html: m.html } : {}),
            ...(code !== null ? { code } : {}),
            createdAt: new Date(m.createdAt).toISOString(),
          };
        }),
      };
    },
  );

  // The logo upload and the preview, behind the same authentication.
  await app.register(brandingAdminRoutes(deps));
};
