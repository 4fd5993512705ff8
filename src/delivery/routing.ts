/**
 * SMS routes by destination country: `US=first,second;GB=second,first;*=first`, with the providers'
 * registry names. Each entry names an ISO 3166-1 alpha-2 country (or `*` for every other one) and
 * the providers to try in order. In a config file the same may be an object:
 * `{"US": ["first", "second"], "*": ["first"]}`.
 * Without a `*` entry, other countries use every configured SMS provider in the registry's order.
 */
export type SmsRoutes = ReadonlyMap<string, readonly string[]>;

/** The SMS providers a route may name: all of them in the registry's order, and those configured. */
export interface SmsProviders {
  known: readonly string[];
  configured: readonly string[];
}

/** Parses SMS_ROUTES; `problems` names every mistake, with the variable, for the boot error. */
export function parseSmsRoutes(
  value: string | Record<string, string[] | string> | undefined,
  { known, configured }: SmsProviders,
): { routes: SmsRoutes; problems: string[] } {
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
                problems.push(`SMS_ROUTES: "${e}" is not of the form COUNTRY=provider,provider`);
              return [country, list.split(',')];
            })
        : Object.entries(value).map(([c, l]) => [c, Array.isArray(l) ? l : String(l).split(',')]);
  for (const [rawCountry, rawList] of entries) {
    const country = rawCountry.trim().toUpperCase();
    const list = rawList.map((p) => p.trim().toLowerCase()).filter(Boolean);
    if (country !== '*' && !/^[A-Z]{2}$/.test(country)) {
      problems.push(`SMS_ROUTES: "${rawCountry}" is not a two-letter country code or *`);
      continue;
    }
    if (routes.has(country)) problems.push(`SMS_ROUTES: ${country} is routed twice`);
    if (list.length === 0) problems.push(`SMS_ROUTES: ${country} names no provider`);
    for (const name of list) {
      if (!known.includes(name)) {
        problems.push(`SMS_ROUTES: ${country} names "${name}"; SMS providers are ${known.join(', ')}`);
      } else if (!configured.includes(name)) {
        problems.push(`SMS_ROUTES: ${country} names ${name}, which is not configured`);
      }
    }
    if (new Set(list).size !== list.length) problems.push(`SMS_ROUTES: ${country} names a provider twice`);
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
export function smsRouteFor(routes: SmsRoutes, country: string | null): readonly string[] {
  return (country ? routes.get(country.toUpperCase()) : undefined) ?? routes.get('*') ?? [];
}
