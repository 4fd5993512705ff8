import { HOUR_MS } from '../domain/clock.js';
import type { LookupOutcome, LookupParts, NumberFacts } from '../domain/number-intelligence.js';

/**
 * What a test key's lookups answer: no provider is asked, nothing is cached or billed. The numbers
 * are in Ofcom's range for drama (+44 7700 900000–900999), valid mobile numbers that reach no one,
 * so a send accepts them; each answers as docs/lookup.md lists, every other number as a mobile
 * with no SIM change. Integrators test their handling of each refusal with them.
 */
const TEST_CARRIER = 'Contact Verify Test Mobile';

type TestAnswer = (now: number) => { facts: Partial<NumberFacts> } | { error: string };

export const TEST_NUMBERS: Readonly<Record<string, { says: string; answer: TestAnswer }>> = {
  '+447700900001': {
    says: 'a VoIP number',
    answer: () => ({ facts: { lineType: 'voip', carrier: 'Contact Verify Test VoIP' } }),
  },
  '+447700900002': {
    says: 'a landline',
    answer: () => ({ facts: { lineType: 'landline', carrier: 'Contact Verify Test Fixed' } }),
  },
  '+447700900003': {
    says: 'a toll-free number',
    answer: () => ({ facts: { lineType: 'tollFree', carrier: null } }),
  },
  '+447700900004': {
    says: 'a premium-rate number',
    answer: () => ({ facts: { lineType: 'premium', carrier: null } }),
  },
  '+447700900005': {
    says: 'a number of another line type',
    answer: () => ({ facts: { lineType: 'other', carrier: null } }),
  },
  '+447700900010': {
    says: 'a mobile whose SIM changed 2 hours ago',
    answer: (now) => ({ facts: { lastSimChange: { at: now - 2 * HOUR_MS } } }),
  },
  '+447700900011': {
    says: 'a mobile whose SIM changed 3 days ago',
    answer: (now) => ({ facts: { lastSimChange: { at: now - 72 * HOUR_MS } } }),
  },
  '+447700900012': {
    says: 'a mobile whose SIM changed within the last 24 hours (the carrier gives no date)',
    answer: (now) => ({ facts: { lastSimChange: { withinHours: 24, changed: true, checkedAt: now } } }),
  },
  '+447700900020': {
    says: 'a lookup that fails (`lookup_unavailable`)',
    answer: () => ({ error: 'the test number +447700900020 always fails its lookup' }),
  },
};

const MOBILE: NumberFacts = {
  lineType: 'mobile',
  carrier: TEST_CARRIER,
  country: 'GB',
  mcc: '234',
  mnc: '99',
  lastSimChange: null,
};

/** A test key's lookup of `e164`: the parts asked of its test number's answer. */
export function testLookup(e164: string, parts: LookupParts, now: number): LookupOutcome {
  const answer = TEST_NUMBERS[e164]?.answer(now) ?? { facts: {} };
  if ('error' in answer) return { ok: false, retryable: true, error: answer.error, facts: null };
  const all = { ...MOBILE, country: e164.startsWith('+44') ? 'GB' : null, ...answer.facts };
  const facts: NumberFacts = {
    ...(parts.line ? all : { lineType: null, carrier: null, country: null, mcc: null, mnc: null }),
    lastSimChange: parts.sim ? all.lastSimChange : null,
  };
  if (facts.lineType !== 'mobile' && parts.line) {
    facts.mcc = null;
    facts.mnc = null;
  }
  return { ok: true, facts, from: 'test' };
}
