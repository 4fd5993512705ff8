/**
 * How an SMS text is encoded and into how many parts it is split: GSM 03.38 (GSM-7) when every
 * character is in its basic or extension table, else UCS-2. A single message holds 160 septets
 * (GSM-7) or 70 UTF-16 code units (UCS-2); a concatenated one loses room to its header: 153 and 67
 * a part. An extension character (€, [, ] …) takes two septets and a character outside the Basic
 * Multilingual Plane (an emoji) two code units; neither is split across parts.
 */

const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[~]|€';

/** Septets per UTF-16 code unit: 1 (basic table), 2 (extension), 0: not GSM-7. A 64 KiB table, read per character. */
const SEPTETS = new Uint8Array(0x10000);
for (const c of GSM7_BASIC) SEPTETS[c.charCodeAt(0)] = 1;
for (const c of GSM7_EXTENSION) SEPTETS[c.charCodeAt(0)] = 2;

export interface SmsSegments {
  encoding: 'GSM-7' | 'UCS-2';
  /** Length in the encoding's units: GSM-7 septets, or UTF-16 code units. */
  characters: number;
  segments: number;
}

const LIMITS = { 'GSM-7': { single: 160, part: 153 }, 'UCS-2': { single: 70, part: 67 } } as const;

export function smsSegments(text: string): SmsSegments {
  const chars = [...text];
  // A character outside the BMP is two code units, the first a surrogate: never GSM-7.
  const gsm = chars.every((c) => c.length === 1 && SEPTETS[c.charCodeAt(0)] !== 0);
  const encoding = gsm ? 'GSM-7' : 'UCS-2';
  const sizes = chars.map((c) => (gsm ? (SEPTETS[c.charCodeAt(0)] as number) : c.length));
  const characters = sizes.reduce((sum, n) => sum + n, 0);
  const { single, part } = LIMITS[encoding];
  if (characters <= single) return { encoding, characters, segments: characters === 0 ? 0 : 1 };
  // Fill parts greedily: a two-unit character that does not fit starts the next part.
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > part) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return { encoding, characters, segments };
}

/**
 * Whether a text goes as one SMS: what smsSegments(text).segments <= 1 says, in one pass without
 * allocating (it runs on every SMS a built-in text renders).
 */
export function fitsOneSegment(text: string): boolean {
  // Within 70 code units every text fits, in either encoding (70 × 2 septets < 160).
  if (text.length <= LIMITS['UCS-2'].single) return true;
  if (text.length > LIMITS['GSM-7'].single) return false;
  let septets = 0;
  for (let i = 0; i < text.length; i++) {
    const size = SEPTETS[text.charCodeAt(i)] as number;
    // Not GSM-7: UCS-2, whose 70 units this text already exceeds.
    if (size === 0) return false;
    septets += size;
  }
  return septets <= LIMITS['GSM-7'].single;
}
