import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, type FakeAnswer } from '../../lookup/support/fake-lookup-api.js';
import { accountWith, freshNumber, SEND } from '../../lookup/support/lookup-service.js';
import { type ProviderFake, startProviderFake } from '../../lookup/support/provider-fakes.js';
import type { TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

// Every lookup provider behind a send, on SQLite and PostgreSQL, against a fake of its documented
// API on loopback: its documented answer refuses as the account's rules say, and every fault (4xx,
// 5xx, garbage, a wrong content type, an empty body, headers without a body, no answer at all) is
// `lookup_unavailable` on a 200 (or a 403 under lookupFailClosed), never a 500, never a wait past
// the lookup's budget.

const BUDGET_MS = 400;
/** Room for a loaded machine (x5) beyond the budget itself. */
const SLACK_MS = 2_500;

const MORE_FAULTS: Array<{ name: string; answer: FakeAnswer }> = [
  ...FAULTS,
  { name: 'headers, then never the body', answer: { status: 200, raw: '{"data": {}}', stallBody: true } },
  { name: 'no answer at all (hang)', answer: { hang: true } },
];

for (const name of ['twilio', 'vonage', 'telnyx', 'camara'] as const) {
  eachStore(`send-code with LOOKUP_PROVIDER=${name}`, (start) => {
    let svc: TestService;
    let fake: ProviderFake;
    let open: { key: string };
    let closed: { key: string };
    beforeAll(async () => {
      fake = await startProviderFake(name);
      svc = await start({
        ...fake.env,
        LOOKUP_TIMEOUT_MS: String(BUDGET_MS),
        // Every fault reaches the provider: the breaker would skip it after a few.
        CIRCUIT_BREAKER_FAILURES: '1000',
      });
      open = await accountWith(svc, { lookup: 'sms_voice', simSwapHours: 24 });
      closed = await accountWith(svc, { lookup: 'sms_voice', simSwapHours: 24, lookupFailClosed: true });
    });
    afterAll(async () => {
      await svc?.close();
      await fake?.close();
    });
    const sms = (key: string, phone: string) => svc.post(SEND, { channel: 'SMS', phone }, key);

    it('refuses as the account says from its documented answer', async () => {
      const refusing = await accountWith(svc, {
        lookup: 'sms_voice',
        refuseLineTypes: ['voip'],
        simSwapHours: 24,
        simSwapAction: 'refuse',
      });
      const voip = freshNumber();
      fake.say(voip, { lineType: 'voip' });
      const swapped = freshNumber();
      fake.say(swapped, { simChangedHoursAgo: 3 });
      const mobile = freshNumber();
      fake.say(mobile, { lineType: 'mobile', simChangedHoursAgo: null });

      const a = await sms(refusing.key, voip);
      if (fake.knowsLineType) {
        expect(a.status).toBe(400);
        expect(a.body.error).toMatchObject({ code: 'UNSUPPORTED_NUMBER', details: [{ field: 'lineType' }] });
      } else {
        // CAMARA tells no line type: the part stays unknown, which neither refuses nor signals.
        expect(a.status).toBe(200);
      }
      const b = await sms(refusing.key, swapped);
      if (fake.knowsSim) {
        expect(b.status).toBe(403);
        expect(b.body.error).toMatchObject({ code: 'RISK_TOO_HIGH', details: [{ field: 'sim_swap' }] });
      } else {
        // Telnyx tells no SIM change: never asked, never a signal.
        expect(b.status).toBe(200);
        expect(fake.lookupsOf(swapped)).toHaveLength(1);
      }
      const c = await sms(refusing.key, mobile);
      expect(c.status).toBe(200);
      expect(c.body.data.risk.signals).toEqual([]);
    });

    describe('faults', () => {
      for (const fault of MORE_FAULTS) {
        it(`${fault.name}: lookup_unavailable, within the budget`, async () => {
          fake.fail(fault.answer);
          try {
            const phone = freshNumber();
            const began = performance.now();
            const sent = await sms(open.key, phone);
            const took = performance.now() - began;
            expect(sent.status).toBe(200);
            const signal = sent.body.data.risk.signals.find(
              (s: { name: string }) => s.name === 'lookup_unavailable',
            );
            expect(signal).toMatchObject({ weight: 10 });
            expect(took).toBeLessThan(BUDGET_MS + SLACK_MS);
            const refused = await sms(closed.key, freshNumber());
            expect(refused.status).toBe(403);
            expect(refused.body.error.details[0].field).toBe('lookup_unavailable');
            expect(fake.api.received.length).toBeGreaterThan(0);
          } finally {
            fake.fail(null);
          }
        });
      }
    });
  });
}
