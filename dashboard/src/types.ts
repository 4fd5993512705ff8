// Shapes of the admin API's answers (see /openapi.json), as far as the dashboard reads them.

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

export interface Bucket {
  start: string;
  group: string | null;
  sent: number;
  delivered: number;
  undelivered: number;
  verified: number;
  failed: number;
  expired: number;
  canceled: number;
  conversionRate: number;
  wrongCodes: number;
  limited: number;
  limitedBy: Record<string, number>;
  riskRefused: number;
  blockedRefused: number;
  medianSecondsToVerify: number | null;
  p90SecondsToVerify: number | null;
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

export interface OutboxMessage {
  id: string;
  accountId: string;
  requestId: string;
  channel: Channel;
  to: string;
  subject?: string;
  text: string;
  html?: string;
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

export interface Webhook {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  secret?: string;
}

export interface Delivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  createdAt: string;
}

export interface Health {
  status: 'ok' | 'degraded' | 'down';
  version: string;
  uptimeSeconds: number;
  services: Record<string, string>;
  channels: Record<string, { operational: boolean; providers: { name: string; state: string }[] }>;
  pumpingBreakers?: { accountId: string; mode: Mode; country: string; trippedAt: string }[];
}

export interface Preview {
  locale: string;
  EMAIL: { subject: string; text: string; html: string };
  SMS: { text: string; segments: number; encoding: string; characters: number };
  WHATSAPP: { text: string };
}
