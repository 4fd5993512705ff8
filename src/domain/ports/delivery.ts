import type { Locale } from '../locales.js';
import type { SilentCheck, SilentOutcome } from '../silent.js';
import type { Branding, Channel, DeliveryStatus, DeliveryType, Mode } from '../types.js';

/** Everything a provider needs to deliver one code. `code` must never be logged. */
export interface DeliveryRequest {
  verificationId: string;
  accountId: string;
  channel: Channel;
  /** Where the message goes: the email address as the request gave it (trimmed), or an E.164 number. */
  to: string;
  code: string;
  codeTtlSeconds: number;
  deliveryType: DeliveryType;
  country: string | null;
  purpose: string | null;
  customMessage: string | null;
  branding: Branding;
  /** The locale the message is written in (negotiated: src/domain/locales.ts). */
  locale: Locale;
  /** SMS: the account's `webOtpHost` (the WebOTP line `@host #code`); absent: the deployment's, if any. */
  webOtpHost?: string;
  /** SMS: the account's `appHash` (Android SMS Retriever). */
  appHash?: string;
  /** EMAIL: the magic link (`<PUBLIC_BASE_URL>/v1/links/<token>`) shown beside the code; a secret like the code. */
  link?: string;
}

export type ProviderState = 'up' | 'down' | 'unknown';

/** The result of delivering one code, after routing and failover. */
export type DeliveryResult =
  | {
      ok: true;
      provider: string;
      providerMessageId: string;
      outbox: boolean;
      /**
       * The delivery state the provider's acceptance records; absent: `sent` (`calling` for a call
       * channel). A provider that only queued the work (a WhatsApp call) says `queued`.
       */
      accepted?: DeliveryStatus;
      /** Called once the acceptance is recorded on the request: the provider's work may go on. */
      recorded?: () => void;
      /** SILENT: the URL the app opens on the device over mobile data (the send's `silent.url`). */
      silentUrl?: string;
    }
  | { ok: false; permanent: boolean; error: string; provider: string | null };

/**
 * How one message of a send is delivered, decided before its request is stored. The outbox's
 * content is written with the request row (one write per send) and the message is delivered
 * then; a provider's delivery happens after the write, through deliver().
 */
export type DeliveryPlan = { via: 'outbox'; content: string; result: DeliveryResult } | { via: 'provider' };

/** What becomes of live codes on a channel: a provider delivers them, the outbox parks them, or sends are refused. */
export type LiveCodes = 'delivered' | 'outbox' | 'refused';

/** A channel's handling of live codes, with a sentence for operators when they are not delivered. */
export interface LiveRouting {
  /** For the channel's default delivery type (TEXT); the note names any other type that differs. */
  liveCodes: LiveCodes;
  note?: string;
}

/** Chooses providers per channel and destination and fails over between them. */
export interface Delivery {
  /**
   * Whether the outbox takes a message or a provider delivers it: the outbox takes every message
   * of a test key, and a live one with no provider for its channel and delivery type (unless
   * LIVE_OUTBOX=refuse). For the outbox, the content to keep on the row and the result of that
   * delivery. Nothing is written or sent here.
   */
  plan(request: DeliveryRequest, mode: Mode): DeliveryPlan;
  /** Delivers a message planned for a provider, failing over between the providers of its route. */
  deliver(request: DeliveryRequest, mode: Mode): Promise<DeliveryResult>;
  /** False when a live code on this channel has no provider and LIVE_OUTBOX=refuse: the send is refused. */
  available(channel: Channel, mode: Mode, deliveryType?: DeliveryType): boolean;
  /**
   * Asks the provider that started a SILENT request what the device proved (the outbox, and a
   * test key, answer from the documented test numbers). Never throws: a provider that cannot be
   * asked is `unavailable`.
   */
  checkSilent(check: SilentCheck, mode: Mode): Promise<SilentOutcome>;
  /** Per channel: what becomes of live codes (for /health and the start-up log). */
  liveRouting(): Record<Channel, LiveRouting>;
  /** Per channel: whether it can deliver, and each provider's state. */
  health(): Promise<
    Record<
      Channel,
      {
        operational: boolean;
        providers: Array<{ name: string; state: ProviderState; detail?: string }>;
      } & LiveRouting
    >
  >;
}
