import { afterEach, describe, expect, it } from 'vitest';
import { type CallRig, startCallRig } from './support/call-service.js';

/** /health says whether calling is enabled on the WhatsApp Business number (GET /{phone-number-id}/settings). */
describe('WhatsApp calls on /health', () => {
  let rig: CallRig | null = null;
  afterEach(async () => {
    await rig?.close();
    rig = null;
  });

  it.each([
    [true, 'up', 'calling ENABLED'],
    [false, 'down', 'calling DISABLED'],
  ])('calling enabled %s: whatsapp-call is %s with "%s"', async (callingEnabled, state, detail) => {
    rig = await startCallRig({ fake: { callingEnabled } });
    const health = await rig.svc.get('/health');
    expect(health.status).toBe(200);
    expect(health.body.channels.WHATSAPP.providers).toContainEqual({ name: 'whatsapp-call', state, detail });
    // The text provider and the channel are not the call's: WhatsApp text still works.
    expect(health.body.channels.WHATSAPP.providers.map((p: { name: string }) => p.name)).toContain(
      'whatsapp',
    );
  });
});
