import type { ChannelSpec, DeliveryType, DestinationKind } from './channel.js';
import { email } from './email.js';
import { silent } from './silent.js';
import { sms } from './sms.js';
import { voice } from './voice.js';
import { whatsapp } from './whatsapp.js';

/**
 * Every channel, once, in the order the API documents them. A new channel is a module of this
 * folder and its entry here: validation, key scopes, limits, delivery, the OpenAPI and webhook
 * documents (hence the dashboard and the client libraries' enums) follow from this list.
 */
export const CHANNEL_SPECS = [email, sms, whatsapp, voice, silent] as const;

type Spec = (typeof CHANNEL_SPECS)[number];
export type Channel = Spec['name'];
/** The channels routed per country, each with its `<NAME>_ROUTES` setting. */
export type RoutedChannel = Extract<Spec, { routedByCountry: true }>['name'];

/** The channels' names, in the registry's order. */
export const CHANNELS = CHANNEL_SPECS.map((c) => c.name) as readonly Channel[] as readonly [
  Channel,
  ...Channel[],
];

const BY_NAME = new Map<string, ChannelSpec<Channel>>(CHANNEL_SPECS.map((c) => [c.name, c]));

/** The description of a channel the API accepted (the schema allows only registered names). */
export function channelSpec(channel: Channel): ChannelSpec<Channel> {
  const spec = BY_NAME.get(channel);
  if (!spec) throw new Error(`no channel ${channel} is registered`);
  return spec;
}

/** The channels routed per destination country (ChannelSpec.routedByCountry), in the registry's order. */
export const ROUTED_CHANNELS = CHANNEL_SPECS.filter((c) => c.routedByCountry).map(
  (c) => c.name,
) as RoutedChannel[];

/** Names as a sentence lists them: `EMAIL, SMS and WHATSAPP`. */
export const listed = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** Whether a name is a registered channel. */
export const isChannel = (name: string): name is Channel => BY_NAME.has(name);

/** Whether the channel reaches a phone number (and so needs `phone`). */
export const isPhoneChannel = (channel: Channel): boolean => channelSpec(channel).destination === 'phone';

/** The request field that names a destination of the channel: `email` or `phone`. */
export const destinationField = (channel: Channel): DestinationKind => channelSpec(channel).destination;

/** The channels whose destinations are of `kind`, in the registry's order. */
export const channelsTo = (kind: DestinationKind): Channel[] =>
  CHANNEL_SPECS.filter((c) => c.destination === kind).map((c) => c.name);

/** The channels that offer a delivery type, in the registry's order. */
export const channelsOffering = (deliveryType: DeliveryType): Channel[] =>
  CHANNEL_SPECS.filter((c) => (c.deliveryTypes as readonly DeliveryType[]).includes(deliveryType)).map(
    (c) => c.name,
  );

/** The channels that count in the country window, as a sentence names them (their titles). */
export const COUNTRY_WINDOW_CHANNELS = listed(
  CHANNEL_SPECS.filter((c) => c.countryWindow).map((c) => c.title),
);

/** The phone channels, as a sentence names them (their titles). */
export const PHONE_CHANNEL_TITLES = listed(
  CHANNEL_SPECS.filter((c) => c.destination === 'phone').map((c) => c.title),
);

/** Whether sends on the channel count in its country's hourly window (see ChannelSpec.countryWindow). */
export const countsInCountryWindow = (channel: Channel): boolean => channelSpec(channel).countryWindow;

/** Whether the mobile network proves possession on the channel (ChannelSpec.proof): no code is delivered. */
export const isSilentChannel = (channel: Channel): boolean => channelSpec(channel).proof === 'network';

/** The phone channels that deliver a code: what a silent request may fall back to (send-code `fallback`). */
export const FALLBACK_CHANNELS = CHANNEL_SPECS.filter(
  (c) => c.destination === 'phone' && (c as ChannelSpec).proof !== 'network',
).map((c) => c.name) as Channel[];
