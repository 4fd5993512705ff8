// Shapes of the admin API's answers, as far as the dashboard reads them. Where /openapi.json
// describes an answer, its type is taken from the generated client types (npm run clients:openapi),
// so the dashboard cannot drift from the service (tsc fails when a field it reads goes).
import type { components, paths } from '../../clients/typescript/src/schema';
import { CHANNELS as DOCUMENT_CHANNELS, WEBHOOK_EVENTS as DOCUMENT_WEBHOOK_EVENTS } from './enums';

type Method = 'get' | 'post' | 'patch';
/** The JSON body of a documented answer. */
type Answer<P extends keyof paths, M extends Method> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
/** Its `data`. */
type Data<P extends keyof paths, M extends Method> = Answer<P, M> extends { data: infer D } ? D : never;
type Item<T> = T extends readonly (infer I)[] ? I : never;

export type Bucket = Item<Data<'/v1/admin/analytics', 'get'>['buckets']>;
export type OutboxMessage = Item<Data<'/v1/admin/outbox', 'get'>>;
/** An endpoint; `secret` only in the answer that created it. */
export type Webhook = Item<Data<'/v1/admin/webhooks', 'get'>> & { secret?: string };
export type Delivery = Item<Data<'/v1/admin/webhooks/{id}/deliveries', 'get'>>;
export type Health = Answer<'/health', 'get'>;
export type Preview = Data<'/v1/admin/accounts/{id}/branding/preview', 'post'>;
export type AccountLimits = Data<'/v1/admin/accounts/{id}/limits', 'get'>;
export type LimitInForce = Item<AccountLimits['limits']>;
export type SettingSource = LimitInForce['source'];
/** A key as listed; `key` (the secret) only in the answer that created or rotated it. */
export type ApiKey = Item<Data<'/v1/admin/api-keys', 'get'>> & { key?: string };
export type Breaker = Item<Data<'/v1/admin/breakers', 'get'>>;
export type Contact = Item<Data<'/v1/admin/contacts', 'get'>>;
export type ContactProfile = Data<'/v1/admin/contacts/{id}', 'get'>;
export type HistoryEntry = Item<ContactProfile['history']>;
export type Risk = NonNullable<Contact['risk']>;

/** A named schema of the document (components.schemas). */
type Schema<N extends keyof components['schemas']> = components['schemas'][N];

export type Locale = Schema<'Locale'>;
/** How a request was verified (the API's `method`). */
export type VerificationMethod = Schema<'VerificationMethod'>;
/** The locales with built-in texts, in the service's order (tsc fails when the document adds one). */
export const LOCALES = [
  'en',
  'es',
  'fr',
  'de',
  'pt-BR',
  'pt-PT',
  'it',
  'nl',
  'pl',
  'sv',
  'da',
  'nb',
  'fi',
  'cs',
  'ro',
  'hu',
  'el',
  'tr',
  'ru',
  'uk',
  'ar',
  'he',
  'fa',
  'hi',
  'bn',
  'zh-CN',
  'zh-TW',
  'ja',
  'ko',
  'th',
  'vi',
  'id',
] as const satisfies readonly Locale[];
export type MessageSettingInForce = Item<AccountLimits['messages']>;
export type Channel = Schema<'Channel'>;
/** The channels, in the document's order (generated: src/domain/channels/registry.ts decides). */
export const CHANNELS = DOCUMENT_CHANNELS satisfies readonly Channel[];
export type Mode = Schema<'Mode'>;
export type VerificationStatus = Schema<'VerificationStatus'>;
export type Branding = Schema<'Branding'>;
export type LocaleTemplates = Schema<'LocaleTemplates'>;
/** One language's built-in texts, as templates (GET /v1/admin/branding/templates). */
export type BuiltInTemplates = Schema<'BuiltInTemplates'>;
export type AccountSettings = Schema<'AccountSettings'>;
export type Account = Schema<'Account'>;
export type Session = Schema<'DashboardSession'>;
/** A page of contacts (the recent ones, or a search's matches) and the cursor of the next. */
export type ContactList = Answer<'/v1/admin/contacts', 'get'>;
/** A page of outbox messages and the cursor of the next. */
export type OutboxList = Answer<'/v1/admin/outbox', 'get'>;

export const WEBHOOK_EVENTS = DOCUMENT_WEBHOOK_EVENTS satisfies readonly Schema<'WebhookEventType'>[];

/** true when `Listed` names every value of `All`: tsc fails below when the document adds one. */
type Complete<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : false;
true satisfies Complete<Channel, (typeof CHANNELS)[number]>;
true satisfies Complete<Locale, (typeof LOCALES)[number]>;
true satisfies Complete<Schema<'WebhookEventType'>, (typeof WEBHOOK_EVENTS)[number]>;

/** The account and mode the dashboard is looking at, handed to every page. */
export interface Scope {
  account: Account;
  mode: Mode;
  reloadAccount: () => void;
  accounts: Account[];
  /** Chooses this account and mode at the top, staying on the page shown. */
  adopt: (accountId: string, mode: Mode) => void;
}
