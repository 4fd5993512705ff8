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

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export interface SmsSegments {
  encoding: 'GSM-7' | 'UCS-2';
  /** Length in the encoding's units: GSM-7 septets, or UTF-16 code units. */
  characters: number;
  segments: number;
}

const LIMITS = { 'GSM-7': { single: 160, part: 153 }, 'UCS-2': { single: 70, part: 67 } } as const;

export function smsSegments(text: string): SmsSegments {
  const chars = [...text];
  const gsm = chars.every((c) => BASIC.has(c) || EXTENSION.has(c));
  const encoding = gsm ? 'GSM-7' : 'UCS-2';
  const sizes = chars.map((c) => (gsm ? (EXTENSION.has(c) ? 2 : 1) : c.length));
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
