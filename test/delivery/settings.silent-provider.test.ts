import { describe, expect, it } from 'vitest';
import { startTestService, testConfig } from '../support/app.js';
import { TWILIO_SID } from './support/providers.js';
import { vonageKeys } from './support/signing.js';

const TWILIO = {
  TWILIO_ACCOUNT_SID: TWILIO_SID,
  TWILIO_AUTH_TOKEN: 'twilio-token',
  TWILIO_VERIFY_SERVICE_SID: 'VA0123456789abcdef0123456789abcdef',
};
const VONAGE = {
  VONAGE_APPLICATION_ID: 'aaaaaaaa-bbbb-cccc-dddd-0123456789ab',
  VONAGE_PRIVATE_KEY: vonageKeys.privateKeyEnv,
};

describe('SILENT_PROVIDER', () => {
  it('accepts twilio or vonage only, and refuses a choice whose settings are missing, naming them', () => {
    expect(() => testConfig({ SILENT_PROVIDER: 'telnyx' })).toThrow(/SILENT_PROVIDER/);
    expect(() => testConfig({ SILENT_PROVIDER: 'twilio' })).toThrow(
      /SILENT_PROVIDER=twilio: Twilio Verify SNA needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_VERIFY_SERVICE_SID/,
    );
    expect(() => testConfig({ SILENT_PROVIDER: 'vonage', ...TWILIO })).toThrow(
      /SILENT_PROVIDER=vonage: .*VONAGE_APPLICATION_ID/,
    );
    expect(() => testConfig({ ...TWILIO, TWILIO_VERIFY_SERVICE_SID: 'not-a-sid' })).toThrow(
      /TWILIO_VERIFY_SERVICE_SID/,
    );
    expect(() => testConfig({ SILENT_PROVIDER: 'twilio', ...TWILIO })).not.toThrow();
    expect(() => testConfig({ SILENT_PROVIDER: 'vonage', ...VONAGE })).not.toThrow();
  });

  it('builds the chosen provider only: /health shows it on SILENT, and the other one nowhere', async () => {
    const svc = await startTestService({ SILENT_PROVIDER: 'vonage', ...VONAGE, ...TWILIO });
    try {
      const health = await svc.get('/health');
      const silent = health.body.channels.SILENT;
      expect(silent.providers.map((p: { name: string }) => p.name)).toEqual(['vonage-verify']);
      expect(silent.liveCodes).toBe('delivered');
      const unset = await startTestService(TWILIO);
      try {
        const h = await unset.get('/health');
        // Configured but not chosen: not built; live SILENT requests go to the outbox (LIVE_OUTBOX=allow).
        expect(h.body.channels.SILENT.providers.map((p: { name: string }) => p.name)).toEqual(['outbox']);
        expect(h.body.channels.SILENT.liveCodes).toBe('outbox');
      } finally {
        await unset.close();
      }
    } finally {
      await svc.close();
    }
  });
});
