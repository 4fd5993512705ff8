import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/domain/clock.js';
import {
  combineRisk,
  decideNumber,
  LINE_TYPE_WEIGHTS,
  LOOKUP_UNAVAILABLE_WEIGHT,
  type LookupOutcome,
  lookupNeeds,
  type NumberFacts,
  type NumberIntelligenceSettings,
  POSSIBLE_SIM_SWAP_WEIGHT,
  SIM_SWAP_WEIGHT,
  simChangedWithin,
} from '../../src/domain/number-intelligence.js';
import { riskOf } from '../../src/domain/risk.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const settings = (over: Partial<NumberIntelligenceSettings> = {}): NumberIntelligenceSettings => ({
  lookup: 'sms_voice',
  refuseLineTypes: [],
  simSwapHours: null,
  simSwapAction: 'signal',
  lookupFailClosed: false,
  silentTimeoutSeconds: 30,
  ...over,
});
const facts = (over: Partial<NumberFacts> = {}): NumberFacts => ({
  lineType: 'mobile',
  carrier: 'Vodafone UK',
  country: 'GB',
  mcc: '234',
  mnc: '15',
  lastSimChange: null,
  ...over,
});
const found = (over: Partial<NumberFacts> = {}): LookupOutcome => ({
  ok: true,
  facts: facts(over),
  from: 'provider',
});
const failed = (partial: NumberFacts | null = null): LookupOutcome => ({
  ok: false,
  retryable: true,
  error: 'the lookup provider did not answer within 1500 ms',
  facts: partial,
});
const send = { channel: 'SMS', now: NOW };

describe('lookupNeeds: which sends are looked up, and which parts', () => {
  it('looks up nothing while the account keeps lookups off (the default)', () => {
    for (const channel of ['SMS', 'VOICE', 'WHATSAPP', 'SILENT', 'EMAIL'])
      expect(lookupNeeds(settings({ lookup: 'off' }), channel)).toBeNull();
  });

  it('sms_voice covers SMS and VOICE; all_phone every phone channel; never EMAIL', () => {
    const sv = settings({ lookup: 'sms_voice' });
    expect(lookupNeeds(sv, 'SMS')).toEqual({ line: true, sim: false });
    expect(lookupNeeds(sv, 'VOICE')).toEqual({ line: true, sim: false });
    expect(lookupNeeds(sv, 'WHATSAPP')).toBeNull();
    expect(lookupNeeds(sv, 'SILENT')).toBeNull();
    const all = settings({ lookup: 'all_phone' });
    for (const channel of ['SMS', 'VOICE', 'WHATSAPP', 'SILENT'])
      expect(lookupNeeds(all, channel)).toEqual({ line: true, sim: false });
    expect(lookupNeeds(all, 'EMAIL')).toBeNull();
  });

  it('asks for the SIM change only when the account set simSwapHours (it is billed apart)', () => {
    expect(lookupNeeds(settings({ simSwapHours: 24 }), 'SMS')).toEqual({ line: true, sim: true });
  });
});

describe('decideNumber: line types', () => {
  it('a mobile adds nothing; other line types add line_type with their weight', () => {
    expect(decideNumber(settings(), found(), send)).toEqual({
      signals: [],
      lineType: 'mobile',
      refusal: null,
    });
    for (const lineType of ['landline', 'voip', 'tollFree', 'premium', 'other'] as const) {
      const d = decideNumber(settings(), found({ lineType }), send);
      expect(d.refusal).toBeNull();
      expect(d.signals).toEqual([
        { name: 'line_type', weight: LINE_TYPE_WEIGHTS[lineType], detail: expect.any(String) },
      ]);
    }
  });

  it('refuses a line type of refuseLineTypes: 400 UNSUPPORTED_NUMBER with details[].field = "lineType"', () => {
    const d = decideNumber(
      settings({ refuseLineTypes: ['voip', 'landline'] }),
      found({ lineType: 'voip' }),
      send,
    );
    expect(d.refusal?.reason).toBe('line_type');
    expect(d.refusal?.error.code).toBe('UNSUPPORTED_NUMBER');
    expect(d.refusal?.error.details).toEqual([
      { field: 'lineType', channel: 'SMS', message: expect.stringMatching(/^voip: a VoIP number/) },
    ]);
    expect(
      decideNumber(settings({ refuseLineTypes: ['voip'] }), found({ lineType: 'mobile' }), send).refusal,
    ).toBeNull();
  });

  it('an unknown line type neither refuses nor signals', () => {
    const d = decideNumber(settings({ refuseLineTypes: ['voip'] }), found({ lineType: null }), send);
    expect(d).toEqual({ signals: [], lineType: null, refusal: null });
  });

  it('refuses on a cached line type even when the rest of the lookup failed', () => {
    const d = decideNumber(
      settings({ refuseLineTypes: ['landline'] }),
      failed(facts({ lineType: 'landline' })),
      send,
    );
    expect(d.refusal?.reason).toBe('line_type');
  });
});

describe('decideNumber: SIM changes', () => {
  const swapped = (hoursAgo: number) => found({ lastSimChange: { at: NOW - hoursAgo * HOUR_MS } });

  it('a change within simSwapHours adds sim_swap; an older one nothing', () => {
    const s = settings({ simSwapHours: 24 });
    expect(decideNumber(s, swapped(2), send).signals).toEqual([
      { name: 'sim_swap', weight: SIM_SWAP_WEIGHT, detail: 'the SIM changed 2 h ago' },
    ]);
    expect(decideNumber(s, swapped(30), send).signals).toEqual([]);
  });

  it('under simSwapAction "refuse": 403 RISK_TOO_HIGH naming sim_swap', () => {
    const d = decideNumber(settings({ simSwapHours: 24, simSwapAction: 'refuse' }), swapped(2), send);
    expect(d.refusal?.reason).toBe('sim_swap');
    expect(d.refusal?.error.code).toBe('RISK_TOO_HIGH');
    expect(d.refusal?.error.details).toEqual([
      { field: 'sim_swap', channel: 'SMS', message: 'the SIM changed 2 h ago' },
    ]);
    expect(
      decideNumber(settings({ simSwapHours: 24, simSwapAction: 'refuse' }), swapped(25), send).refusal,
    ).toBeNull();
  });

  it('ignores the SIM while simSwapHours is off, whatever the lookup said', () => {
    expect(decideNumber(settings({ simSwapAction: 'refuse' }), swapped(1), send)).toMatchObject({
      signals: [],
      refusal: null,
    });
  });

  it('a window answer within simSwapHours is a swap; a wider one half a signal that never refuses', () => {
    const window = (withinHours: number, changed: boolean, checkedHoursAgo = 0) =>
      found({ lastSimChange: { withinHours, changed, checkedAt: NOW - checkedHoursAgo * HOUR_MS } });
    const refuse = settings({ simSwapHours: 24, simSwapAction: 'refuse' });
    expect(decideNumber(refuse, window(24, true), send).refusal?.reason).toBe('sim_swap');
    // Asked half an hour ago for 24 h: the change may now lie 24.5 h back.
    const older = decideNumber(refuse, window(24, true, 0.5), send);
    expect(older.refusal).toBeNull();
    expect(older.signals).toEqual([
      {
        name: 'sim_swap',
        weight: POSSIBLE_SIM_SWAP_WEIGHT,
        detail: expect.stringContaining('within the 24 h before the lookup'),
      },
    ]);
    const wide = decideNumber(refuse, window(240, true), send);
    expect(wide.refusal).toBeNull();
    expect(wide.signals[0]).toMatchObject({ name: 'sim_swap', weight: POSSIBLE_SIM_SWAP_WEIGHT });
    expect(decideNumber(refuse, window(240, false), send).signals).toEqual([]);
  });

  it('simChangedWithin treats a change dated in the future (clock skew) as recent', () => {
    expect(simChangedWithin({ at: NOW + HOUR_MS }, 1, NOW)).toBe('yes');
    expect(simChangedWithin({ at: NOW - HOUR_MS }, 1, NOW)).toBe('no');
  });
});

describe('decideNumber: a failed lookup', () => {
  it('adds lookup_unavailable and the send goes on', () => {
    const d = decideNumber(settings(), failed(), send);
    expect(d.refusal).toBeNull();
    expect(d.signals).toEqual([
      {
        name: 'lookup_unavailable',
        weight: LOOKUP_UNAVAILABLE_WEIGHT,
        detail: 'the number could not be looked up (the lookup provider did not answer within 1500 ms)',
      },
    ]);
  });

  it('is refused under lookupFailClosed: 403 RISK_TOO_HIGH naming lookup_unavailable', () => {
    const d = decideNumber(settings({ lookupFailClosed: true }), failed(), send);
    expect(d.refusal?.reason).toBe('lookup_unavailable');
    expect(d.refusal?.error.code).toBe('RISK_TOO_HIGH');
    expect(d.refusal?.error.details?.[0]).toMatchObject({ field: 'lookup_unavailable', channel: 'SMS' });
  });

  it('keeps the signals of the parts it has (a cached VoIP line type beside a failed SIM lookup)', () => {
    const d = decideNumber(settings({ simSwapHours: 24 }), failed(facts({ lineType: 'voip' })), send);
    expect(d.signals.map((s) => s.name)).toEqual(['line_type', 'lookup_unavailable']);
  });
});

describe('combineRisk', () => {
  const base = riskOf([
    { name: 'number_type', weight: 20, detail: 'a VOIP number' },
    { name: 'destination_velocity', weight: 10, detail: '3 sends' },
  ]);

  it("replaces libphonenumber's number_type with the carrier's line type", () => {
    const combined = combineRisk(base, decideNumber(settings(), found({ lineType: 'mobile' }), send));
    expect(combined.signals.map((s) => s.name)).toEqual(['destination_velocity']);
    expect(combined).toMatchObject({ score: 10, level: 'low' });
    const voip = combineRisk(base, decideNumber(settings(), found({ lineType: 'voip' }), send));
    expect(voip.signals.map((s) => s.name)).toEqual(['destination_velocity', 'line_type']);
    expect(voip.score).toBe(10 + LINE_TYPE_WEIGHTS.voip);
  });

  it('keeps number_type when the lookup gave no line type, and adds its signals', () => {
    const combined = combineRisk(base, decideNumber(settings({ simSwapHours: 24 }), failed(), send));
    expect(combined.signals.map((s) => s.name)).toEqual([
      'number_type',
      'destination_velocity',
      'lookup_unavailable',
    ]);
    expect(combined.score).toBe(30 + LOOKUP_UNAVAILABLE_WEIGHT);
    expect(combined.level).toBe('medium');
  });
});
