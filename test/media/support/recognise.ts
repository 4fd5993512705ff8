import OpusScript from 'opusscript';
import { CLIP_NAMES, type ClipName, loadPromptSet } from '../../../src/media/prompts.js';

/**
 * Hears a code in decoded call audio, the way the note on WebRTC audio measured it: the audio is
 * cut into stretches of speech at pauses, and each stretch is matched against the language's
 * reference clips (decoded from the committed prompts) by log-mel spectra aligned with dynamic
 * time warping. It knows nothing of the code that was sent: a wrong or missing digit comes out
 * as what was actually heard.
 */

const RATE = 16_000;
const WINDOW = 400; // 25 ms
const HOP = 160; // 10 ms
const FFT = 512;
const BANDS = 26;
/** A pause of at least this long ends a stretch of speech (clips have none longer than 200 ms inside). */
const PAUSE_MS = 250;
/** Shorter stretches are clicks, not words. */
const MIN_SPEECH_MS = 80;
/** Peak under which a 10 ms frame is silence: 0.5 % of full scale, the renderer's own rule. */
const SILENT_PEAK = 164;

export interface Heard {
  /** What each stretch of speech was recognised as, in order. */
  clips: ClipName[];
  /** The digits heard, in order (both readings). */
  digits: string;
  /** For each stretch, the second-best clip's distance over the best one's: how sure the match is. */
  margins: number[];
}

const references = new Map<string, Array<{ clip: ClipName; features: Float64Array[] }>>();

function referencesOf(language: string) {
  let refs = references.get(language);
  if (!refs) {
    const set = loadPromptSet(language);
    refs = CLIP_NAMES.map((clip) => {
      const decoder = new OpusScript(48_000, 1, OpusScript.Application.VOIP);
      const pcm = concat(set.clips[clip].map((p) => toInt16(decoder.decode(Buffer.from(p)))));
      decoder.delete();
      const [speech] = speechStretches(pcm);
      return { clip, features: logMel(speech ?? pcm) };
    });
    references.set(language, refs);
  }
  return refs;
}

/** Recognises the clips spoken in `pcm` (48 kHz mono) among `language`'s prompts. */
export function recognise(pcm: Int16Array, language: string): Heard {
  const refs = referencesOf(language);
  const clips: ClipName[] = [];
  const margins: number[] = [];
  for (const stretch of speechStretches(pcm)) {
    const features = logMel(stretch);
    const scored = refs
      .map((r) => ({ clip: r.clip, distance: dtw(features, r.features) }))
      .sort((a, b) => a.distance - b.distance);
    const [best, second] = scored;
    if (!best || !second) continue;
    clips.push(best.clip);
    margins.push(second.distance / Math.max(best.distance, 1e-9));
  }
  return { clips, digits: clips.filter((c) => /^[0-9]$/.test(c)).join(''), margins };
}

/** Cuts 48 kHz audio into stretches of speech separated by pauses of at least PAUSE_MS. */
export function speechStretches(pcm: Int16Array): Int16Array[] {
  const frame = 480;
  const voiced: boolean[] = [];
  for (let at = 0; at + frame <= pcm.length; at += frame) {
    let peak = 0;
    for (let i = at; i < at + frame; i++) peak = Math.max(peak, Math.abs(pcm[i] ?? 0));
    voiced.push(peak >= SILENT_PEAK);
  }
  const out: Int16Array[] = [];
  let start = -1;
  let lastVoiced = -1;
  const close = () => {
    if (start >= 0 && (lastVoiced - start + 1) * 10 >= MIN_SPEECH_MS) {
      out.push(pcm.subarray(start * frame, (lastVoiced + 1) * frame));
    }
    start = -1;
  };
  voiced.forEach((v, i) => {
    if (!v) {
      if (start >= 0 && (i - lastVoiced) * 10 >= PAUSE_MS) close();
      return;
    }
    if (start < 0) start = i;
    lastVoiced = i;
  });
  close();
  return out;
}

/** Log-mel spectra (26 bands, 25 ms windows every 10 ms) of 48 kHz audio, after downsampling to 16 kHz. */
function logMel(pcm48: Int16Array): Float64Array[] {
  const pcm = new Float64Array(Math.floor(pcm48.length / 3));
  for (let i = 0; i < pcm.length; i++) {
    pcm[i] = ((pcm48[3 * i] ?? 0) + (pcm48[3 * i + 1] ?? 0) + (pcm48[3 * i + 2] ?? 0)) / 3 / 32768;
  }
  const filters = melFilters();
  const frames: Float64Array[] = [];
  for (let at = 0; at + WINDOW <= pcm.length; at += HOP) {
    const re = new Float64Array(FFT);
    const im = new Float64Array(FFT);
    for (let i = 0; i < WINDOW; i++) {
      re[i] = (pcm[at + i] ?? 0) * (0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (WINDOW - 1)));
    }
    fft(re, im);
    const bands = new Float64Array(BANDS);
    filters.forEach((weights, b) => {
      let e = 0;
      for (let k = 0; k < weights.length; k++) {
        const w = weights[k] ?? 0;
        if (w > 0) e += w * ((re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2);
      }
      // A floor, so that near-silent frames do not dominate with huge negative logs.
      bands[b] = Math.log(Math.max(e, 1e-6));
    });
    frames.push(bands);
  }
  return frames;
}

let filterBank: Float64Array[] | undefined;
function melFilters(): Float64Array[] {
  if (filterBank) return filterBank;
  const mel = (f: number) => 2595 * Math.log10(1 + f / 700);
  const hz = (m: number) => 700 * (10 ** (m / 2595) - 1);
  const points = Array.from({ length: BANDS + 2 }, (_, i) =>
    hz(mel(100) + ((mel(7600) - mel(100)) * i) / (BANDS + 1)),
  );
  const bin = (f: number) => Math.floor(((FFT + 1) * f) / RATE);
  filterBank = Array.from({ length: BANDS }, (_, b) => {
    const w = new Float64Array(FFT / 2 + 1);
    const [lo, mid, hi] = [bin(points[b] ?? 0), bin(points[b + 1] ?? 0), bin(points[b + 2] ?? 0)];
    for (let k = lo; k < mid; k++) w[k] = (k - lo) / Math.max(mid - lo, 1);
    for (let k = mid; k <= hi; k++) w[k] = (hi - k) / Math.max(hi - mid, 1);
    return w;
  });
  return filterBank;
}

/** In-place radix-2 FFT. */
function fft(re: Float64Array, im: Float64Array) {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j] ?? 0, re[i] ?? 0];
      [im[i], im[j]] = [im[j] ?? 0, im[i] ?? 0];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = (-2 * Math.PI) / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < size / 2; k++) {
        const wr = Math.cos(angle * k);
        const wi = Math.sin(angle * k);
        const a = start + k;
        const b = a + size / 2;
        const tr = (re[b] ?? 0) * wr - (im[b] ?? 0) * wi;
        const ti = (re[b] ?? 0) * wi + (im[b] ?? 0) * wr;
        re[b] = (re[a] ?? 0) - tr;
        im[b] = (im[a] ?? 0) - ti;
        re[a] = (re[a] ?? 0) + tr;
        im[a] = (im[a] ?? 0) + ti;
      }
    }
  }
}

/** Dynamic time warping of two feature sequences: mean Euclidean distance along the best path. */
function dtw(a: Float64Array[], b: Float64Array[]): number {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return Number.POSITIVE_INFINITY;
  const cost = new Float64Array((n + 1) * (m + 1)).fill(Number.POSITIVE_INFINITY);
  const steps = new Uint32Array((n + 1) * (m + 1));
  cost[0] = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const x = a[i - 1] as Float64Array;
      const y = b[j - 1] as Float64Array;
      let d = 0;
      for (let k = 0; k < x.length; k++) d += ((x[k] ?? 0) - (y[k] ?? 0)) ** 2;
      const options = [(i - 1) * (m + 1) + j - 1, (i - 1) * (m + 1) + j, i * (m + 1) + j - 1];
      let best = options[0] as number;
      for (const o of options)
        if ((cost[o] ?? Number.POSITIVE_INFINITY) < (cost[best] ?? Number.POSITIVE_INFINITY)) best = o;
      cost[i * (m + 1) + j] = (cost[best] ?? 0) + Math.sqrt(d);
      steps[i * (m + 1) + j] = (steps[best] ?? 0) + 1;
    }
  }
  return (cost[n * (m + 1) + m] ?? 0) / Math.max(steps[n * (m + 1) + m] ?? 1, 1);
}

const toInt16 = (b: Buffer) => new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
