import { channelSpec, type RoutedChannel } from '../domain/channels/registry.js';
import type { Channel, DeliveryType } from '../domain/types.js';

/**
 * Routes by destination country of a channel routed per country (SMS_ROUTES, VOICE_ROUTES …):
 * `US=first,second;GB=second,first;*=first`, with the providers' registry names. Each entry
 * names an ISO 3166-1 alpha-2 country (or `*` for every other one) and the providers to try in
 * order. In a config file the same may be an object: `{"US": ["first", "second"], "*": ["first"]}`.
 * Without a `*` entry, other countries use every configured provider of the channel in the
 * registry's order.
 */
export type CountryRoutes = ReadonlyMap<string, readonly string[]>;

/** The providers of a channel a route may name: all of them in the registry's order, and those configured. */
export interface RoutedProviders {
  known: readonly string[];
  configured: readonly string[];
}

/** What a `<CHANNEL>_ROUTES` setting holds, as text or as an object of a config file. */
export type RoutesValue = string | Record<string, string[] | string> | undefined;

/** The variable of a channel's routes. */
export const routesVariable = (channel: RoutedChannel) => `${channel}_ROUTES` as const;

/** The configuration key of a channel's routes (`smsRoutes`). */
export const routesKey = (channel: RoutedChannel) =>
  `${channel.toLowerCase() as Lowercase<RoutedChannel>}Routes` as const;

/** Parses a channel's routes; `problems` names every mistake, with the variable, for the boot error. */
export function parseRoutes(
  channel: RoutedChannel,
  value: RoutesValue,
  { known, configured }: RoutedProviders,
): { routes: CountryRoutes; problems: string[] } {
  const variable = routesVariable(channel);
  const problems: string[] = [];
  const routes = new Map<string, string[]>();
  const entries: Array<[string, string[]]> =
    value === undefined
      ? []
      : typeof value === 'string'
        ? value
            .split(/[;\n]/)
            .map((e) => e.trim())
            .filter(Boolean)
            .map((e) => {
              const [country = '', list = ''] = e.split('=', 2);
              if (!e.includes('='))
                problems.push(`${variable}: "${e}" is not of the form COUNTRY=provider,provider`);
              return [country, list.split(',')];
            })
        : Object.entries(value).map(([c, l]) => [c, Array.isArray(l) ? l : String(l).split(',')]);
  for (const [rawCountry, rawList] of entries) {
    const country = rawCountry.trim().toUpperCase();
    const list = rawList.map((p) => p.trim().toLowerCase()).filter(Boolean);
    if (country !== '*' && !/^[A-Z]{2}$/.test(country)) {
      problems.push(`${variable}: "${rawCountry}" is not a two-letter country code or *`);
      continue;
    }
    if (routes.has(country)) problems.push(`${variable}: ${country} is routed twice`);
    if (list.length === 0) problems.push(`${variable}: ${country} names no provider`);
    for (const name of list) {
      if (!known.includes(name)) {
        problems.push(
          `${variable}: ${country} names "${name}"; ${channel} providers are ${known.join(', ')}`,
        );
      } else if (!configured.includes(name)) {
        problems.push(`${variable}: ${country} names ${name}, which is not configured`);
      }
    }
    if (new Set(list).size !== list.length) problems.push(`${variable}: ${country} names a provider twice`);
    routes.set(country, list);
  }
  if (!routes.has('*'))
    routes.set(
      '*',
      known.filter((p) => configured.includes(p)),
    );
  return { routes, problems };
}

/** The providers to try, in order, for a destination country (null when unknown). */
export function routeFor(routes: CountryRoutes, country: string | null): readonly string[] {
  return (country ? routes.get(country.toUpperCase()) : undefined) ?? routes.get('*') ?? [];
}

/**
 * The delivery types a channel's messages are routed by: its own (ChannelSpec.deliveryTypes), or
 * TEXT alone for a channel without any, whatever a dual send's request asked for the other.
 */
export const routedTypes = (channel: Channel): readonly DeliveryType[] => {
  const { deliveryTypes } = channelSpec(channel);
  return deliveryTypes.length > 0 ? deliveryTypes : ['TEXT'];
};

/** The delivery type a request's message on `channel` is routed by (see routedTypes). */
export const routedType = (channel: Channel, deliveryType: DeliveryType): DeliveryType =>
  routedTypes(channel).includes(deliveryType) ? deliveryType : 'TEXT';

/**
 * The delivery types of a channel /health and the start-up log report on: its routed types
 * but those the service does not serve yet (ChannelSpec.unavailable: refused before delivery).
 */
export const servedTypes = (channel: Channel): readonly DeliveryType[] => {
  const { unavailable } = channelSpec(channel);
  return routedTypes(channel).filter((t) => !unavailable?.[t]);
};
