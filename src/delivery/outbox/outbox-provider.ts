import type { Verifications } from '../../domain/ports/verifications.js';
import { CHANNELS } from '../../domain/types.js';
import type { DeliveryRequest, OutboxChannel, SendOutcome } from '../interface.js';
import type { RenderOptions } from '../messages.js';
import { encodeOutboxContent, outboxMessageId } from './outbox-content.js';

/** What the outbox needs of the store: where a message is kept, and whether it can be. */
export interface OutboxStore {
  verifications: Pick<Verifications, 'addOutboxMessage'>;
  check(): Promise<boolean>;
}

/**
 * The built-in outbox: keeps each message, on the request it delivers, and sends it nowhere. The
 * admin API shows it exactly as its recipient would see it. It serves every channel without a
 * provider, and every message of a test key.
 */
export class OutboxProvider implements OutboxChannel {
  readonly name = 'outbox';
  readonly channels = CHANNELS;

  constructor(
    private readonly store: OutboxStore,
    private readonly options: RenderOptions = {},
  ) {}

  /** What the service keeps on the request row when it knows in advance that the outbox takes it. */
  prepare(request: DeliveryRequest) {
    return {
      content: encodeOutboxContent(request, this.options),
      providerMessageId: outboxMessageId(request.verificationId),
    };
  }

  /** Keeps the message on a request row that is already stored (when routing ends here late). */
  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const { content, providerMessageId } = this.prepare(request);
    await this.store.verifications.addOutboxMessage(request.verificationId, content, request.code);
    return { ok: true, providerMessageId };
  }

  async check() {
    return (await this.store.check()) ? ('up' as const) : ('down' as const);
  }
}
