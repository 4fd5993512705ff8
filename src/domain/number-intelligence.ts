import { HOUR_MS } from './clock.js';
import { DomainError } from './errors.js';
import type {
  LineType,
  LookupOutcome,
  LookupParts,
  LookupScope,
  NumberIntelligenceSettings,
  SimChange,
} from './number-facts.js';
import { type RiskAssessment, type RiskSignal, riskOf } from './risk.js';

/**
 * What a carrier lookup tells of a phone number, and the account's rules over it, as pure
 * functions: which sends need a lookup (`lookupNeeds`), and what its answer means for one send
 * (`decideNumber`: a refusal, or the risk signals `line_type`, `sim_swap`, `lookup_unavailable`).
 * The lookup itself is a port (src/domain/ports/number-lookup.ts), implemented by src/lookup.
 */

export * from './number-facts.js';

// Channels by name, so that channels added later (VOICE, SILENT) need no change here.
const SCOPE_CHANNELS: Record<Exclude<LookupScope, 'off'>, ReadonlySet<string>> = {
  sms_voice: new Set(['SMS', 'VOICE']),
  all_phone: new Set(['SMS', 'VOICE', 'WHATSAPP', 'SILENT']),
};

/**
 * The parts to look up for a send on `channel`, or null when the account does not look up numbers
 * of that channel. The line type is always asked (it is the `line_type` signal and the contact
 * profile's); the SIM change only when the account set `simSwapHours`, since it costs extra.
 */
export function lookupNeeds(settings: NumberIntelligenceSettings, channel: string): LookupParts | null {
  if (settings.lookup === 'off' || !SCOPE_CHANNELS[settings.lookup].has(channel)) return null;
  return { line: true, sim: settings.simSwapHours !== null };
}

/** How much each line type adds to the risk score (a mobile adds nothing). */
export const LINE_TYPE_WEIGHTS: Record<LineType, number> = {
  mobile: 0,
  landline: 15,
  voip: 25,
  tollFree: 30,
  premium: 50,
  other: 15,
};
/** A SIM change within `simSwapHours`. */
export const SIM_SWAP_WEIGHT = 40;
/** A SIM change the carrier dates only to a window wider than `simSwapHours`: possibly recent. */
export const POSSIBLE_SIM_SWAP_WEIGHT = 20;
/** No answer from the lookup: a little risk, since the screen knows less than it would. */
export const LOOKUP_UNAVAILABLE_WEIGHT = 10;

/** Names of the refusals of analytics (`recordRefusal`'s reason), beside blocked, breaker and risk. */
export type NumberRefusalReason = 'line_type' | 'sim_swap' | 'lookup_unavailable';

export interface NumberDecision {
  /** The signals this lookup adds to the send's risk (`line_type`, `sim_swap`, `lookup_unavailable`). */
  signals: RiskSignal[];
  /** The line type the lookup found: it supersedes the one libphonenumber infers (see combineRisk). */
  lineType: LineType | null;
  /** A refusal the account's settings call for: throw `error`, count it under `reason`. */
  refusal: { reason: NumberRefusalReason; error: DomainError } | null;
}

const LINE_TYPE_WORDS: Record<LineType, string> = {
  mobile: 'a mobile number',
  landline: 'a landline number',
  voip: 'a VoIP number',
  tollFree: 'a toll-free number',
  premium: 'a premium-rate number',
  other: 'a number of another line type (pager, voicemail, personal or shared)',
};

/** Whether the SIM changed within `hours` before `now`: certainly, possibly, or not as far as known. */
export function simChangedWithin(change: SimChange, hours: number, now: number): 'yes' | 'maybe' | 'no' {
  if ('at' in change) return now - change.at < hours * HOUR_MS ? 'yes' : 'no';
  if (!change.changed) return 'no';
  // The change lies between checkedAt - withinHours and checkedAt.
  const elapsedHours = Math.max(0, now - change.checkedAt) / HOUR_MS;
  return change.withinHours + elapsedHours <= hours ? 'yes' : 'maybe';
}

const simWords = (change: SimChange, now: number): string =>
  'at' in change
    ? `the SIM changed ${Math.max(0, Math.round((now - change.at) / HOUR_MS))} h ago`
    : `the SIM changed within the ${change.withinHours} h before the lookup (the carrier gives no date)`;

/**
 * What a lookup's outcome means for one send on `channel` under the account's settings: a line
 * type the account refuses (400 UNSUPPORTED_NUMBER, `details[].field = "lineType"`), a recent SIM
 * change under `simSwapAction: "refuse"` (403 RISK_TOO_HIGH naming `sim_swap`), a failed lookup
 * under `lookupFailClosed` (403 RISK_TOO_HIGH naming `lookup_unavailable`), else the risk signals.
 * A SIM change only possibly within the window (a carrier that answers for a wider one) is a
 * signal of half the weight and never refuses.
 */
export function decideNumber(
  settings: NumberIntelligenceSettings,
  outcome: LookupOutcome,
  send: { channel: string; now: number },
): NumberDecision {
  const signals: RiskSignal[] = [];
  const facts = outcome.facts;
  const lineType = facts?.lineType ?? null;
  const decided = (refusal: NumberDecision['refusal']): NumberDecision => ({ signals, lineType, refusal });

  if (lineType !== null) {
    if (settings.refuseLineTypes.includes(lineType)) {
      const message = `${LINE_TYPE_WORDS[lineType]}, which this account does not send codes to`;
      return decided({
        reason: 'line_type',
        error: new DomainError('UNSUPPORTED_NUMBER', `The phone is ${message}; no code was sent.`, [
          { field: 'lineType', channel: send.channel, message: `${lineType}: ${message}` },
        ]),
      });
    }
    if (LINE_TYPE_WEIGHTS[lineType] > 0)
      signals.push({
        name: 'line_type',
        weight: LINE_TYPE_WEIGHTS[lineType],
        detail: LINE_TYPE_WORDS[lineType],
      });
  }

  const change = facts?.lastSimChange ?? null;
  if (settings.simSwapHours !== null && change !== null) {
    const within = simChangedWithin(change, settings.simSwapHours, send.now);
    const detail = simWords(change, send.now);
    if (within === 'yes') {
      const signal: RiskSignal = { name: 'sim_swap', weight: SIM_SWAP_WEIGHT, detail };
      signals.push(signal);
      if (settings.simSwapAction === 'refuse') {
        return decided({
          reason: 'sim_swap',
          error: new DomainError(
            'RISK_TOO_HIGH',
            `The phone's SIM changed within the last ${settings.simSwapHours} h, and this account refuses such sends; no code was sent.`,
            [{ field: 'sim_swap', channel: send.channel, message: detail }],
          ),
        });
      }
    } else if (within === 'maybe') {
      signals.push({ name: 'sim_swap', weight: POSSIBLE_SIM_SWAP_WEIGHT, detail });
    }
  }

  if (!outcome.ok) {
    const detail = `the number could not be looked up (${outcome.error})`;
    signals.push({ name: 'lookup_unavailable', weight: LOOKUP_UNAVAILABLE_WEIGHT, detail });
    if (settings.lookupFailClosed) {
      return decided({
        reason: 'lookup_unavailable',
        error: new DomainError(
          'RISK_TOO_HIGH',
          'The phone number could not be looked up, and this account refuses sends it cannot check (lookupFailClosed); no code was sent. Try again shortly.',
          [{ field: 'lookup_unavailable', channel: send.channel, message: detail }],
        ),
      });
    }
  }
  return decided(null);
}

/**
 * The risk of a send with its lookup's signals added. A line type the carrier gave replaces the
 * `number_type` signal that libphonenumber inferred from the digits alone.
 */
export function combineRisk(base: RiskAssessment, decision: NumberDecision): RiskAssessment {
  const kept =
    decision.lineType === null ? base.signals : base.signals.filter((s) => s.name !== 'number_type');
  return riskOf([...kept, ...decision.signals]);
}
