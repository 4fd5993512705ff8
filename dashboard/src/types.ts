// Shapes of the admin API's answers, as far as the dashboard reads them. Where /openapi.json
// describes an answer, its type is taken from the generated client types (npm run clients:openapi),
// so the dashboard cannot drift from the service; the rest are written here.
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

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  channels: Channel[];
  accountId: string;
  test: boolean;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt?: string | null;
  key?: string;
}

export interface Breaker {
  accountId: string;
  mode: Mode;
  country: string;
  tripped: boolean;
  trippedAt: string | null;
  detail: unknown;
  resetAt: string | null;
}

export interface RiskSignal {
  name: string;
  weight: number;
  detail: string;
}
export interface Risk {
  score: number;
  level: 'low' | 'medium' | 'high';
  signals: RiskSignal[];
}

export interface Contact {
  id: string;
  accountId: string;
  mode: Mode;
  channel: Channel;
  destination: string;
  masked: string;
  firstSeen: string;
  lastSeen: string;
  counts: { sends: number; verified: number; failed: number; wrongCodes: number };
  risk: Risk | null;
  blocked: boolean;
  blockedReason: string | null;
  blockedAt: string | null;
}

export interface HistoryEntry {
  requestId: string;
  channel: Channel;
  status: string;
  purpose: string | null;
  provider: string | null;
  deliveryStatus: string | null;
  createdAt: string;
  expiresAt: string;
  verifiedAt: string | null;
  risk: Risk | null;
}

export interface ContactProfile extends Contact {
  channels: Channel[];
  history: HistoryEntry[];
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
