// Shapes of the admin API's answers, as far as the dashboard reads them. Where /openapi.json
// describes an answer, its type is taken from the generated client types (npm run clients:openapi),
// so the dashboard cannot drift from the service (tsc fails when a field it reads goes); only what
// the document leaves open (an account's saved settings) is written here.
import type { paths } from '../../clients/typescript/src/schema';

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

export type Channel = 'EMAIL' | 'SMS' | 'WHATSAPP';
export const CHANNELS: Channel[] = ['EMAIL', 'SMS', 'WHATSAPP'];
export type Mode = 'live' | 'test';

export interface Branding {
  brandName?: string;
  productName?: string;
  color?: string;
  logoUrl?: string;
  supportUrl?: string;
  emailFooter?: string;
  templates?: Record<string, LocaleTemplates>;
  logo?: { contentType: string; bytes: number; url: string };
}

export interface LocaleTemplates {
  EMAIL?: { subject: string; text: string };
  SMS?: string;
  WHATSAPP?: string;
}

export interface AccountSettings {
  codeLength?: number;
  codeTtlSeconds?: number;
  maxAttempts?: number;
  resendCooldownSeconds?: number;
  sendsPerDestinationPerHour?: number;
  failuresPerDestinationPerDay?: number;
  keySendPerSecond?: number;
  keyVerifyPerSecond?: number;
  countrySendsPerHour?: number;
  riskThreshold?: number;
  pumpingMinSends?: number;
  pumpingMinConversion?: number;
  allowedCountries?: string[];
  branding?: Branding;
}

export interface Account {
  id: string;
  name: string;
  settings: AccountSettings;
  createdAt: string;
}

export const WEBHOOK_EVENTS = [
  'verification.created',
  'verification.delivered',
  'verification.undelivered',
  'verification.verified',
  'verification.failed',
  'verification.expired',
  'verification.canceled',
  'contact.blocked',
  'contact.unblocked',
] as const;
