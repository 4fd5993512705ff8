/**
 * Renders the spoken prompts of code calls into assets/prompts/<language>/ as Ogg Opus (16 kb/s,
 * mono, 48 kHz, 20 ms packets): for every locale the service writes, the ten digits and the two
 * phrases of scripts/prompts/voices.ts (taken from the locale's texts), and one shared packet of
 * silence. Run it after changing a text or adding a language:
 *
 *   apt-get install espeak-ng sox   # the only tools it needs; the service needs neither
 *   npx tsx scripts/render-prompts.ts [language …]
 *
 * espeak-ng speaks each clip, sox resamples it to 48 kHz, trims the silence at its ends, shortens
 * pauses inside it and normalises its level, and opusscript (the reference libopus in WASM)
 * encodes it. A clip with a pause longer than MAX_PAUSE_MS inside is refused: a listener (and the
 * tests' recogniser) tells clips apart by the pauses between them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import OpusScript from 'opusscript';
import { writeOggOpus } from '../src/media/ogg-opus.js';
import { type ClipName, clipFile, DIGITS, PROMPTS_DIR, silenceFile } from '../src/media/prompts.js';
import { PROMPT_VOICES } from './prompts/voices.js';

const RATE = 48_000;
const FRAME = 960;
const BITRATE = 16_000;
/** espeak-ng's words per minute: a little slower than its default 175, for codes. */
const SPEED = 150;
const MAX_PAUSE_MS = 200;
const OPUS_SET_BITRATE = 4002;
/** libopus' lookahead at 48 kHz (2.5 ms + 4 ms), the pre-skip of every clip; opusscript cannot read it. */
const PRE_SKIP = 312;

function speak(voice: string, text: string): Int16Array {
  const wav = execFileSync('espeak-ng', ['-v', voice, '-s', String(SPEED), '--stdout', text], {
    maxBuffer: 64 << 20,
  });
  // Trim the ends (below 0.5 % of full scale), cut inner pauses to 150 ms, peak at -3 dBFS.
  const raw = execFileSync(
    'sox',
    [
      ...['-t', 'wav', '-'],
      ...['-t', 'raw', '-e', 'signed', '-b', '16', '-c', '1', '-r', String(RATE), '-'],
      ...['silence', '-l', '1', '0.02', '0.5%', '-1', '0.15', '0.5%'],
      'reverse',
      ...['silence', '1', '0.02', '0.5%'],
      'reverse',
      ...['gain', '-n', '-3'],
    ],
    { input: wav, maxBuffer: 64 << 20 },
  );
  return new Int16Array(raw.buffer, raw.byteOffset, raw.byteLength / 2);
}

/** The longest run of 10 ms frames whose peak stays under 0.5 % of full scale, in ms. */
function longestPause(pcm: Int16Array): number {
  const frame = RATE / 100;
  let run = 0;
  let longest = 0;
  for (let at = 0; at + frame <= pcm.length; at += frame) {
    let peak = 0;
    for (let i = at; i < at + frame; i++) peak = Math.max(peak, Math.abs(pcm[i] ?? 0));
    run = peak < 164 ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest * 10;
}

function encode(pcm: Int16Array): { packets: Uint8Array[]; preSkip: number } {
  const encoder = new OpusScript(RATE, 1, OpusScript.Application.VOIP);
  encoder.encoderCTL(OPUS_SET_BITRATE, BITRATE);
  const preSkip = PRE_SKIP;
  // Pad with the lookahead's worth of silence so that the end of the clip comes out of the encoder.
  const frames = Math.ceil((pcm.length + preSkip) / FRAME);
  const padded = new Int16Array(frames * FRAME);
  padded.set(pcm);
  const packets: Uint8Array[] = [];
  for (let f = 0; f < frames; f++) {
    const frame = Buffer.from(padded.buffer, f * FRAME * 2, FRAME * 2);
    packets.push(new Uint8Array(encoder.encode(frame, FRAME)));
  }
  encoder.delete();
  return { packets, preSkip };
}

function render(file: string, pcm: Int16Array, text: string) {
  const { packets, preSkip } = encode(pcm);
  const ogg = writeOggOpus({ packets, preSkip, samples: pcm.length, comments: [`TITLE=${text}`] });
  writeFileSync(file, ogg);
  return ogg.length;
}

const wanted = process.argv.slice(2);
const languages = wanted.length > 0 ? wanted : Object.keys(PROMPT_VOICES);
let total = 0;
for (const language of languages) {
  const voice = PROMPT_VOICES[language];
  if (!voice) throw new Error(`No voice for ${language} in scripts/prompts/voices.ts`);
  mkdirSync(`${PROMPTS_DIR}/${language}`, { recursive: true });
  const texts: Array<[ClipName, string]> = [
    ...DIGITS.map((d, i): [ClipName, string] => [d, voice.digits[i] ?? d]),
    ['intro', voice.intro],
    ['again', voice.again],
  ];
  let bytes = 0;
  let seconds = 0;
  for (const [clip, text] of texts) {
    const pcm = speak(voice.voice, text);
    const pause = longestPause(pcm);
    if (pause > MAX_PAUSE_MS) {
      throw new Error(`${language}/${clip} ("${text}") has a pause of ${pause} ms inside; reword it`);
    }
    seconds += pcm.length / RATE;
    bytes += render(clipFile(PROMPTS_DIR, language, clip), pcm, text);
  }
  total += bytes;
  console.log(
    `${language}: ${texts.length} clips, ${seconds.toFixed(1)} s of speech, ${(bytes / 1024).toFixed(1)} KiB`,
  );
}
total += render(silenceFile(PROMPTS_DIR), new Int16Array(FRAME), 'silence');
console.log(`total ${(total / 1024).toFixed(1)} KiB in ${PROMPTS_DIR}`);
