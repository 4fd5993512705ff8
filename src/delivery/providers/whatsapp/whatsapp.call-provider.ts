import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, ProviderState, SendOutcome } from '../../interface.js';
import { WHATSAPP_CALL_PROVIDER, type WhatsAppCallFlow } from './whatsapp.call-flow.js';
import type { WhatsAppCalling } from './whatsapp.calling.js';

/**
 * WHATSAPP with deliveryType CALL: a WhatsApp call that speaks the code. Its send only stores the
 * job (the code sealed) and answers `queued`: the permission, the call and its media run after the
 * send has answered (WhatsAppCallFlow), off the request path.
 */
export class WhatsAppCallProvider implements ChannelProvider {
  readonly name = WHATSAPP_CALL_PROVIDER;
  readonly channels: readonly Channel[] = ['WHATSAPP'];

  constructor(
    private readonly flow: WhatsAppCallFlow,
    private readonly calling: WhatsAppCalling,
  ) {}

  send(request: DeliveryRequest): Promise<SendOutcome> {
    return this.flow.accept(request);
  }

  private lastDetail: string | null = null;

  /** Up when calling is enabled on the phone number (`GET /{phone-number-id}/settings`). */
  async check(): Promise<ProviderState> {
    const r = await this.calling.settings();
    this.lastDetail = r.ok ? `calling ${r.status}` : 'calling setting unreadable';
    return r.ok && r.callingEnabled ? 'up' : 'down';
  }

  detail(): string | null {
    return this.lastDetail;
  }
}
