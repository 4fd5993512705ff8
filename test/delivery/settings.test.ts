import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { describeSettings } from '../../src/config/schema.js';
import { deliveryWarnings } from '../../src/delivery/factory.js';
import { PROVIDERS, providerNames } from '../../src/delivery/providers/registry.js';
import { parseRoutes, routeFor } from '../../src/delivery/routing.js';
import { startTestService, testConfig } from '../support/app.js';

const twilio = {
  TWILIO_ACCOUNT_SID: 'AC1',
  TWILIO_AUTH_TOKEN: 'super-secret-token',
  TWILIO_FROM: '+15005550006',
};
const vonage = { VONAGE_API_KEY: 'k', VONAGE_API_SECRET: 's', VONAGE_FROM: 'Acme' };

const whatsapp = {
  WHATSAPP_TOKEN: 'EAAGtoken',
  WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
  WHATSAPP_TEMPLATE: 'verify_code',
};

describe('delivery configuration', () => {
  it('warns at start when a channel is configured for one delivery type and not for another it has providers for', async () => {
    // WhatsApp text configured, its webhooks not verifiable (no WHATSAPP_APP_SECRET): no WhatsApp calls.
    expect(deliveryWarnings(testConfig(whatsapp))).toEqual([
      expect.stringMatching(
        /^WHATSAPP is configured but CALL has no provider \(the WhatsApp settings with WHATSAPP_APP_SECRET.*outbox/,
      ),
    ]);
    expect(deliveryWarnings(testConfig({}))).toEqual([]);
    // With the app secret, WhatsApp calls: nothing to warn of.
    expect(deliveryWarnings(testConfig({ ...whatsapp, WHATSAPP_APP_SECRET: 'app-secret' }))).toEqual([]);

    const lines: Array<{ level: number; msg: string }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const svc = await startTestService(whatsapp, { logger: pino({ level: 'info' }, sink) });
    await svc.close();
    expect(lines.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
      expect.stringMatching(/deliveryType CALL go to the outbox/),
    ]);
  });

  it('refuses a partly configured provider, naming the missing variable and not the secret', () => {
    const attempt = () => testConfig({ TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'super-secret-token' });
    expect(attempt).toThrow(/TWILIO_FROM: required by twilio/);
    expect(attempt).not.toThrow(/super-secret-token/);
    expect(() => testConfig({ TWILIO_FROM: '+15005550006' })).toThrow(
      /TWILIO_ACCOUNT_SID: required by twilio/,
    );
    expect(() => testConfig({ WHATSAPP_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '1' })).toThrow(
      /WHATSAPP_TEMPLATE/,
    );
    expect(() => testConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toThrow(/EMAIL_FROM/);
    expect(() => testConfig({ TELNYX_PUBLIC_KEY: 'abc' })).toThrow(
      /TELNYX_API_KEY.*TELNYX_FROM|TELNYX_API_KEY/,
    );
  });

  it('accepts base URLs and timeouts alone (they have defaults) but not a malformed base URL', () => {
    expect(() => testConfig({ TWILIO_TIMEOUT_MS: '2000' })).not.toThrow();
    expect(() => testConfig({ ...twilio, TWILIO_BASE_URL: 'api.twilio.com' })).toThrow(/TWILIO_BASE_URL/);
  });

  it('refuses SMS_ROUTES naming a provider that is not configured or not an SMS provider', () => {
    expect(() => testConfig({ ...twilio, SMS_ROUTES: 'US=twilio,vonage' })).toThrow(
      /SMS_ROUTES: US names vonage/,
    );
    expect(() => testConfig({ ...twilio, SMS_ROUTES: 'US=whatsapp' })).toThrow(/SMS_ROUTES/);
    expect(() => testConfig({ ...twilio, SMS_ROUTES: 'USA=twilio' })).toThrow(/two-letter/);
    expect(() => testConfig({ SMS_ROUTES: '*=twilio' })).toThrow(/no SMS provider/);
    expect(() =>
      testConfig({ ...twilio, ...vonage, SMS_ROUTES: 'us=Twilio, vonage; *=vonage' }),
    ).not.toThrow();
  });

  it('parses the routing syntax; countries without an entry use *, or every provider', () => {
    const known = providerNames(PROVIDERS, 'SMS');
    const { routes, problems } = parseRoutes('SMS', 'US=twilio,vonage;GB=vonage,twilio;*=twilio', {
      known,
      configured: ['twilio', 'vonage'],
    });
    expect(problems).toEqual([]);
    expect(routeFor(routes, 'US')).toEqual(['twilio', 'vonage']);
    expect(routeFor(routes, 'gb')).toEqual(['vonage', 'twilio']);
    expect(routeFor(routes, 'FR')).toEqual(['twilio']);
    expect(routeFor(routes, null)).toEqual(['twilio']);
    // The default route is every configured SMS provider in the registry's order.
    const fallback = parseRoutes('SMS', 'US=vonage', { known, configured: ['vonage', 'twilio'] }).routes;
    expect(routeFor(fallback, 'DE')).toEqual(['twilio', 'vonage']);
  });

  it('reads SMS_ROUTES as an object from the CONFIG_FILE, and the environment wins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cv-config-'));
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({ ...twilio, ...vonage, SMS_ROUTES: { US: ['vonage', 'twilio'], '*': ['twilio'] } }),
    );
    const config = testConfig({ CONFIG_FILE: file });
    expect(config.smsRoutes).toEqual({ US: ['vonage', 'twilio'], '*': ['twilio'] });
    expect(testConfig({ CONFIG_FILE: file, SMS_ROUTES: '*=vonage' }).smsRoutes).toBe('*=vonage');
    // Loopback base URLs: the health check must not reach the real APIs.
    const svc = await startTestService({
      CONFIG_FILE: file,
      TWILIO_BASE_URL: 'http://127.0.0.1:9',
      VONAGE_BASE_URL: 'http://127.0.0.1:9',
    });
    try {
      const health = await svc.get('/health');
      expect(health.body.channels.SMS.providers.map((p: { name: string }) => p.name)).toEqual([
        'twilio',
        'vonage',
      ]);
    } finally {
      await svc.close();
    }
  });

  it('describes every provider setting for the settings table, secrets marked', () => {
    const table = new Map(describeSettings().map((s) => [s.env, s]));
    for (const env of [
      'SMTP_URL',
      'EMAIL_FROM',
      'TWILIO_ACCOUNT_SID',
      'TWILIO_AUTH_TOKEN',
      'TWILIO_FROM',
      'TWILIO_BASE_URL',
      'VONAGE_API_KEY',
      'VONAGE_API_SECRET',
      'VONAGE_FROM',
      'VONAGE_BASE_URL',
      'TELNYX_API_KEY',
      'TELNYX_FROM',
      'TELNYX_BASE_URL',
      'WHATSAPP_TOKEN',
      'WHATSAPP_PHONE_NUMBER_ID',
      'WHATSAPP_TEMPLATE',
      'WHATSAPP_TEMPLATE_LANGUAGE',
      'WHATSAPP_API_VERSION',
      'WHATSAPP_BASE_URL',
      'SMS_ROUTES',
      'SMS_WEBOTP_DOMAIN',
      'PUBLIC_BASE_URL',
    ]) {
      expect(table.get(env)?.description, env).toBeTruthy();
    }
    for (const secret of [
      'SMTP_URL',
      'TWILIO_AUTH_TOKEN',
      'VONAGE_API_SECRET',
      'TELNYX_API_KEY',
      'WHATSAPP_TOKEN',
    ]) {
      expect(table.get(secret)?.secret, secret).toBe(true);
    }
    expect(table.get('TWILIO_BASE_URL')?.default).toBe('https://api.twilio.com');
  });
});
