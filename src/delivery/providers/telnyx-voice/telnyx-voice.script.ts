import type { StateSeal } from '../state-seal.js';

/** What a call speaks once answered, carried (sealed) in its client_state until then. */
export interface CallScript {
  text: string;
  /** The `speak` voice (TELNYX_VOICES: an Azure neural voice, which carries its language). */
  voice: string;
  /** When the code expires (epoch ms): a webhook later than that speaks nothing. */
  expiresAt: number;
}

/** The client_state of a call: base64 (as Telnyx requires) of the sealed script. */
export const sealScript = (seal: StateSeal, script: CallScript): string =>
  Buffer.from(seal.seal(JSON.stringify(script)), 'base64url').toString('base64');

/** The script of a call's client_state, or null when it is not one this service sealed (or it expired). */
export function openScript(seal: StateSeal, clientState: unknown, nowMs: number): CallScript | null {
  if (typeof clientState !== 'string' || clientState === '') return null;
  const plain = seal.open(Buffer.from(clientState, 'base64').toString('base64url'));
  if (plain === null) return null;
  try {
    const script = JSON.parse(plain) as CallScript;
    return typeof script.text === 'string' && typeof script.voice === 'string' && script.expiresAt > nowMs
      ? script
      : null;
  } catch {
    return null;
  }
}
