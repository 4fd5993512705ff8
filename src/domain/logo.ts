/**
 * An account's uploaded logo: the image types accepted, the size bound, and the check that the
 * bytes are what the declared type says (a file's first bytes, not its name or header, decide).
 */

export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** 100 KiB: a logo shown 40 pixels high needs far less; a bound keeps rows and emails small. */
export const MAX_LOGO_BYTES = 100 * 1024;

export interface LogoImage {
  contentType: LogoType;
  data: Buffer;
}

export const isLogoType = (value: string): value is LogoType =>
  (LOGO_TYPES as readonly string[]).includes(value);

const startsWith = (data: Buffer, bytes: number[], offset = 0) =>
  data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);

/** The image type the bytes are, by their signature; null for anything else. */
export function sniffImageType(data: Buffer): LogoType | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (
    startsWith(data, [0x47, 0x49, 0x46, 0x38]) &&
    (data[4] === 0x37 || data[4] === 0x39) &&
    data[5] === 0x61
  )
    return 'image/gif';
  // RIFF....WEBP
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  return null;
}
