import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { type Channel, isPhoneChannel } from './channels/registry.js';
import type { NumberSignalName } from './number-facts.js';
import type { DestinationSignals } from './ports/read-model.js';
import type { WindowCounts } from './pumping-breaker.js';

/**
 * Every signal the score adds, in its order. No signal compares the request's `country` with the
 * number: send-code refuses a country the number does not belong to (400 VALIDATION_ERROR), so
 * an accepted one always agrees (docs/analytics.md).
 */
export const RISK_SIGNALS = [
  'destination_velocity',
  'unconverted_sends',
  'wrong_code_ratio',
  'number_type',
  'prefix_burst',
  'country_conversion',
] as const;
export type RiskSignalName = (typeof RISK_SIGNALS)[number];

/** One reason behind a risk score: one of RISK_SIGNALS, or one a carrier lookup adds (number-facts.ts). */
export interface RiskSignal {
  name: RiskSignalName | NumberSignalName;
  weight: number;
  detail: string;
}

export interface RiskAssessment {
  score: number;
  level: 'low' | 'medium' | 'high';
  signals: RiskSignal[];
}

export interface RiskInput {
  channel: Channel;
  destination: string;
  /** The country the request named, if any. */
  country: string | null;
  /** The number's type as the request's check found it; read from the number when absent. */
  numberFacts?: { type: string | null; country: string | null } | null;
  signals: DestinationSignals;
  /** The account's phone sends and verifications to the country this hour and the last (ChannelSpec.countryWindow). */
  countryHour?: WindowCounts;
}

/** The facts libphonenumber-js knows of a number: its type and the country its range is in. */
export function numberFacts(e164: string): { type: string | null; country: string | null } {
  const parsed = parsePhoneNumberFromString(e164);
  return { type: parsed?.getType() ?? null, country: parsed?.country ?? null };
}

/**
 * The risk of one send, 0–100, from what is known of its destination: a pure function of the
 * signals, so each weight is tested on its own. Scores add up and stop at 100; below 30 is low,
 * below 60 medium, else high.
 */
export function assessRisk(input: RiskInput): RiskAssessment {
  const { signals } = input;
  const found: RiskSignal[] = [];
  const add = (name: RiskSignalName, weight: number, detail: string) => found.push({ name, weight, detail });

  if (signals.sendsLastHour >= 3)
    add(
      'destination_velocity',
      Math.min(30, 10 * (signals.sendsLastHour - 2)),
      `${signals.sendsLastHour} sends to it in the last hour`,
    );
  const { sends, verified, wrongCodes } = signals.history;
  const unconverted = sends - verified;
  if (unconverted >= 3)
    add(
      'unconverted_sends',
      Math.min(25, 5 * unconverted),
      `${unconverted} of ${sends} sends never verified`,
    );
  if (wrongCodes >= 3 && wrongCodes / (wrongCodes + verified) > 0.5)
    add('wrong_code_ratio', 20, `${wrongCodes} wrong codes against ${verified} verified`);
  if (isPhoneChannel(input.channel)) {
    const facts = input.numberFacts ?? numberFacts(input.destination);
    if (facts.type === 'VOIP') add('number_type', 20, 'a VOIP number');
    else if (facts.type === 'TOLL_FREE') add('number_type', 25, 'a toll-free number');
    else if (facts.type === null || facts.type === 'UNKNOWN')
      add('number_type', 10, 'a number of unknown type');
    if (signals.neighboursLastHour >= 3)
      add(
        'prefix_burst',
        Math.min(35, 7 * signals.neighboursLastHour),
        `${signals.neighboursLastHour} other numbers of the same block were first seen in the last hour`,
      );
    const { sent, verified } = input.countryHour ?? { sent: 0, verified: 0 };
    if (sent >= 20 && verified / sent < 0.2)
      add(
        'country_conversion',
        25,
        `${verified} of ${sent} codes to ${input.country ?? 'this country'} verified this hour`,
      );
  }
  return riskOf(found);
}

/** The score and level of a list of signals: their weights add up and stop at 100. */
export function riskOf(signals: RiskSignal[]): RiskAssessment {
  const score = Math.min(
    100,
    signals.reduce((sum, s) => sum + s.weight, 0),
  );
  return { score, level: score < 30 ? 'low' : score < 60 ? 'medium' : 'high', signals };
}

/**
 * A send's risk as a request row and its contact keep it: JSON, except a risk without a signal
 * (score 0, low: most sends), kept as `[]`. Two bytes instead of forty, in the request's row and in
 * its contact's, which are written at every send (issue 43: what a send costs the database).
 */
export const storedRisk = (risk: RiskAssessment): string =>
  risk.signals.length === 0 && risk.score === 0 ? NO_SIGNAL : JSON.stringify(risk);

/** The risk storedRisk kept (null where none was: a request made before risk was kept). */
export const riskFromStore = (stored: string | null): RiskAssessment | null =>
  stored === null || stored === ''
    ? null
    : stored === NO_SIGNAL
      ? riskOf([])
      : (JSON.parse(stored) as RiskAssessment);

const NO_SIGNAL = '[]';
