/** A final delivery state a provider reported for one message it accepted earlier. */
export interface StatusUpdate {
  /** The provider name the message was recorded under (see DeliveryResult.provider). */
  provider: string;
  providerMessageId: string;
  status: 'delivered' | 'failed';
  /** Why it failed, for the record; provider codes only, never the message text. */
  error: string | null;
}
