import { newId } from '../../domain/api-keys.js';
import type { Clock } from '../../domain/clock.js';
import { CHANNELS } from '../../domain/types.js';
import type { Store } from '../../store/interface.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../interface.js';
import { renderMessage } from '../messages.js';

/**
 * The built-in outbox: stores each message exactly as its recipient would see it and sends it
 * nowhere. It serves every channel without a provider, and every message of a test key.
 */
export class OutboxProvider implements ChannelProvider {
  readonly name = 'outbox';
  readonly channels = CHANNELS;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly options: { webOtpDomain?: string } = {},
  ) {}

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const id = newId('msg');
    await this.store.addOutboxMessage({
      ...renderMessage(request, this.options),
      id,
      accountId: request.accountId,
      verificationId: request.verificationId,
      createdAt: this.clock.now(),
    });
    return { ok: true, providerMessageId: id };
  }

  async check() {
    return (await this.store.check()) ? ('up' as const) : ('down' as const);
  }
}
