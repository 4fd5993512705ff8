import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOggOpus } from './ogg-opus.js';

/**
 * The spoken prompts of a code call: per language, the ten digits and two phrases, rendered once
 * by `scripts/render-prompts.ts` and committed as Ogg Opus under `assets/prompts/<language>/`.
 * A call sends their packets as they are (no speech engine and no encoder at run time).
 */
export const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;
export type Digit = (typeof DIGITS)[number];
/** `intro` is said before the first reading of the code, `again` before the second. */
export type ClipName = Digit | 'intro' | 'again';
export const CLIP_NAMES: readonly ClipName[] = [...DIGITS, 'intro', 'again'];

/** Where the rendered prompts are: `assets/prompts` of the package, from src/ and dist/ alike. */
export const PROMPTS_DIR = fileURLToPath(new URL('../../assets/prompts/', import.meta.url));

/** The file of one clip; `silence.opus` (one 20 ms packet) is shared by every language. */
export const clipFile = (dir: string, language: string, clip: ClipName) =>
  join(dir, language, `${clip}.opus`);
export const silenceFile = (dir: string) => join(dir, 'silence.opus');

/** One language's clips as Opus packets of 20 ms, ready to be sent. */
export interface PromptSet {
  language: string;
  clips: Record<ClipName, readonly Uint8Array[]>;
  /** 20 ms of silence, sent between clips so that the stream has no holes. */
  silence: Uint8Array;
}

/** Pauses of a code's reading, in 20 ms packets. */
const PAUSE = {
  /** Before anything is said: lets the far end's jitter buffer settle. */
  lead: 15,
  /** After a phrase. */
  phrase: 30,
  /** Between two digits: long enough to write each one down, and to tell them apart. */
  digit: 20,
  /** Between the two readings. */
  round: 50,
  /** After the last digit, before the call is ended. */
  tail: 25,
} as const;

const sets = new Map<string, PromptSet>();

/** The languages with a complete set of prompts in `dir`. */
export function promptLanguages(dir = PROMPTS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && CLIP_NAMES.every((c) => existsSync(clipFile(dir, e.name, c))))
    .map((e) => e.name)
    .sort();
}

/** Reads (once per process and directory) the prompts of `language`; throws when one is missing. */
export function loadPromptSet(language: string, dir = PROMPTS_DIR): PromptSet {
  const key = `${dir}\0${language}`;
  const cached = sets.get(key);
  if (cached) return cached;
  const clips = Object.fromEntries(
    CLIP_NAMES.map((clip) => [clip, readOggOpus(readFileSync(clipFile(dir, language, clip))).packets]),
  ) as Record<ClipName, Uint8Array[]>;
  const [silence] = readOggOpus(readFileSync(silenceFile(dir))).packets;
  if (!silence) throw new Error(`${silenceFile(dir)} holds no packet`);
  const set = { language, clips, silence };
  sets.set(key, set);
  return set;
}

/**
 * The packets of a whole code call: the intro, the code digit by digit, `again`, the code once
 * more, with pauses of silence between them. Only digits are accepted: a code is digits.
 */
export function codeReading(code: string, set: PromptSet): Uint8Array[] {
  if (!/^[0-9]{1,20}$/.test(code)) throw new Error('A spoken code is 1 to 20 digits');
  const out: Uint8Array[] = [];
  const pause = (packets: number) => {
    for (let i = 0; i < packets; i++) out.push(set.silence);
  };
  const reading = () => {
    [...code].forEach((digit, i) => {
      if (i > 0) pause(PAUSE.digit);
      out.push(...set.clips[digit as Digit]);
    });
  };
  pause(PAUSE.lead);
  out.push(...set.clips.intro);
  pause(PAUSE.phrase);
  reading();
  pause(PAUSE.round);
  out.push(...set.clips.again);
  pause(PAUSE.phrase);
  reading();
  pause(PAUSE.tail);
  return out;
}
