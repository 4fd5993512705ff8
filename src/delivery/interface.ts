import type { DeliveryRequest, ProviderState } from '../domain/ports/delivery.js';
import type { SilentCheck, SilentOutcome } from '../domain/silent.js';
import type { Channel, DeliveryStatus } from '../domain/types.js';

// The port the domain delivers through is the domain's (src/domain/ports/delivery.ts); the
// providers' own interfaces are here.
export type {
  Delivery,
  DeliveryPlan,
  DeliveryRequest,
  DeliveryResult,
  LiveCodes,
  LiveRouting,
  ProviderState,
} from '../domain/ports/delivery.js';

/** A provider's answer. Expected failures are values, so failover is an ordinary branch. */
export type SendOutcome =
  | {
      ok: true;
      providerMessageId: string;
      /** See DeliveryResult: the state the acceptance records, and what runs once it is recorded. */
      accepted?: DeliveryStatus;
      recorded?: () => void;
      /** SILENT: the URL the app opens on the device (docs/silent.md names each provider's). */
      silentUrl?: string;
    }
  | {
      ok: false;
      /** True for failures another attempt or provider may not hit: 5xx, 429, timeouts, refused connections. */
      retryable: boolean;
      /** A sentence for logs and the dual-send entry; never contains the code. */
      error: string;
    };

/** The built-in outbox: a provider that can also hand over its content to be kept on the row. */
export interface OutboxChannel extends ChannelProvider {
  prepare(request: DeliveryRequest): { content: string; providerMessageId: string };
}

/** One delivery provider of one channel (a mail server, an SMS API, the outbox …). */
export interface ChannelProvider {
  readonly name: string;
  readonly channels: readonly Channel[];
  send(request: DeliveryRequest): Promise<SendOutcome>;
  /** Reports the provider's state for /health, without sending anything. */
  check(): Promise<ProviderState>;
  /** What its last check found, in a few words for /health (`calling ENABLED`), when it says more than up or down. */
  detail?(): string | null;
  /** SILENT providers: asks what the device proved of the verification `send` started. */
  checkSilent?(check: SilentCheck): Promise<SilentOutcome>;
}

/** Whether a live code on a channel with no provider may be parked in the outbox (LIVE_OUTBOX). */
export type LiveOutbox = 'allow' | 'refuse';
