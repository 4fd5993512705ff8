import { generateKeyPairSync } from 'node:crypto';
import type { LineType } from '../../../src/domain/number-intelligence.js';
import { type FakeAnswer, type FakeLookupApi, type Received, startFakeLookupApi } from './fake-lookup-api.js';

/**
 * What a fake provider says of one number: its line type and how many hours ago its SIM changed
 * (null: never). A number with no scenario answers as a mobile whose SIM never changed.
 */
export interface Scenario {
  lineType?: LineType;
  simChangedHoursAgo?: number | null;
}

/** One lookup provider answered on loopback as its documentation shows, number by number. */
export interface ProviderFake {
  name: 'twilio' | 'vonage' | 'telnyx' | 'camara';
  api: FakeLookupApi;
  /** The service's environment that points the provider at the fake. */
  env: Record<string, string>;
  /** Sets what the fake says of `number`. */
  say(number: string, scenario: Scenario): void;
  /** Answers every lookup with `answer` instead (a fault); `null` goes back to the scenarios. */
  fail(answer: FakeAnswer | null): void;
  /** Lookups it answered for `number` (an OAuth token's request is not one). */
  lookupsOf(number: string): Received[];
  /** Whether the provider can tell line types (CAMARA cannot). */
  knowsLineType: boolean;
  /** Whether it can tell SIM changes (Telnyx cannot). */
  knowsSim: boolean;
  close(): Promise<void>;
}

const HOUR_MS = 3_600_000;
const iso = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR_MS).toISOString();

const TWILIO_TYPES: Record<LineType, string> = {
  mobile: 'mobile',
  landline: 'landline',
  voip: 'nonFixedVoip',
  tollFree: 'tollFree',
  premium: 'premium',
  other: 'pager',
};
const VONAGE_TYPES: Record<LineType, string> = {
  mobile: 'MOBILE',
  landline: 'LANDLINE',
  voip: 'VIRTUAL',
  tollFree: 'LANDLINE_TOLLFREE',
  premium: 'LANDLINE_PREMIUM',
  other: 'PAGER',
};
const TELNYX_TYPES: Record<LineType, string> = {
  mobile: 'mobile',
  landline: 'fixed line',
  voip: 'voip',
  tollFree: 'toll free',
  premium: 'premium rate',
  other: 'pager',
};

/** The number a request asks about, as each API carries it. */
function numberOf(name: ProviderFake['name'], r: Received): string | null {
  if (name === 'twilio' || name === 'telnyx') {
    const last = decodeURIComponent(r.path.split('/').at(-1) ?? '');
    return last.startsWith('+') ? last : null;
  }
  try {
    const body = JSON.parse(r.body) as { phone_number?: string; phoneNumber?: string };
    if (body.phone_number) return `+${body.phone_number}`;
    return body.phoneNumber ?? null;
  } catch {
    return null;
  }
}

/** The documented answer of each provider to a lookup of `number` in `scenario`. */
function answerOf(name: ProviderFake['name'], number: string, s: Scenario, r: Received): FakeAnswer {
  const type = s.lineType ?? 'mobile';
  const swap = s.simChangedHoursAgo ?? null;
  switch (name) {
    case 'twilio':
      // twilio_lookups_v2.json, fetchLineTypeIntelligence / fetchSimSwap.
      return {
        json: {
          calling_country_code: '44',
          country_code: 'GB',
          phone_number: number,
          national_format: null,
          valid: true,
          validation_errors: null,
          caller_name: null,
          sim_swap: r.query.get('Fields')?.includes('sim_swap')
            ? {
                last_sim_swap:
                  swap === null
                    ? { last_sim_swap_date: null, swapped_period: null, swapped_in_period: null }
                    : { last_sim_swap_date: iso(swap), swapped_period: null, swapped_in_period: null },
                carrier_name: 'Vodafone UK',
                mobile_country_code: '234',
                mobile_network_code: '15',
                error_code: null,
              }
            : null,
          call_forwarding: null,
          line_type_intelligence: {
            error_code: null,
            mobile_country_code: type === 'mobile' ? '234' : null,
            mobile_network_code: type === 'mobile' ? '15' : null,
            carrier_name: type === 'mobile' ? 'Vodafone UK' : 'Twilio Fake Fixed',
            type: TWILIO_TYPES[type],
          },
          identity_match: null,
          url: `https://lookups.twilio.com/v2/PhoneNumbers/${number}`,
        },
      };
    case 'vonage': {
      // The guides' carrier insights and the SIM swap insight, each with its status.
      const ok = { code: 'OK', message: 'Success' };
      const asked = (JSON.parse(r.body) as { insights: Record<string, unknown> }).insights;
      const carrier = {
        name: 'Telefonica UK Limited',
        network_type: VONAGE_TYPES[type],
        country_code: 'GB',
        network_code: '23410',
        status: ok,
      };
      const insights: Record<string, unknown> = {};
      if ('original_carrier' in asked) insights.original_carrier = carrier;
      if ('current_carrier' in asked) insights.current_carrier = carrier;
      if ('sim_swap' in asked)
        insights.sim_swap =
          swap === null
            ? { is_swapped: false, status: ok }
            : { latest_sim_swap_at: iso(swap), is_swapped: true, status: ok };
      return { json: { request_id: 'aaaaaaaa-bbbb-cccc-dddd-0123456789ab', insights } };
    }
    case 'telnyx':
      return {
        json: {
          data: {
            caller_name: null,
            carrier: {
              error_code: null,
              mobile_country_code: type === 'mobile' ? '234' : null,
              mobile_network_code: type === 'mobile' ? '10' : null,
              name: 'O2 UK',
              normalized_carrier: 'O2',
              type: TELNYX_TYPES[type],
            },
            country_code: 'GB',
            fraud: null,
            national_format: null,
            phone_number: number,
            portability: null,
            record_type: 'number_lookup',
          },
        },
      };
    case 'camara':
      // retrieve-date: latestSimChange null with a monitoredPeriod when no change is known.
      return {
        json:
          swap === null ? { latestSimChange: null, monitoredPeriod: 120 } : { latestSimChange: iso(swap) },
      };
  }
}

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** Starts the fake of `name` on loopback. */
export async function startProviderFake(name: ProviderFake['name']): Promise<ProviderFake> {
  const scenarios = new Map<string, Scenario>();
  let fault: FakeAnswer | null = null;
  const api = await startFakeLookupApi((r) => {
    if (r.path === '/oauth/token')
      return { json: { access_token: `at-${r.body.length}`, token_type: 'Bearer', expires_in: 3600 } };
    if (fault) return fault;
    const number = numberOf(name, r);
    if (!number) return { status: 400, json: { message: 'no number' } };
    return answerOf(name, number, scenarios.get(number) ?? {}, r);
  });
  const env: Record<string, string> = {
    twilio: {
      LOOKUP_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      TWILIO_AUTH_TOKEN: 'twilio-lookup-token',
      TWILIO_LOOKUP_BASE_URL: api.url,
    },
    vonage: {
      LOOKUP_PROVIDER: 'vonage',
      VONAGE_APPLICATION_ID: 'aaaaaaaa-bbbb-cccc-dddd-0123456789ab',
      VONAGE_PRIVATE_KEY: PEM,
      VONAGE_API_BASE_URL: api.url,
    },
    telnyx: { LOOKUP_PROVIDER: 'telnyx', TELNYX_API_KEY: 'KEY0123456789', TELNYX_BASE_URL: api.url },
    camara: {
      LOOKUP_PROVIDER: 'camara',
      CAMARA_BASE_URL: api.url,
      CAMARA_TOKEN_URL: `${api.url}/oauth/token`,
      CAMARA_CLIENT_ID: 'client',
      CAMARA_CLIENT_SECRET: 's3cret',
    },
  }[name];
  return {
    name,
    api,
    env,
    knowsLineType: name !== 'camara',
    knowsSim: name !== 'telnyx',
    say: (number, scenario) => void scenarios.set(number, scenario),
    fail: (answer) => {
      fault = answer;
    },
    lookupsOf: (number) =>
      api.received.filter((r) => r.path !== '/oauth/token' && numberOf(name, r) === number),
    close: () => api.close(),
  };
}
