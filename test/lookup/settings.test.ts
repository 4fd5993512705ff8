import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/schema.js';

// The lookup settings in the one configuration schema, and the checks that name a variable.

const TWILIO = { TWILIO_ACCOUNT_SID: 'AC0123', TWILIO_AUTH_TOKEN: 'token' };

describe('lookup settings', () => {
  it('defaults: no provider, a 1.5 s budget, a week for the line type, an hour for the SIM', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      lookupTimeoutMs: 1500,
      lookupLineCacheSeconds: 604_800,
      lookupSimCacheSeconds: 3600,
      lookupSimSwapWindowHours: 240,
      twilioLookupBaseUrl: 'https://lookups.twilio.com',
      vonageApiBaseUrl: 'https://api-eu.vonage.com',
      camaraSimSwapPath: '/sim-swap/v2',
      camaraSimSwapOperation: 'retrieve-date',
    });
    expect(config.lookupProvider).toBeUndefined();
  });

  it('Twilio Lookup with the account alone does not half-configure Twilio SMS', () => {
    const config = loadConfig({
      LOOKUP_PROVIDER: 'twilio',
      ...TWILIO,
      TWILIO_LOOKUP_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(config.lookupProvider).toBe('twilio');
    // Without the lookup, the same variables are a half-configured SMS provider, as before.
    expect(() => loadConfig(TWILIO)).toThrow('TWILIO_FROM: required by twilio');
    // And TWILIO_FROM without its token still is, lookup or not.
    expect(() =>
      loadConfig({ LOOKUP_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_FROM: '+15005550006' }),
    ).toThrow('TWILIO_AUTH_TOKEN: required by twilio');
    expect(() => loadConfig({ LOOKUP_PROVIDER: 'telnyx', TELNYX_API_KEY: 'KEY' })).not.toThrow();
  });

  it('names what the chosen provider lacks', () => {
    expect(() => loadConfig({ LOOKUP_PROVIDER: 'twilio' })).toThrow(
      'LOOKUP_PROVIDER=twilio: Twilio Lookup needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN',
    );
    expect(() => loadConfig({ LOOKUP_PROVIDER: 'camara', CAMARA_CLIENT_ID: 'id' })).toThrow(
      'CAMARA_BASE_URL: required by camara',
    );
    expect(() => loadConfig({ LOOKUP_PROVIDER: 'vonage' })).toThrow(
      'LOOKUP_PROVIDER=vonage: Vonage Identity Insights needs VONAGE_APPLICATION_ID, VONAGE_PRIVATE_KEY',
    );
    expect(() => loadConfig({ LOOKUP_PROVIDER: 'hlr' })).toThrow(
      'LOOKUP_PROVIDER: must be one of twilio, vonage, telnyx, camara',
    );
  });

  it('refuses a Vonage private key that does not parse, and takes one with its line breaks written out', () => {
    expect(() =>
      loadConfig({ LOOKUP_PROVIDER: 'vonage', VONAGE_APPLICATION_ID: 'app', VONAGE_PRIVATE_KEY: 'secret' }),
    ).toThrow('VONAGE_PRIVATE_KEY: is not a PEM private key');
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString()
      .replace(/\n/g, '\\n');
    expect(
      loadConfig({ LOOKUP_PROVIDER: 'vonage', VONAGE_APPLICATION_ID: 'app', VONAGE_PRIVATE_KEY: pem })
        .lookupProvider,
    ).toBe('vonage');
  });

  it('bounds the budget and the cache periods', () => {
    expect(() => loadConfig({ LOOKUP_TIMEOUT_MS: '10' })).toThrow('LOOKUP_TIMEOUT_MS');
    expect(() => loadConfig({ LOOKUP_SIM_CACHE_SECONDS: '999999' })).toThrow('LOOKUP_SIM_CACHE_SECONDS');
    expect(() => loadConfig({ CAMARA_SIM_SWAP_OPERATION: 'date' })).toThrow(
      'CAMARA_SIM_SWAP_OPERATION: must be one of retrieve-date, check',
    );
  });
});
