import { CHANNELS } from '../../domain/types.js';
import type { Store } from '../../store/interface.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../interface.js';
import { encodeOutboxContent, outboxMessageId } from './outbox-content.js';

/**
 * The built-in outbox: keeps each message, on the request it delivers, and sends it nowhere. The
 * admin API shows it exactly as its recipient would see it. It serves every channel without a
 * provider, and every message of a test key.
 */
export class OutboxProvider implements ChannelProvider {
  readonly name = 'outbox';
  readonly channels = CHANNELS;

  constructor(
    private readonly store: Store,
    private readonly options: { webOtpDomain?: string } = {},
  ) {}

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    await this.store.addOutboxMessage(
      request.verificationId,
      encodeOutboxContent(request, this.options.webOtpDomain),
    );
    return { ok: true, providerMessageId: outboxMessageId(request.verificationId) };
  }

  async check() {
    return (await this.store.check()) ? ('up' as const) : ('down' as const);
  }
}
