import { describe, expect, it } from 'vitest';
import type { DestinationSignals } from '../../src/domain/ports/read-model.js';
import { assessRisk, type RiskInput, riskFromStore, riskOf, storedRisk } from '../../src/domain/risk.js';

/** A send with nothing against it: a UK mobile, named GB, first seen now, a healthy hour. */
const quiet = (overrides: Partial<DestinationSignals> = {}, input: Partial<RiskInput> = {}): RiskInput => ({
  channel: 'SMS',
  destination: '+447400123456',
  country: 'GB',
  signals: {
    blocked: false,
    history: { sends: 0, verified: 0, wrongCodes: 0 },
    sendsLastHour: 0,
    neighboursLastHour: 0,
    breaker: null,
    ...overrides,
  },
  ...input,
});

const history = (h: Partial<DestinationSignals['history']>): DestinationSignals['history'] => ({
  sends: 0,
  verified: 0,
  wrongCodes: 0,
  ...h,
});

const signalNames = (input: RiskInput) => assessRisk(input).signals.map((s) => s.name);

describe('risk score', () => {
  it('is 0 and low for a quiet send', () => {
    expect(assessRisk(quiet())).toEqual({ score: 0, level: 'low', signals: [] });
  });

  it('rises with the destination’s send velocity', () => {
    expect(assessRisk(quiet({ sendsLastHour: 5 })).score).toBeGreaterThan(0);
    expect(signalNames(quiet({ sendsLastHour: 5 }))).toEqual(['destination_velocity']);
  });

  it('rises with the destination’s unconverted sends', () => {
    expect(signalNames(quiet({ history: history({ sends: 6, verified: 1 }) }))).toEqual([
      'unconverted_sends',
    ]);
  });

  it('rises with the destination’s wrong-code ratio', () => {
    expect(signalNames(quiet({ history: history({ sends: 2, verified: 1, wrongCodes: 4 }) }))).toEqual([
      'wrong_code_ratio',
    ]);
  });

  it('rises for a VOIP, a toll-free and an unknown-type number', () => {
    expect(assessRisk(quiet({}, { destination: '+445612345678' })).signals).toEqual([
      { name: 'number_type', weight: 20, detail: 'a VOIP number' },
    ]);
    expect(assessRisk(quiet({}, { destination: '+18005550123', country: 'US' })).signals[0]).toMatchObject({
      name: 'number_type',
      weight: 25,
    });
    expect(signalNames(quiet({}, { destination: '+999123' }))).toContain('number_type');
  });

  it('reads the type the request check found instead of parsing the number again', () => {
    // A UK mobile, described as a VOIP number: the facts given are what count.
    expect(
      assessRisk(quiet({}, { numberFacts: { type: 'VOIP', country: 'GB' } })).signals.map((s) => s.name),
    ).toEqual(['number_type']);
    expect(assessRisk(quiet({}, { numberFacts: { type: 'MOBILE', country: 'GB' } })).score).toBe(0);
  });

  it('rises on a burst of consecutive numbers of one block', () => {
    expect(signalNames(quiet({ neighboursLastHour: 8 }))).toEqual(['prefix_burst']);
  });

  it('rises when the account’s conversion for the country is low this hour', () => {
    expect(signalNames(quiet({}, { countryHour: { sent: 50, verified: 2 } }))).toEqual([
      'country_conversion',
    ]);
    expect(signalNames(quiet({}, { countryHour: { sent: 50, verified: 40 } }))).toEqual([]);
  });

  it('adds up to at most 100, and names the level', () => {
    const risky = assessRisk(
      quiet(
        {
          sendsLastHour: 9,
          neighboursLastHour: 9,
          history: history({ sends: 9 }),
        },
        { destination: '+445612345678', countryHour: { sent: 90, verified: 1 } },
      ),
    );
    expect(risky.score).toBe(100);
    expect(risky.level).toBe('high');
    expect(assessRisk(quiet({ neighboursLastHour: 6 })).level).toBe('medium');
  });

  it('an email has no number signals', () => {
    expect(
      assessRisk(
        quiet({ neighboursLastHour: 9 }, { channel: 'EMAIL', destination: 'a@example.com', country: null }),
      ).score,
    ).toBe(0);
  });
});

describe('a risk as the store keeps it', () => {
  it('keeps a risk without a signal in two bytes, and reads back every risk as it was', () => {
    const none = riskOf([]);
    expect(storedRisk(none)).toBe('[]');
    expect(riskFromStore(storedRisk(none))).toEqual({ score: 0, level: 'low', signals: [] });
    const some = riskOf([{ name: 'destination_velocity', weight: 40, detail: 'a test' }]);
    expect(riskFromStore(storedRisk(some))).toEqual(some);
    // As rows kept before: the whole object, or nothing.
    expect(riskFromStore(JSON.stringify(none))).toEqual(none);
    expect(riskFromStore(null)).toBeNull();
  });
});
