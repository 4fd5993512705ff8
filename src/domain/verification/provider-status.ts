import type { Clock } from '../clock.js';
import type { Verifications } from '../ports/verifications.js';
import type { DeliveryStatus } from '../types.js';

/** What providers report afterwards of the messages (and calls) they took. */
export class ProviderStatus {
  constructor(
    private readonly verifications: Pick<Verifications, 'recordDeliveryByProviderId'>,
    private readonly clock: Clock,
  ) {}

  /**
   * A delivery state a provider reported for the message it knows by `providerMessageId`; false
   * when no request has that message (yet: a callback can outrun the send's record of it).
   */
  record(
    provider: string,
    providerMessageId: string,
    status: DeliveryStatus,
    error: string | null,
  ): Promise<boolean> {
    return this.verifications.recordDeliveryByProviderId(
      provider,
      providerMessageId,
      status,
      error,
      this.clock.now(),
    );
  }
}
