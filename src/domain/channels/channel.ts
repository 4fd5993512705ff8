/**
 * What the service knows of a channel, as data: each channel is one module of this folder and
 * one entry of ./registry.ts, and validation, key scopes, limits, risk, delivery, the OpenAPI
 * and webhook documents, the dashboard and the lint rules read it from there.
 */

/** How a code is delivered on a channel that offers a choice: a message, or a call that reads it. */
export const DELIVERY_TYPES = ['TEXT', 'CALL'] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];

/** What a destination of the channel is: an email address, or a phone number in E.164. */
export type DestinationKind = 'email' | 'phone';

/**
 * The message the delivery layer renders for the channel (src/delivery/messages.ts): the same
 * content in the outbox and at the providers.
 */
export type MessageFormat = 'email' | 'sms' | 'whatsapp' | 'voice' | 'silent';

export interface ChannelSpec<N extends string = string> {
  /** Its name in the API (`channel`, `channels`, a key's channels), upper case. */
  name: N;
  /** As sentences and the docs write it. */
  title: string;
  /** One sentence for the OpenAPI document. */
  description: string;
  /** The request field that carries the destination is named after it (`email`, `phone`). */
  destination: DestinationKind;
  /**
   * The delivery types a request may ask for (`deliveryType`), the first being the default; empty
   * when the channel has none (a request's deliveryType is then not stored or answered).
   */
  deliveryTypes: readonly DeliveryType[];
  /**
   * Delivery types the API accepts but this deployment cannot serve yet, with the reason a send
   * is refused for (503 CHANNEL_UNAVAILABLE; the other channel of a dual send goes on alone).
   */
  unavailable?: Partial<Record<DeliveryType, string>>;
  /** A call (the provider places it: `calling`, then answered, completed) or a message (`sent`). */
  carrier: 'message' | 'call';
  /**
   * Paid phone traffic: counted in its country's hourly window, capped per country, screened by
   * the SMS-pumping breaker and the country-conversion signal.
   */
  countryWindow: boolean;
  /**
   * Routed per destination country with failover between its providers, by a `<NAME>_ROUTES`
   * setting; otherwise its first configured provider carries it.
   */
  routedByCountry: boolean;
  message: MessageFormat;
  /**
   * How possession is proven: a code the user types back (the default), or the mobile network
   * itself (`network`: silent network authentication, the provider is asked on verify-code and no
   * code is delivered; the send's answer carries the URL the app opens on the device).
   */
  proof?: 'code' | 'network';
  /** Its message can carry a magic link beside the code (send-code's `link`, docs/links.md). */
  linkable?: boolean;
}

/** Declares a channel, keeping its fields as literal types (the registry's types derive from them). */
export const defineChannel = <const S extends ChannelSpec>(spec: S): S => spec;
